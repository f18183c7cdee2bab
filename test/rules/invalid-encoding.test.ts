// PS1004 invalid-encoding: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/syntax';

const invalid: InvalidCase[] = [
  {
    name: 'invalid UTF-8 byte in a description',
    text: a3(`{
    "description": "caf|\uFFFD| au lait",
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS1004',
    invalidByte: true,
    data: { byte: 'FF' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'U+FFFD written in the text (NIS2.json) is not an encoding problem',
    text: a3(`{ "description": "caf\uFFFD au lait \\ufffd", "policyDefinitions": [${REF}] }`),
    notCodes: ['PS1004'],
  },
];

run('invalid-encoding', { valid, invalid });
