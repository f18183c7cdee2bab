// PS1001 json-syntax: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/syntax';

const invalid: InvalidCase[] = [
  {
    name: 'missing comma marks the next key',
    text: `{
  "properties": {
    "displayName": "x"
    |"policyDefinitions"|: [${REF}]
  }
}`,
    code: 'PS1001',
    message: /Comma/,
  },
  {
    name: 'missing comma with CRLF line endings',
    text: `{
  "properties": {
    "displayName": "x"
    |"policyDefinitions"|: [${REF}]
  }
}`,
    code: 'PS1001',
    crlf: true,
  },
  {
    name: 'trailing comma is reported once, on the comma',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}]|,|
  }
}`,
    code: 'PS1001',
  },
  {
    name: 'trailing comma in an array',
    text: `{
  "properties": {
    "policyDefinitions": [
      ${REF}|,|
    ]
  }
}`,
    code: 'PS1001',
  },
  {
    name: 'unterminated string',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}],
    "displayName": |"abc|
  }
}`,
    code: 'PS1001',
    message: /end of string/,
  },
  {
    name: 'unknown document with assumePolicyDocument reports its syntax',
    text: `{ "a": 1 |"b"|: 2 }`,
    code: 'PS1001',
    options: { assumePolicyDocument: true },
  },
];

const valid: ValidCase[] = [
  { name: 'a well-formed A3 document', text: a3(`{ "policyDefinitions": [${REF}] }`), notCodes: ['PS1001', 'PS1002', 'PS1003', 'PS1004'] },
  { name: 'CRLF line endings', text: a3(`{\n    "policyDefinitions": [${REF}]\n  }`), crlf: true, notCodes: ['PS1001'] },
  { name: 'a byte order mark', text: '\uFEFF' + a3(`{ "policyDefinitions": [${REF}] }`), notCodes: ['PS1001'] },
  {
    name: 'no final newline, tabs for indentation',
    text: `{\n\t"properties": {\n\t\t"policyDefinitions": [${REF}]\n\t}\n}`,
    notCodes: ['PS1001'],
  },
  { name: 'a broken document that is not a policy document gets nothing', text: `{ "name": "x" "version": 1 }`, notCodes: ['PS1001'] },
  {
    name: 'comments in an ARM template',
    text: template(`    // the initiative
    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      /* its properties */
      "properties": { "policyDefinitions": [${REF}] }
    }`),
    notCodes: ['PS1001'],
  },
];

run('json-syntax', { valid, invalid });
