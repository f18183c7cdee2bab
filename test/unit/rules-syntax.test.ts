// PS1xxx: syntax, duplicate keys, nesting, encoding.
import { runInvalid, runValid, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';

const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;

/** `{"properties":{"policyDefinitions":[...],"metadata": <depth brackets> }}`, with the first bracket beyond `limit` levels marked. */
function deep(depth: number, markAt?: number): string {
  const opens = Array.from({ length: depth }, (_, i) => (i + 1 === markAt ? '|[|' : '[')).join('');
  return `{"properties":{"policyDefinitions":[${REF}],"metadata":${opens}${']'.repeat(depth)}}}`;
}

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
  {
    name: 'duplicate key marks the second key, related to the first',
    text: `{
  "properties": {
    "displayName": "a",
    "policyDefinitions": [${REF}],
    |"displayName"|: "b"
  }
}`,
    code: 'PS1002',
    related: ['"displayName"'],
    data: { key: 'displayName' },
  },
  {
    name: 'duplicate key in a reference, CRLF',
    text: `{
  "properties": {
    "policyDefinitions": [
      {
        "policyDefinitionId": "${defId('d1')}",
        |"policyDefinitionId"|: "${defId('d2')}"
      }
    ]
  }
}`,
    code: 'PS1002',
    crlf: true,
    related: ['"policyDefinitionId"'],
  },
  {
    name: 'duplicate key in a document that also has a syntax error (tolerant parse)',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}],
    "description": "a",
    |"description"|: "b"
    "displayName": "c"
  }
}`,
    code: 'PS1002',
    otherErrors: ['PS1001'],
    related: ['"description"'],
  },
  {
    name: 'a key three times is reported twice, each related to the first',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}],
    "policyType": "Custom",
    "policyType": "Custom",
    |"policyType"|: "Custom"
  }
}`,
    code: 'PS1002',
    count: 2,
    related: ['"policyType"'],
  },
  {
    name: 'duplicate parameter name in the set',
    text: a3(`{
    "parameters": {
      "effect": { "type": "String" },
      |"effect"|: { "type": "String" }
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS1002',
  },
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
  {
    name: 'a comment in a .json file (the service takes strict JSON only): on the comment',
    text: a3(`{
    |// keep in step with the storage baseline|
    "policyDefinitions": [{ "policyDefinitionId": "${defId('00000000-0000-0000-0000-0000000000a1')}" }]
  }`),
    code: 'PS1005',
    options: { uri: 'file:///repo/set.json' },
  },
  {
    name: 'a file saved as UTF-16 (decoded and checked as its text): one warning, on its first character',
    text: '|{|' + a3(`{ "policyDefinitions": [${REF}] }`).slice(1),
    code: 'PS1006',
    options: { encoding: 'UTF-16LE with a byte order mark' },
    message: /saved as UTF-16LE with a byte order mark; the service expects UTF-8/,
  },
];

const valid: ValidCase[] = [
  { name: 'a well-formed A3 document', text: a3(`{ "policyDefinitions": [${REF}] }`), notCodes: ['PS1001', 'PS1002', 'PS1003', 'PS1004'] },
  { name: 'CRLF line endings', text: a3(`{\n    "policyDefinitions": [${REF}]\n  }`), crlf: true, notCodes: ['PS1001'] },
  { name: 'a byte order mark', text: '\uFEFF' + a3(`{ "policyDefinitions": [${REF}] }`), notCodes: ['PS1001'] },
  { name: 'no final newline, tabs for indentation', text: `{\n\t"properties": {\n\t\t"policyDefinitions": [${REF}]\n\t}\n}`, notCodes: ['PS1001'] },
  {
    name: 'U+FFFD written in the text (NIS2.json) is not an encoding problem',
    text: a3(`{ "description": "caf\uFFFD au lait \\ufffd", "policyDefinitions": [${REF}] }`),
    notCodes: ['PS1004'],
  },
  {
    name: 'same key in different objects is not a duplicate',
    text: a3(`{
    "parameters": { "effect": { "type": "String", "metadata": { "displayName": "e" } } },
    "displayName": "x",
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    notCodes: ['PS1002'],
  },
  {
    name: 'keys differing only in casing are not JSON duplicates',
    text: a3(`{ "version": "1.0.0", "Version": "1.0.0", "policyDefinitions": [${REF}] }`),
    notCodes: ['PS1002'],
  },
  {
    name: "severities: duplicate-key 'off' by rule name",
    text: a3(`{ "displayName": "a", "displayName": "b", "policyDefinitions": [${REF}] }`),
    options: { severities: { 'duplicate-key': 'off' } },
    notCodes: ['PS1002'],
  },
  { name: 'a broken document that is not a policy document gets nothing', text: `{ "name": "x" "version": 1 }`, notCodes: ['PS1001'] },
  { name: 'exactly 512 levels of nesting', text: deep(510), notCodes: ['PS1003'], options: { assumePolicyDocument: true } },
  { name: 'deep unknown document without assumePolicyDocument gets nothing', text: deep(600).replace('policyDefinitions', 'other'), notCodes: ['PS1003'] },
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

runInvalid('PS1', invalid);
runValid('PS1', valid);
