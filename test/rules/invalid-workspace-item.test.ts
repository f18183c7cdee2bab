// PS2007 invalid-workspace-item: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { ITEM_TYPES } from '#service';
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { ID, WS, item } from '../support/ruleDocuments/workspaceItems';

const invalid: InvalidCase[] = [
  {
    name: 'recognised by a listed type and a displayName, without workspaceId',
    text: '{ "displayName": "x", "type": "Lakehouse", "folderId": |"folder-1"| }',
    code: 'PS2007',
    message: /'folderId' must be a UUID/,
  },
  { name: 'an id that is not a UUID', text: `{ "id": |"item-1"|, "workspaceId": "${WS}", "type": "Eventstream" }`, code: 'PS2007' },
  {
    name: 'tags must be an array (an object is marked at its key)',
    text: item('"type": "Eventstream", |"tags"|: { "id": "x" }'),
    code: 'PS2007',
    message: /'tags' must be an array, not an object/,
  },
  {
    name: 'a tag id must be a UUID',
    text: item('"type": "Eventstream", "tags": [{ "id": |"t"|, "displayName": "prod" }]'),
    code: 'PS2007',
    message: /'tags\[0\]'|'id' must be a UUID/,
  },
  {
    name: 'a type that is not a string is a schema error',
    text: item('"type": |42|'),
    code: 'PS2007',
    message: /must be a string, not an integer/,
  },
  { name: 'sensitivityLabel.id', text: item('"type": "Eventstream", "sensitivityLabel": { "id": |"secret"| }'), code: 'PS2007' },
];

const valid: ValidCase[] = [
  ...ITEM_TYPES.map((type) => ({ name: `ItemType ${type}`, text: item(`"type": "${type}"`), notCodes: ['PS2007', 'PS2008'] })),
  {
    name: 'every field of section C',
    text: item(
      `"folderId": "${WS}", "description": "d", "type": "Eventstream", "sensitivityLabel": { "id": "${ID}" }, "tags": [{ "id": "${ID}", "displayName": "prod" }]`,
    ),
    notCodes: ['PS2007', 'PS2008'],
  },
  {
    name: 'unknown fields are allowed (the item shape can grow too)',
    text: item('"type": "Eventstream", "properties2": 1'),
    notCodes: ['PS2007', 'PS2008'],
  },
];

run('invalid-workspace-item', { valid, invalid });
