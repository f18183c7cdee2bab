// PS3002 invalid-version: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { normalizeVersion } from '#server/service/rules/invalid-version';
import { run, a3, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF, refWith, setResource } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: "A3 version '1.0' (suggests 1.0.0)",
    text: a3(`{ "version": |"1.0"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
    data: { suggestion: '1.0.0' },
    message: /suffix/,
  },
  {
    name: "A3 'Version' (capital V) is checked too",
    text: a3(`{ "Version": |"1.0"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A3 versions entry',
    text: a3(`{ "version": "2.0.0", "versions": ["2.0.0", |"1.0"|], "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A3 version with an empty suffix',
    text: a3(`{ "version": |"1.0.0-"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A1 properties.version with -preview is strict',
    text: a1(`{ "version": |"1.0.0-preview"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
    data: { suggestion: '1.0.0' },
  },
  {
    name: 'a set in an ARM template is strict about -preview',
    text: template(setResource(`{ "version": |"1.0.0-preview"|, "policyDefinitions": [${REF}] }`)),
    code: 'PS3002',
  },
];

const valid: ValidCase[] = [
  {
    name: 'A3 version x.y.z-preview with versions x.y.z-PREVIEW (47 built-ins)',
    text: a3(`{ "version": "1.0.1-preview", "versions": ["1.0.1-PREVIEW"], "policyDefinitions": [${REF}] }`),
    notCodes: ['PS3002'],
  },
  {
    name: "A3 'Version' 1.0.0 and a metadata.version 1.0.0-deprecated",
    text: a3(`{ "Version": "1.0.0", "metadata": { "version": "1.0.0-deprecated" }, "policyDefinitions": [${REF}] }`),
    notCodes: ['PS3002'],
  },
  {
    name: 'a version and a definitionVersion that are not text: left to the schema (PS2001)',
    text: a3(`{ "version": 1, "policyDefinitions": [${refWith('"definitionVersion": 1')}] }`),
    notCodes: ['PS3002', 'PS3003'],
    allowErrors: ['PS2001'],
  },
];

run('invalid-version', { valid, invalid });

describe("PS3002's suggestion (normalizeVersion)", () => {
  test('the version a user meant: digits of each part, a leading v and spaces dropped, missing parts 0', () => {
    assert.equal(normalizeVersion(' v10.20.30-preview '), '10.20.30');
    assert.equal(normalizeVersion('V1.2'), '1.2.0');
    assert.equal(normalizeVersion('12'), '12.0.0');
    assert.equal(normalizeVersion('1.a.3'), '1.0.0');
    assert.equal(normalizeVersion('1.2.b'), '1.2.0');
    assert.equal(normalizeVersion('x1.0.0'), undefined);
  });
});
