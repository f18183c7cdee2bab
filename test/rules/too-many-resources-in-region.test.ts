// PS9104 too-many-resources-in-region: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateText } from '#service';
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { SUB, plan, d } from '../support/ruleDocuments/quota';

const invalid: InvalidCase[] = [
  {
    name: 'the 31st account in a region',
    text: `{ "region": "westus", "deployments": [${Array.from({ length: 30 }, (_, i) => `{ "account": "a${i}", "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } }`).join(', ')}, { "account": |"a30"|, "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } } ] }`,
    code: 'PS9104',
    message: /resource 31 in 'westus': at most 30/,
  },
];

const valid: ValidCase[] = [
  {
    name: '30 accounts in a region, and the same account twice',
    text: `{ "region": "westus", "deployments": [${Array.from({ length: 30 }, (_, i) => `{ "account": "a${i}", "name": "x", "model": "gpt-4o", "sku": { "capacity": 1 } }`).join(', ')}, { "account": "a0", "name": "y", "model": "gpt-4o", "sku": { "capacity": 1 } }] }`,
    notCodes: ['PS9104'],
  },
];

run('too-many-resources-in-region', { valid, invalid });

test("PS9104 takes the region's resource limit from the plan's own saved usage (AccountCount)", () => {
  const accountUsage = `{ "subscription": "${SUB}", "location": "eastus", "value": [{ "name": { "value": "AccountCount" }, "currentValue": 0, "limit": 2 }] }`;
  const three = plan(
    [d('a', '1').replace('ai-east', 'one'), d('b', '1').replace('ai-east', 'two'), d('c', '1').replace('ai-east', 'three')],
    `\n  "usage": ${accountUsage},`,
  );
  const messages = validateText(three)
    .diagnostics.filter((x) => x.code === 'PS9104')
    .map((x) => x.message);
  assert.deepEqual(messages, [
    "Account 'three' is model-service resource 3 in 'eastus': at most 2 are allowed per subscription and region.",
  ]);
});
