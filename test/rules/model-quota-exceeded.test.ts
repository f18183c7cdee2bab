// PS9103 model-quota-exceeded: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateText } from '#service';
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { usage, plan, d } from '../support/ruleDocuments/quota';

const invalid: InvalidCase[] = [
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
    options: {
      quota: { usages: [{ location: 'eastus', value: [{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 0, limit: 100 }] }] },
    },
    code: 'PS9103',
    related: ['60'],
  },
  {
    name: 'an entry restating an existing deployment ("existing") counts only its growth',
    text: plan(
      [d('big', '|85|', '"gpt-4o"', ', "existing": 80'), d('small', '20', '"gpt-4o"', ', "existing": 20')],
      `\n  "usage": ${usage(100, 100)},`,
    ),
    code: 'PS9103',
    message: /takes the plan to 5,000 TPM, over the 0 TPM free/,
  },
];

const valid: ValidCase[] = [
  {
    name: 'restating existing deployments at their size in a full region: not counted twice',
    text: plan(
      [d('big', '80', '"gpt-4o"', ', "existing": 80'), d('small', '20', '"gpt-4o"', ', "existing": 20')],
      `\n  "usage": ${usage(100, 100)},`,
    ),
    notCodes: ['PS9103', 'PS9105'],
  },
  {
    name: 'a shrink frees room for a new one, offline',
    text: plan([d('big', '50', '"gpt-4o"', ', "existing": 80'), d('new', '50')], `\n  "usage": ${usage(80, 100)},`),
    notCodes: ['PS9103', 'PS9105'],
  },
  {
    name: 'within the quota, exactly to the limit',
    text: plan([d('a', '15'), d('b', '5')], `\n  "usage": ${usage(80, 100)},`),
    notCodes: ['PS9103'],
  },
  {
    name: 'another region or deployment type draws on another quota',
    text: plan(
      [
        d('a', '15'),
        d('b', '50', '"gpt-4o"', ', "region": "westus"'),
        `{ "account": "x", "name": "g", "model": "gpt-4o", "sku": { "name": "GlobalStandard", "capacity": 90 } }`,
      ],
      `\n  "usage": ${usage(80, 100)},`,
    ),
    notCodes: ['PS9103'],
  },
  { name: 'no usage for the region: its quota is not known', text: plan([d('a', '100000')]), notCodes: ['PS9103'] },
];

run('model-quota-exceeded', { valid, invalid });

test("PS9103's related lines give each other deployment's TPM", () => {
  const text = plan([d('first', '15'), d('second', '10')], `\n  "usage": ${usage(80, 100)},`);
  const diagnostic = validateText(text).diagnostics.find((x) => x.code === 'PS9103');
  assert.deepEqual(
    diagnostic?.relatedInformation?.map((r) => r.message),
    ["Also draws on the quota of 'gpt-4o' (Standard) in 'eastus': 15,000 TPM."],
  );
});
