// Deployment plans and lone E6 request bodies (spec D): recognised by content, and the quota rules
// PS9101 (capacity), PS9102 (unknown model class), PS9103 (a model's TPM over its quota in a region, on
// the deployment that crosses it), PS9104 (more than 30 resources in a region).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePolicyDocument, validateText, BUILT_IN_CAPACITY_TABLE, mergeCapacityTable } from '#service';
import { runInvalid, runValid, a3, defId, type InvalidCase, type ValidCase } from './rules-harness';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const usage = (used: number, limit: number, model = 'gpt-4o') =>
  `{ "subscription": "${SUB}", "location": "eastus", "value": [{ "name": { "value": "OpenAI.Standard.${model}" }, "currentValue": ${used}, "limit": ${limit} }] }`;
const body = (model: string, capacity: string) => `{
  "sku": { "name": "Standard", "capacity": ${capacity} },
  "properties": { "model": { "format": "OpenAI", "name": ${model}, "version": "1" } }
}`;
const plan = (deployments: string[], extra = '') => `{
  "subscription": "${SUB}",
  "region": "eastus",${extra}
  "deployments": [
    ${deployments.join(',\n    ')}
  ]
}`;
const d = (name: string, capacity: string, model = '"gpt-4o"', more = '') => `{ "account": "ai-east", "name": "${name}", "model": ${model}, "sku": { "name": "Standard", "capacity": ${capacity} }${more} }`;

