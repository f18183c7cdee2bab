// PS9xxx: service limits, at and just beyond each boundary.
import { runInvalid, runValid, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Length } from '#server/service/rules/limits';

const MIB = 1024 * 1024;

function references(count: number): string {
  return Array.from({ length: count }, (_, i) => `{ "policyDefinitionId": "${defId(`d${i}`)}" }`).join(',\n      ');
}

function setWithReferences(count: number, marked: boolean): string {
  return a3(`{
    ${marked ? '|"policyDefinitions"|' : '"policyDefinitions"'}: [
      ${references(count)}
    ]
  }`);
}

function setWithParameters(count: number, marked: boolean): string {
  const declared = Array.from({ length: count }, (_, i) => `"p${i}": { "type": "String", "defaultValue": "x" }`).join(',\n      ');
  const used = Array.from({ length: count }, (_, i) => `"p${i}": { "value": "[parameters('p${i}')]" }`).join(', ');
  return a3(`{
    ${marked ? '|"parameters"|' : '"parameters"'}: {
      ${declared}
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { ${used} } }]
  }`);
}

/** An A3 document of exactly `bytes` UTF-8 bytes, padded in metadata with `unit` (1 or 2 bytes each). */
function setOfSize(bytes: number, unit: 'a' | '\u00e9', marked = false): string {
  const head = `${marked ? '|{|' : '{'}
  "id": "/providers/Microsoft.Authorization/policySetDefinitions/big",
  "properties": {
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }],
    "metadata": { "pad": "`;
  const tail = `" }
  }
}`;
  const fixed = Buffer.byteLength(head.replace(/\|/g, '') + tail, 'utf8');
  const unitBytes = Buffer.byteLength(unit, 'utf8');
  const rest = bytes - fixed;
  const padding = unit.repeat(Math.floor(rest / unitBytes)) + 'a'.repeat(rest % unitBytes);
  return head + padding + tail;
}

function withText(field: 'displayName' | 'description', value: string, marked: boolean): string {
  const json = `"${value}"`;
  return a3(`{
    "${field}": ${marked ? `|${json}|` : json},
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }]
  }`);
}

const invalid: InvalidCase[] = [
  { name: '1001 references: the policyDefinitions key', text: setWithReferences(1001, true), code: 'PS9001', data: { count: 1001 } },
  { name: '401 parameters: the parameters key', text: setWithParameters(401, true), code: 'PS9002', data: { count: 401 } },
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
  { name: 'displayName of 129 characters', text: withText('displayName', 'x'.repeat(129), true), code: 'PS9004', data: { length: 129 } },
  {
    name: 'displayName of 139 characters (AKS_CISBenchmark.json): a warning only',
    text: withText('displayName', 'Kubernetes '.repeat(12) + 'y'.repeat(7), true),
    code: 'PS9004',
    severity: 2,
  },
  {
    name: 'displayName of 129 characters, some written as escapes',
    text: withText('displayName', '\\u00e9'.repeat(10) + 'x'.repeat(119), true),
    code: 'PS9004',
    data: { length: 129 },
  },
  { name: 'description of 513 characters', text: withText('description', 'd'.repeat(513), true), code: 'PS9005', data: { length: 513 } },
  {
    name: 'severities: display-name-too-long raised to error',
    text: withText('displayName', 'x'.repeat(129), true),
    code: 'PS9004',
    options: { severities: { 'display-name-too-long': 'error' } },
    severity: 1,
  },
  {
    name: 'a document over 8 MiB: checked for syntax and size only, the warning on its first character',
    text: `  |{|"name": "huge", "properties": { "description": "${'x'.repeat(8 * 1024 * 1024)}", "policyDefinitions": [] } }`,
    code: 'PS9006',
  },
];

const valid: ValidCase[] = [
  { name: 'exactly 1000 references', text: setWithReferences(1000, false), notCodes: ['PS9001'] },
  { name: 'exactly 400 parameters', text: setWithParameters(400, false), notCodes: ['PS9002', 'PS7003'] },
  { name: 'exactly 1 MiB', text: setOfSize(MIB, 'a'), notCodes: ['PS9003'] },
  { name: 'exactly 1 MiB with two-byte characters', text: setOfSize(MIB, '\u00e9'), notCodes: ['PS9003'] },
  { name: 'displayName of exactly 128 characters', text: withText('displayName', 'x'.repeat(128), false), notCodes: ['PS9004'] },
  { name: 'displayName of 128 characters, some written as escapes', text: withText('displayName', '\\u00e9'.repeat(10) + 'x'.repeat(118), false), notCodes: ['PS9004'] },
  { name: 'description of exactly 512 characters', text: withText('description', 'd'.repeat(512), false), notCodes: ['PS9005'] },
  { name: "PS9004 'off' by code", text: withText('displayName', 'x'.repeat(200), false), options: { severities: { PS9004: 'off' } }, notCodes: ['PS9004'] },
  {
    name: 'template: a long deployment-time displayName and description',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "displayName": "[concat(parameters('prefix'), '${'x'.repeat(150)}')]",
        "description": "[concat(parameters('prefix'), '${'x'.repeat(600)}')]",
        "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }]
      }
    }`),
    notCodes: ['PS9004', 'PS9005'],
  },
];

runInvalid('PS9', invalid);
runValid('PS9', valid);

// The request size is counted in UTF-8 a chunk at a time: the count must not depend on where chunks end.
test('utf8Length: the UTF-8 length of any part of a text, with characters of 1 to 4 bytes across chunk ends', () => {
  const text = 'a'.repeat(65535) + '😀' + 'é'.repeat(70000) + '€'.repeat(65536) + '😀'.repeat(40000) + 'x';
  for (const [start, end] of [
    [0, text.length],
    [5, 70000],
    [65535, 65537],
    [1, text.length - 1],
    [0, 0],
  ]) {
    assert.equal(utf8Length(text, start, end), Buffer.byteLength(text.slice(start, end), 'utf8'), `${start}..${end}`);
  }
});
