// PS9003 request-too-large: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText } from '#service';
import { run, defId, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { MIB, setOfSize } from '../support/ruleDocuments/limits';

const invalid: InvalidCase[] = [
  {
    name: 'one byte over 1 MiB: the opening brace of the resource',
    text: setOfSize(MIB + 1, 'a', true),
    code: 'PS9003',
  },
  {
    name: 'over 1 MiB in UTF-8 bytes while under 1 Mi characters',
    text: setOfSize(MIB + 2, '\u00e9', true),
    code: 'PS9003',
  },
  {
    name: 'a set in a template over 1 MiB: the opening brace of its resource',
    text: template(`    |{|
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "metadata": { "pad": "${'a'.repeat(MIB)}" }, "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] }
    }`),
    code: 'PS9003',
  },
];

const valid: ValidCase[] = [
  { name: 'exactly 1 MiB', text: setOfSize(MIB, 'a'), notCodes: ['PS9003'] },
  { name: 'exactly 1 MiB with two-byte characters', text: setOfSize(MIB, '\u00e9'), notCodes: ['PS9003'] },
];

run('request-too-large', { valid, invalid });

describe("the figures in the limits' messages", () => {
  const diagnosticsOf = (text: string, code: string) =>
    validateText(text, { assumePolicyDocument: true }).diagnostics.filter((d) => d.code === code);

  test('PS9003 gives the size in KiB, rounded up', () => {
    const set = (bytes: number) => {
      const head = '{"name": "s", "properties": {"policyDefinitions": [], "description": "';
      const tail = '"}}';
      return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
    };
    const [diagnostic] = diagnosticsOf(set(1024 * 1024 + 1), 'PS9003');
    assert.deepEqual([diagnostic?.data.size, diagnostic?.data.bytes], [1025, 1024 * 1024 + 1]);
    assert.match(diagnostic.message, /at least 1025 KiB, over the 1024 KiB limit/);
  });
});