const invalid: InvalidCase[] = [
  { name: 'a fraction halfway: both neighbours are as near', text: body('"gpt-4o"', '|2.5|'), code: 'PS9101', message: /not 2\.5; the nearest valid values are 2 and 3\.$/ },
  { name: 'a fraction nearer one', text: body('"gpt-4o"', '|2.4|'), code: 'PS9101', message: /not 2\.4; the nearest valid value is 2\.$/ },
  { name: 'a fraction below 1', text: body('"gpt-4o"', '|0.5|'), code: 'PS9101', message: /not 0\.5; the nearest valid value is 1\.$/ },
  { name: 'a fraction nearer the next', text: body('"gpt-4o"', '|2.7|'), code: 'PS9101', message: /not 2\.7; the nearest valid value is 3\.$/ },
  { name: 'a boolean', text: plan([d('chat', '|true|')]), code: 'PS9101', message: /not a boolean; the nearest valid value is 1\.$/ },
  { name: 'zero in a plan', text: plan([d('chat', '|0|')]), code: 'PS9101' },
  { name: 'a string', text: plan([d('chat', '|"10"|')]), code: 'PS9101', message: /not '10'/ },
  { name: 'a string of a number over 1,000,000: named as a string, not as too large', text: plan([d('chat', '|"2000000"|')]), code: 'PS9101', data: { messageId: 'notPositiveInteger' }, message: /not '2000000'/ },
  { name: 'over 1,000,000 units', text: plan([d('chat', '|1000001|')]), code: 'PS9101', data: { messageId: 'tooLarge' }, message: /1000001/ },
  { name: 'a model without a class', text: body('|"text-embedding-3-large"|', '10'), code: 'PS9102', severity: 3 },
  {
    name: 'over quota: on the deployment that crosses it, the others related',
    text: plan([d('first', '15'), d('second', '|10|'), d('other-model', '500', '"o3-mini"')], `\n  "usage": ${usage(80, 100)},`),
    code: 'PS9103',
    message: /takes the plan to 25,000 TPM, over the 20,000 TPM free \(80,000 used of the 100,000 TPM quota\)/,
    related: ['15'],
  },
  {
    name: 'one deployment alone over quota (a region full already)',
    text: plan([d('chat', '|1|')], `\n  "usage": [${usage(100, 100)}],`),
    code: 'PS9103',
  },
  {
    name: 'usage given by the host (settings, --usage), quota of the deployment type',
    text: plan([d('a', '60'), d('b', '|50|')]),
    options: { quota: { usages: [{ location: 'eastus', value: [{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 0, limit: 100 }] }] } },
    code: 'PS9103',
    related: ['60'],
  },
  {
    name: 'the 31st account in a region',
    text: `{ "region": "westus", "deployments": [${Array.from({ length: 30 }, (_, i) => `{ "account": "a${i}", "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } }`).join(', ')}, { "account": |"a30"|, "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } } ] }`,
    code: 'PS9104',
    message: /resource 31 in 'westus': at most 30/,
  },
  {
    name: 'not checked: the usage is for another region (a 6,000,000 TPM deployment is not passed silently)',
    text: plan([d('huge', '|6000|', '"gpt-4o"', ', "region": "westus"')], `\n  "usage": ${usage(0, 100)},`),
    code: 'PS9105',
    severity: 2,
    message: /was not checked for this deployment: no usage of subscription .* in 'westus': the usage given is for 'eastus'/,
  },
  {
    name: 'not checked: no usage at all',
    text: plan([d('chat', '|10|')]),
    code: 'PS9105',
    message: /no usage was given/,
  },
  {
    name: 'not checked: the usage of the region lists no such model and type',
    text: plan([d('g', '|10|', '"o3-mini"')], `\n  "usage": ${usage(0, 100)},`),
    code: 'PS9105',
    message: /the usage of 'eastus' has no entry for 'o3-mini' \(Standard\)/,
  },
  {
    name: 'an entry restating an existing deployment ("existing") counts only its growth',
    text: plan([d('big', '|85|', '"gpt-4o"', ', "existing": 80'), d('small', '20', '"gpt-4o"', ', "existing": 20')], `\n  "usage": ${usage(100, 100)},`),
    code: 'PS9103',
    message: /takes the plan to 5,000 TPM, over the 0 TPM free/,
  },
];

const moreValid: ValidCase[] = [
  { name: 'restating existing deployments at their size in a full region: not counted twice', text: plan([d('big', '80', '"gpt-4o"', ', "existing": 80'), d('small', '20', '"gpt-4o"', ', "existing": 20')], `\n  "usage": ${usage(100, 100)},`), notCodes: ['PS9103', 'PS9105'] },
  { name: 'a shrink frees room for a new one, offline', text: plan([d('big', '50', '"gpt-4o"', ', "existing": 80'), d('new', '50')], `\n  "usage": ${usage(80, 100)},`), notCodes: ['PS9103', 'PS9105'] },
  { name: 'a lone E6 body: no not-checked warning (it is not a plan)', text: body('"gpt-4o"', '20'), notCodes: ['PS9105'] },
];

const valid: ValidCase[] = [
  ...moreValid,
  { name: 'a lone E6 body', text: body('"gpt-4o"', '20'), notCodes: ['PS9101', 'PS9102', 'PS9103', 'PS9104'] },
  { name: 'exactly 1,000,000 units, and 1 unit', text: plan([d('big', '1000000'), d('small', '1')]), notCodes: ['PS9101'] },
  { name: 'within the quota, exactly to the limit', text: plan([d('a', '15'), d('b', '5')], `\n  "usage": ${usage(80, 100)},`), notCodes: ['PS9103'] },
  { name: 'another region or deployment type draws on another quota', text: plan([d('a', '15'), d('b', '50', '"gpt-4o"', ', "region": "westus"'), `{ "account": "x", "name": "g", "model": "gpt-4o", "sku": { "name": "GlobalStandard", "capacity": 90 } }`], `\n  "usage": ${usage(80, 100)},`), notCodes: ['PS9103'] },
  { name: 'no usage for the region: its quota is not known', text: plan([d('a', '100000')]), notCodes: ['PS9103'] },
  { name: 'a model the user added to the table', text: body('"my-model"', '1'), notCodes: ['PS9102'], options: { quota: { table: mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, { classes: { mine: { rpm: 2, tpm: 1000 } }, models: { 'my-model': 'mine' } }) } } },
  { name: '30 accounts in a region, and the same account twice', text: `{ "region": "westus", "deployments": [${Array.from({ length: 30 }, (_, i) => `{ "account": "a${i}", "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } }`).join(', ')}, { "account": "a0", "name": "y", "model": "gpt-4o", "sku": { "capacity": 1 } }] }`, notCodes: ['PS9104'] },
];

runInvalid('quota', invalid);
runValid('quota', valid);

test('deployment plans and E6 bodies are a kind of their own; other documents are not mistaken for them', () => {
  assert.equal(parsePolicyDocument(body('"gpt-4o"', '1')).kind, 'deploymentPlan');
  assert.equal(parsePolicyDocument(plan([d('a', '1')])).kind, 'deploymentPlan');
  assert.equal(parsePolicyDocument('{ "$schema": "https://example.com/schemas/deploymentPlan.schema.json", "deployments": [] }').kind, 'deploymentPlan');
  assert.equal(parsePolicyDocument('{ "deployments": [{ "sku": { "capacity": 1 } }] }').kind, 'deploymentPlan');
  // Not plans: a set, a set with a sku, a list of other deployments, a template.
  assert.equal(parsePolicyDocument(a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] }`)).kind, 'policySetDefinition');
  assert.equal(parsePolicyDocument(`{ "sku": { "name": "A" }, "properties": { "model": {}, "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] } }`).kind, 'policySetDefinition');
  assert.equal(parsePolicyDocument('{ "deployments": [{ "name": "web", "replicas": 3 }] }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "deployments": [] }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "sku": { "name": "S0" }, "properties": { "endpoint": "x" } }').kind, 'unknown');
  assert.equal(parsePolicyDocument('{ "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#", "contentVersion": "1.0.0.0", "resources": [{ "sku": { "capacity": 1 }, "properties": { "model": {} } }] }').kind, 'unknown');
  // Plans get no policy set diagnostics (only that their quota was not checked, without usage).
  const result = validateText(plan([d('a', '1')]));
  assert.deepEqual(result.diagnostics.map((x) => x.code), ['PS9105']);
});

