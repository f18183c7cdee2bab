// PS3005 invalid-api-version: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText, type ValidateOptions } from '#service';
import { run, a1, template, type InvalidCase, type ValidCase, DEF } from '../support/ruleTester';
import { REF, setResource } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: "apiVersion '2025-11'",
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": |"2025-11"|,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS3005',
  },
];

const valid: ValidCase[] = [
  {
    name: "PS3005 is about version resources: a set's own apiVersion is not checked by it",
    text: template(setResource(`{ "policyDefinitions": [${REF}] }`).replace('"apiVersion": "2025-11-01"', '"apiVersion": "2025-11"')),
    notCodes: ['PS3005'],
  },
  {
    name: 'a version resource whose apiVersion is not a string: left to the schema',
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": 20251101,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    notCodes: ['PS3005'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'apiVersion with a -preview suffix',
    text: a1(`{ "policyDefinitions": [${REF}] }`).replace('2025-11-01', '2025-11-01-preview'),
    notCodes: ['PS3005'],
  },
];

run('invalid-api-version', { valid, invalid });

const codesOf = (text: string, wanted: string[], options: ValidateOptions = {}) =>
  validateText(text, options)
    .diagnostics.map((d) => String(d.code))
    .filter((c) => wanted.includes(c));

describe("a version resource's apiVersion is a real date (PS3005)", () => {
  const withApiVersion = (apiVersion: string) =>
    a1(`{ "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}" }] }`).replace(
      '"apiVersion": "2025-11-01"',
      `"apiVersion": "${apiVersion}"`,
    );
  test('months 1 to 12 and days 1 to 31, the whole value, an optional -preview', () => {
    for (const v of ['2025-01-01', '2025-12-31', '2025-11-01-preview']) assert.deepEqual(codesOf(withApiVersion(v), ['PS3005']), [], v);
    for (const v of ['2025-00-01', '2025-13-01', '2025-01-00', '2025-01-32', 'x2025-01-01', '2025-01-01x', '2025-01-01-previewx'])
      assert.deepEqual(codesOf(withApiVersion(v), ['PS3005']), ['PS3005'], v);
  });
});
