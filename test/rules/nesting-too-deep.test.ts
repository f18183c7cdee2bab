// PS1003 nesting-too-deep: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText } from '#service';
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF, deep } from '../support/ruleDocuments/syntax';

const invalid: InvalidCase[] = [
  {
    name: 'nesting deeper than 512 levels, marked at the first bracket beyond the limit',
    text: deep(600, 511),
    code: 'PS1003',
    options: { assumePolicyDocument: true },
  },
  {
    name: 'objects nested deeper than 512 levels',
    text: `{"properties":{"policyDefinitions":[${REF}],"metadata":${Array.from({ length: 600 }, (_, i) => (i + 1 === 511 ? '|{|"a":' : '{"a":')).join('')}1${'}'.repeat(600)}}}`,
    code: 'PS1003',
    options: { assumePolicyDocument: true },
  },
];

const valid: ValidCase[] = [
  { name: 'exactly 512 levels of nesting', text: deep(510), notCodes: ['PS1003'], options: { assumePolicyDocument: true } },
  {
    name: 'deep unknown document without assumePolicyDocument gets nothing',
    text: deep(600).replace('policyDefinitions', 'other'),
    notCodes: ['PS1003'],
  },
];

run('nesting-too-deep', { valid, invalid });

describe("the figures in the limits' messages", () => {
  const diagnosticsOf = (text: string, code: string) =>
    validateText(text, { assumePolicyDocument: true }).diagnostics.filter((d) => d.code === code);

  test('PS1003 names the depth found, and past 100,000 levels says only that', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    for (const [levels, depth] of [
      [600, 600],
      [100_000, 100_000],
      [100_001, 'over 100000'],
    ] as const) {
      const [diagnostic] = diagnosticsOf(nested(levels), 'PS1003');
      assert.equal(diagnostic?.data.depth, depth, String(levels));
      assert.match(diagnostic.message, new RegExp(`deeper than 512 levels \\(${depth} found\\)`), String(levels));
    }
  });
});