test('odd plans written by hand give diagnostics or nothing, never a rule failure', () => {
  const odd = [
    '{ "deployments": [{ "sku": null }, 5, { "sku": { "capacity": 1 }, "model": { "name": 5 } }], "usage": [null, 3, { "location": 5 }, { "location": "x", "value": [null] }] }',
    '{ "region": 7, "deployments": [{ "model": "gpt-4o", "sku": { "capacity": 1 }, "account": [] }], "usage": { "location": "EastUS", "value": {} } }',
    '{ "deployments": [{ "model": "gpt-4o", "sku": { "capacity": 1e400 } }] }',
    '{ "sku": { "capacity": -1 }, "properties": { "model": { "name": null } } }',
    '{ "deployments": [{ "sku": { "capacity": 1 }',
  ];
  for (const text of odd) {
    const result = validateText(text);
    assert.deepEqual(result.internalErrors, [], text);
  }
});

test("PS9103's related lines give each other deployment's TPM", () => {
  const text = plan([d('first', '15'), d('second', '10')], `\n  "usage": ${usage(80, 100)},`);
  const diagnostic = validateText(text).diagnostics.find((x) => x.code === 'PS9103');
  assert.deepEqual(
    diagnostic?.relatedInformation?.map((r) => r.message),
    ["Also draws on the quota of 'gpt-4o' (Standard) in 'eastus': 15,000 TPM."],
  );
});

test("PS9104 takes the region's resource limit from the plan's own saved usage (AccountCount)", () => {
  const accountUsage = `{ "subscription": "${SUB}", "location": "eastus", "value": [{ "name": { "value": "AccountCount" }, "currentValue": 0, "limit": 2 }] }`;
  const three = plan([d('a', '1').replace('ai-east', 'one'), d('b', '1').replace('ai-east', 'two'), d('c', '1').replace('ai-east', 'three')], `\n  "usage": ${accountUsage},`);
  const messages = validateText(three).diagnostics.filter((x) => x.code === 'PS9104').map((x) => x.message);
  assert.deepEqual(messages, ["Account 'three' is model-service resource 3 in 'eastus': at most 2 are allowed per subscription and region."]);
});
