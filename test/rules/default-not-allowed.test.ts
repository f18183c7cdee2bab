// PS6003 default-not-allowed: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText, type ValidateOptions } from '#service';
import { run, type InvalidCase, type ValidCase, a3, DEF } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'default not among the allowed values: related to allowedValues',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["Audit", "Deny"], "defaultValue": |"Disabled"| }`),
    code: 'PS6003',
    related: ['"allowedValues"'],
  },
  {
    name: 'array default with an element that is not allowed',
    text: withParameters(`"p": { "type": "Array", "allowedValues": ["eastus", "westus"], |"defaultValue"|: ["eastus", "northpole"] }`),
    code: 'PS6003',
  },
];

const valid: ValidCase[] = [
  {
    name: 'a null default among allowed values declares no default: not compared with them',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": null }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'a default that is an expression is not compared with the allowed values',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": "[concat('a', 'b')]" }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'allowedValues that is not an array: the default is not compared with it (the schema reports it)',
    text: withParameters(`"p": { "type": "String", "allowedValues": { "a": "b" }, "defaultValue": "c" }`),
    notCodes: ['PS6003'],
    allowErrors: ['PS2001'],
  },
];

run('default-not-allowed', { valid, invalid });

const codesOf = (text: string, wanted: string[], options: ValidateOptions = {}) =>
  validateText(text, options)
    .diagnostics.map((d) => String(d.code))
    .filter((c) => wanted.includes(c));

describe('a value that holds an expression is not checked as written (isLiteral)', () => {
  test('a default array with an expression inside is not compared with the allowed values (PS6003); a plain one is', () => {
    const withDefault = (def: string) =>
      a3(
        `{ "parameters": { "p": { "type": "Array", "allowedValues": [["a"], ["b"]], "defaultValue": ${def} } }, "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { "listOfLocations": { "value": "[parameters('p')]" } } }] }`,
      );
    assert.deepEqual(codesOf(withDefault('["c"]'), ['PS6003']), ['PS6003']);
    assert.deepEqual(codesOf(withDefault(`["[field('name')]"]`), ['PS6003']), []);
    assert.deepEqual(codesOf(withDefault(`[{ "x": ["[field('name')]"] }]`), ['PS6003']), []);
  });
});
