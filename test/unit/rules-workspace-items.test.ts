// Workspace items (spec C): recognised by content, checked against their schema (PS2007), with an
// unknown ItemType as a warning (PS2008) because the list grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument, validateText, ITEM_TYPES } from '#service';
import { REPO_ROOT } from '../support/corpus';
import { runInvalid, runValid, a3, defId, type InvalidCase, type ValidCase } from './rules-harness';

const ID = '5b218778-e7a5-4d73-8187-f10824047715';
const WS = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';
const item = (fields: string) => `{
  "id": "${ID}",
  "workspaceId": "${WS}",
  "displayName": "Telemetry",
  ${fields}
}`;

const invalid: InvalidCase[] = [
  { name: 'a type that is not listed, with a suggestion', text: item('"type": |"Eventstreem"|'), code: 'PS2008', severity: 2, message: /Did you mean 'Eventstream'/ },
  { name: 'a type not like any listed one', text: item('"type": |"QuantumLedger"|'), code: 'PS2008', message: /not a known item type; the list grows/ },
  { name: 'a listed type in another casing', text: item('"type": |"kqlDatabase"|'), code: 'PS2008', message: /spelled 'KQLDatabase'/, data: { suggestion: 'KQLDatabase' } },
  {
    name: 'recognised by a listed type and a displayName, without workspaceId',
    text: '{ "displayName": "x", "type": "Lakehouse", "folderId": |"folder-1"| }',
    code: 'PS2007',
    message: /'folderId' must be a UUID/,
  },
  { name: 'an id that is not a UUID', text: `{ "id": |"item-1"|, "workspaceId": "${WS}", "type": "Eventstream" }`, code: 'PS2007' },
  { name: 'tags must be an array (an object is marked at its key)', text: item('"type": "Eventstream", |"tags"|: { "id": "x" }'), code: 'PS2007', message: /'tags' must be an array, not an object/ },
  { name: 'a tag id must be a UUID', text: item('"type": "Eventstream", "tags": [{ "id": |"t"|, "displayName": "prod" }]'), code: 'PS2007', message: /'tags\[0\]'|'id' must be a UUID/ },
  { name: 'a type that is not a string is a schema error', text: item('"type": |42|'), code: 'PS2007', message: /must be a string, not an integer/ },
  { name: 'sensitivityLabel.id', text: item('"type": "Eventstream", "sensitivityLabel": { "id": |"secret"| }'), code: 'PS2007' },
];

const valid: ValidCase[] = [
  ...ITEM_TYPES.map((type) => ({ name: `ItemType ${type}`, text: item(`"type": "${type}"`), notCodes: ['PS2007', 'PS2008'] })),
  {
    name: 'every field of section C',
    text: item(`"folderId": "${WS}", "description": "d", "type": "Eventstream", "sensitivityLabel": { "id": "${ID}" }, "tags": [{ "id": "${ID}", "displayName": "prod" }]`),
    notCodes: ['PS2007', 'PS2008'],
  },
  { name: 'unknown fields are allowed (the item shape can grow too)', text: item('"type": "Eventstream", "properties2": 1'), notCodes: ['PS2007', 'PS2008'] },
];

runInvalid('PS2 items', invalid);
runValid('PS2 items', valid);

test('the ItemType list has the 44 values of spec section C, and the schema offers the same list', () => {
  assert.equal(ITEM_TYPES.length, 44);
  assert.equal(new Set(ITEM_TYPES).size, 44);
  const spec = path.join(REPO_ROOT, '..', 'shared', 'spec', 'service-interfaces.md');
  if (fs.existsSync(spec)) {
    const line = /\*\*ItemType\*\* values[^:]*: ([^\n]+)/.exec(fs.readFileSync(spec, 'utf8'))?.[1] ?? '';
    assert.deepEqual([...ITEM_TYPES], line.replace(/\.$/, '').split(', '), 'the list in the spec');
  } else console.log(`# the spec is not at ${spec}: the list is checked against the schema only`);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'workspaceItem.schema.json'), 'utf8')) as { properties: { type: { examples: string[] } } };
  assert.deepEqual(schema.properties.type.examples, [...ITEM_TYPES]);
});

test('workspace items are a document kind of their own; policy documents are not mistaken for them', () => {
  assert.equal(parsePolicyDocument(item('"type": "Eventstream"')).kind, 'workspaceItem');
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}" }`).kind, 'workspaceItem');
  assert.equal(parsePolicyDocument('{ "id": "x", "type": "Notebook" }').kind, 'workspaceItem');
  // Broken text still classifies (the tolerant tree): completion relies on it.
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}", "type": "Ev`).kind, 'workspaceItem');
  // An unlisted type alone does not make an item; a set stays a set even with a listed type name.
  assert.equal(parsePolicyDocument('{ "id": "x", "type": "Whatever" }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "type": "Report" }').kind, 'unknown');
  assert.equal(parsePolicyDocument(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] }`)).kind, 'policySetDefinition');
  assert.equal(parsePolicyDocument(`{ "workspaceId": "${WS}", "properties": { "policyDefinitions": [] } }`).kind, 'policySetDefinition');
  // A definition's parameters file (azurepolicy.parameters.json) may declare a parameter named workspaceId.
  assert.equal(parsePolicyDocument('{ "workspaceId": { "type": "String", "metadata": { "strongType": "omsWorkspace" } } }').kind, 'unknown');
  // Items get no policy set diagnostics.
  const result = validateText(item('"type": "Eventstream"'));
  assert.deepEqual(result.diagnostics, []);
});
