// policyset quota calc / simulate / plan: the spec's numbers through the CLI, and a plan's error on its line.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/run';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-quota-cli-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};

describe('policyset quota calc and simulate', { concurrency: 3 }, () => {
  test('one unit of an older chat model is 6 RPM and 1,000 TPM', async () => {
    const result = await runCli(['quota', 'calc', '--model', 'gpt-35-turbo', '--capacity', '1', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout);
    assert.equal(out.tpm, 1000);
    assert.equal(out.rpm, 6);
    assert.equal(out.class, 'older-chat');
  });

  test('600 RPM: 10 requests per 1-second window, 100 per 10 seconds (text)', async () => {
    const result = await runCli(['quota', 'calc', '--model', 'gpt-4o', '--tpm', '100000']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^RPM\s+600$/m);
    assert.match(result.stdout, /^per 1 s\s+10 requests$/m);
    assert.match(result.stdout, /^per 10 s\s+100 requests$/m);
    assert.match(result.stdout, /^spread evenly\s+one request every 0\.1 s$/m);
  });

  test('less than one request per 10 s window (reasoning group A, 1 RPM per 6,000 TPM): one request every 60 s', async () => {
    const result = await runCli(['quota', 'calc', '--model', 'o1', '--capacity', '6']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^RPM\s+1$/m);
    assert.match(result.stdout, /^per 10 s\s+0 requests$/m);
    assert.match(result.stdout, /^spread evenly\s+one request every 60 s$/m);
  });

  test('a TPM off the 1,000 step is an error naming the nearest valid values', async () => {
    const result = await runCli(['quota', 'calc', '--model', 'gpt-4o', '--tpm', '12345']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /12,345 is not one; the nearest valid values are 12,000 and 13,000/);
  });

  test('an unknown model is refused; --capacity-units adds it', async () => {
    const unknown = await runCli(['quota', 'calc', '--model', 'my-model', '--capacity', '2']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no known capacity-unit class/);
    const units = write('units.json', JSON.stringify({ classes: { mine: { rpm: 3, tpm: 1000 } }, models: { 'my-model': 'mine' } }));
    const known = await runCli(['quota', 'calc', '--model', 'my-model', '--capacity', '2', '--capacity-units', units, '--format', 'json']);
    assert.equal(known.code, 0, known.stderr);
    assert.equal(JSON.parse(known.stdout).rpm, 6);
    const broken = await runCli([
      'quota',
      'calc',
      '--model',
      'gpt-4o',
      '--capacity',
      '2',
      '--capacity-units',
      write('bad.json', '{ "models": { "x": "nope" } }'),
    ]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /class 'nope', which is not defined/);
  });

  test('simulate: 11 requests in one second at 600 RPM, the 11th refused by the RPM window', async () => {
    const result = await runCli([
      'quota',
      'simulate',
      '--model',
      'gpt-4o',
      '--capacity',
      '100',
      '--rps',
      '11',
      '--prompt-tokens',
      '10',
      '--max-tokens',
      '10',
      '--minutes',
      String(1 / 60),
      '--format',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout);
    assert.deepEqual([out.sent, out.accepted, out.refusedRpm, out.refusedTpm], [11, 10, 1, 0]);
    assert.equal(out.firstRefusal.rule, 'rpm');
  });

  test('simulate: the TPM per minute with best_of (text)', async () => {
    const result = await runCli([
      'quota',
      'simulate',
      '--model',
      'gpt-4o',
      '--capacity',
      '10',
      '--rps',
      '1',
      '--prompt-tokens',
      '200',
      '--max-tokens',
      '400',
      '--best-of',
      '2',
      '--minutes',
      '2',
    ]);
    assert.equal(result.code, 0, result.stderr);
    // 10,000 TPM, each request counts 1,000: 10 per minute; 60 RPM = 1 per second, so the window lets all through.
    assert.match(result.stdout, /each counts 1,000 tokens/);
    assert.match(result.stdout, /refused\s+100 \(83\.3%\): 0 by the RPM window, 100 by the TPM per minute/);
    assert.match(result.stdout, /first refusal\s+at 10 s, by the TPM/);
  });

  test('bad load figures are usage errors', async () => {
    const result = await runCli([
      'quota',
      'simulate',
      '--model',
      'gpt-4o',
      '--capacity',
      '1',
      '--rps=-3',
      '--prompt-tokens',
      '1',
      '--max-tokens',
      '1',
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--rps takes a number from 0\.001/);
  });
});

describe('policyset quota plan', { concurrency: 3 }, () => {
  const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const usage = {
    subscription: SUB,
    location: 'eastus',
    value: [
      {
        name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 'Tokens Per Minute (thousands) - gpt-4o' },
        currentValue: 90,
        limit: 100,
        unit: 'Count',
      },
    ],
  };
  const planText = (usageRef: string) => `{
  "subscription": "${SUB}",
  "region": "eastus",
  ${usageRef}
  "deployments": [
    { "account": "ai-east", "name": "chat", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 6 } },
    { "account": "ai-east", "name": "chat-2", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 5 } }
  ]
}
`;

  test('a plan that over-commits a model: the error on the line of the deployment that crosses the quota', async () => {
    write('usage-eastus.json', JSON.stringify(usage));
    const file = write('plan.json', planText('"usage": "usage-eastus.json",'));
    const result = await runCli(['quota', 'plan', file]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^\s+7:\d+\s+error\s+'gpt-4o' \(Standard\) in 'eastus': this deployment takes the plan to 11,000 TPM, over the 10,000 TPM free .*PS9103$/m,
    );
    assert.match(result.stdout, /ai-east\/chat\s+gpt-4o Standard\s+capacity 6: 6,000 TPM, 36 RPM \(0 per 1 s window, 6 per 10 s\)/);
  });

  test('--usage gives the quota when the plan names none; within it, exit 0', async () => {
    const usageFile = write('usage-given.json', JSON.stringify(usage));
    const over = await runCli(['quota', 'plan', write('plan-nousage.json', planText('')), '--usage', usageFile, '--format', 'json']);
    assert.equal(over.code, 1);
    const report = JSON.parse(over.stdout);
    assert.deepEqual(
      report.diagnostics.map((d: { code: string; range: { start: { line: number } } }) => [d.code, d.range.start.line]),
      [['PS9103', 6]],
    );
    const roomy = write('usage-roomy.json', JSON.stringify({ ...usage, value: [{ ...usage.value[0], currentValue: 0 }] }));
    const fine = await runCli(['quota', 'plan', write('plan-fine.json', planText('')), '--usage', roomy]);
    assert.equal(fine.code, 0, fine.stdout + fine.stderr);
  });

  test('a missing usage file or a file that is not a plan: exit 2 with the reason', async () => {
    const missing = await runCli(['quota', 'plan', write('plan-missing.json', planText('"usage": "nowhere.json",'))]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*nowhere\.json/);
    const notPlan = await runCli(['quota', 'plan', write('set.json', '{ "properties": { "policyDefinitions": [] } }')]);
    assert.equal(notPlan.code, 2);
    assert.match(notPlan.stderr, /is not a deployment plan/);
  });

  test('usage of another region: never a check mark; the quota is said to be NOT checked, in text and JSON; --strict exits 2', async () => {
    const westUsage = write('usage-westus.json', JSON.stringify({ ...usage, location: 'westus' }));
    const file = write(
      'plan-huge.json',
      `{ "subscription": "${SUB}", "region": "eastus", "deployments": [ { "account": "ai-east", "name": "huge", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 6000 } } ] }`,
    );
    const text = await runCli(['quota', 'plan', file, '--usage', westUsage]);
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(text.stdout, /✔/);
    assert.match(text.stdout, /capacity 6000: 6,000,000 TPM.*\[quota not checked\]/);
    assert.match(
      text.stdout,
      /warning\s+The quota of 'gpt-4o' \(Standard\) was not checked for this deployment: no usage of subscription .* in 'eastus': the usage given is for 'westus'.*PS9105/,
    );
    assert.match(text.stdout, /^! 0 errors, 1 warning .*; quota NOT checked for 1 of 1 deployment/m);
    const json = await runCli(['quota', 'plan', file, '--usage', westUsage, '--format', 'json']);
    const report = JSON.parse(json.stdout);
    assert.equal(report.quotaChecked, false);
    assert.match(report.deployments[0].notChecked, /the usage given is for 'westus'/);
    assert.deepEqual(
      report.diagnostics.map((d: { code: string; severity: number }) => [d.code, d.severity]),
      [['PS9105', 2]],
    );
    const strict = await runCli(['quota', 'plan', file, '--usage', westUsage, '--strict']);
    assert.equal(strict.code, 2);
    // With the region's usage it is checked (and over): the error, not the warning.
    const checked = await runCli(['quota', 'plan', file, '--usage', write('usage-eastus-2.json', JSON.stringify(usage)), '--strict']);
    assert.equal(checked.code, 1);
    assert.match(checked.stdout, /PS9103/);
    assert.doesNotMatch(checked.stdout, /PS9105|NOT checked/);
  });

  test('a lone E6 body names no region: its quota is said not to be checked, and no check mark', async () => {
    const file = write(
      'body.json',
      '{ "sku": { "name": "Standard", "capacity": 5 }, "properties": { "model": { "format": "OpenAI", "name": "o3" } } }',
    );
    const result = await runCli(['quota', 'plan', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /capacity 5: 5,000 TPM, 5 RPM \(5 RPM: one request every 12 s\)  \[quota not checked\]/);
    assert.match(result.stdout, /^! .*quota NOT checked for 1 of 1 deployment/m);
    assert.doesNotMatch(result.stdout, /✔/);
  });

  test('"existing": restating the deployments that fill a region is not counted twice', async () => {
    const full = write('usage-full.json', JSON.stringify({ ...usage, value: [{ ...usage.value[0], currentValue: 100 }] }));
    const file = write(
      'plan-existing.json',
      `{ "subscription": "${SUB}", "region": "eastus", "deployments": [ { "account": "ai-east", "name": "a", "model": "gpt-4o", "existing": 60, "sku": { "capacity": 60 } }, { "account": "ai-east", "name": "b", "model": "gpt-4o", "existing": 40, "sku": { "capacity": 40 } } ] }`,
    );
    const result = await runCli(['quota', 'plan', file, '--usage', full, '--strict']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /capacity 60 \(60 now\)/);
    // A plan is called a plan, not a "policy document".
    assert.match(result.stdout, /^✔ 0 errors, 0 warnings in 1 deployment plan$/m);
  });
});
