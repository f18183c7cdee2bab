// PS2008 unknown-item-type: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ITEM_TYPES } from '#service';
import { REPO_ROOT } from '../support/corpus';
import { run, type InvalidCase } from '../support/ruleTester';
import { item } from '../support/ruleDocuments/workspaceItems';

const invalid: InvalidCase[] = [
  {
    name: 'a type that is not listed, with a suggestion',
    text: item('"type": |"Eventstreem"|'),
    code: 'PS2008',
    severity: 2,
    message: /Did you mean 'Eventstream'/,
  },
  {
    name: 'a type not like any listed one',
    text: item('"type": |"QuantumLedger"|'),
    code: 'PS2008',
    message: /not a known item type; the list grows/,
  },
  {
    name: 'a listed type in another casing',
    text: item('"type": |"kqlDatabase"|'),
    code: 'PS2008',
    message: /spelled 'KQLDatabase'/,
    data: { suggestion: 'KQLDatabase' },
  },
];

run('unknown-item-type', { valid: [], invalid });

test('the ItemType list has the 44 values of spec section C, and the schema offers the same list', () => {
  assert.equal(ITEM_TYPES.length, 44);
  assert.equal(new Set(ITEM_TYPES).size, 44);
  const spec = path.join(REPO_ROOT, '..', 'shared', 'spec', 'service-interfaces.md');
  if (fs.existsSync(spec)) {
    const line = /\*\*ItemType\*\* values[^:]*: ([^\n]+)/.exec(fs.readFileSync(spec, 'utf8'))?.[1] ?? '';
    assert.deepEqual([...ITEM_TYPES], line.replace(/\.$/, '').split(', '), 'the list in the spec');
  } else console.log(`# the spec is not at ${spec}: the list is checked against the schema only`);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'workspaceItem.schema.json'), 'utf8')) as {
    properties: { type: { examples: string[] } };
  };
  assert.deepEqual(schema.properties.type.examples, [...ITEM_TYPES]);
});
