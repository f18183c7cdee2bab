// PS9006 document-too-large: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { RULES, validateText } from '#service';
import { run, type InvalidCase } from '../support/ruleTester';

const invalid: InvalidCase[] = [
  {
    name: 'a document over 8 MiB: checked for syntax and size only, the warning on its first character',
    text: `  |{|"name": "huge", "properties": { "description": "${'x'.repeat(8 * 1024 * 1024)}", "policyDefinitions": [] } }`,
    code: 'PS9006',
  },
];

run('document-too-large', { valid: [], invalid });

describe("the figures in the limits' messages", () => {
  const diagnosticsOf = (text: string, code: string) =>
    validateText(text, { assumePolicyDocument: true }).diagnostics.filter((d) => d.code === code);

  test('PS9006 gives the size in MiB and the bound, in its message and its description', () => {
    const text = `{"name": "huge", "properties": {"description": "${'x'.repeat(9 * 1024 * 1024)}", "policyDefinitions": []}}`;
    const [diagnostic] = diagnosticsOf(text, 'PS9006');
    assert.match(diagnostic?.message ?? '', /^This document is 9\.0 MiB: over 8 MiB only its syntax and size are checked\./);
    assert.match(RULES.find((r) => r.meta.code === 'PS9006')!.meta.description, /^A document over 8 MiB is checked/);
  });
});
