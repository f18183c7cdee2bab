// The quota model and the rate-limit simulator against the spec's own numbers (section D, Limits, Errors 4-5).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUILT_IN_CAPACITY_TABLE,
  capacityClassOf,
  checkQuota,
  checkSize,
  estimateRequestTokens,
  mergeCapacityTable,
  rateLimits,
  readUsages,
  rpmWindow,
  simulate,
  usageOf,
} from '#service';

const olderChat = capacityClassOf('gpt-4o')!;

describe('capacity units (spec Limits)', () => {
  test('one unit of an older chat model is 6 RPM and 1,000 TPM', () => {
    const limits = rateLimits(1, olderChat);
    assert.equal(limits.tpm, 1000);
    assert.equal(limits.rpm, 6);
  });

  test('the classes of the spec: A 1 RPM per 6,000 TPM, B 1 per 1,000, C 1 per 10,000, with 2, 2 and 3 models', () => {
    const members = (cls: string) =>
      Object.entries(BUILT_IN_CAPACITY_TABLE.models)
        .filter(([, c]) => c === cls)
        .map(([m]) => m)
        .sort();
    assert.deepEqual(members('reasoning-a'), ['o1', 'o1-preview']);
    assert.deepEqual(members('reasoning-b'), ['o3', 'o4-mini']);
    assert.deepEqual(members('reasoning-c'), ['o1-mini', 'o3-mini', 'o3-pro']);
    assert.equal(rateLimits(6, capacityClassOf('o1')!).rpm, 1);
    assert.equal(rateLimits(1, capacityClassOf('O4-Mini')!).rpm, 1, 'any casing');
    assert.equal(rateLimits(10, capacityClassOf('o3-mini')!).rpm, 1);
    assert.equal(capacityClassOf('not-a-model'), undefined);
  });

  test('sku.capacity 1 is 1,000 TPM and 10 is 10,000 TPM (spec D)', () => {
    assert.equal(rateLimits(10, olderChat).tpm, 10_000);
  });

  test('600 RPM: 10 requests per 1-second window and 100 per 10-second window', () => {
    const limits = rateLimits(100, olderChat);
    assert.equal(limits.rpm, 600);
    assert.equal(limits.perSecond, 10);
    assert.equal(limits.perTenSeconds, 100);
  });

  test('TPM changes in steps of 1,000: another value names the nearest valid ones', () => {
    assert.deepEqual(checkSize({ tpm: 20_000 }), { ok: true, capacity: 20 });
    const bad = checkSize({ tpm: 2_500 });
    assert.equal(bad.ok, false);
    assert.match((bad as { message: string }).message, /2,000 and 3,000/);
    const small = checkSize({ tpm: 500 });
    assert.match((small as { message: string }).message, /nearest valid values are 1,000$/);
    assert.equal(checkSize({ capacity: 0 }).ok, false);
    assert.equal(checkSize({ capacity: 1.5 }).ok, false);
  });

  test('a user file extends and overrides the table; a bad one is refused with a reason', () => {
    const merged = mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, {
      classes: { mine: { rpm: 2, tpm: 1000 } },
      models: { 'My-Model': 'mine', 'gpt-4o': 'reasoning-b' },
    });
    assert.equal(rateLimits(1, capacityClassOf('my-model', merged)!).rpm, 2);
    assert.equal(capacityClassOf('gpt-4o', merged)!.name, 'reasoning-b');
    assert.equal(capacityClassOf('gpt-4o')!.name, 'older-chat', 'the built-in table is not changed');
    assert.throws(() => mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, { models: { x: 'nope' } }), /class 'nope'/);
    assert.throws(() => mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, { classes: { y: { rpm: -1, tpm: 1 } } }), /positive/);
    assert.throws(() => mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, []), /JSON object/);
  });
});

describe('the rate-limit simulator (Limits 4-5, Errors 4-5)', () => {
  test('600 RPM allows 10 requests in a 1-second window and refuses the 11th', () => {
    const limits = rateLimits(100, olderChat);
    assert.deepEqual(rpmWindow(limits), { seconds: 1, allowance: 10 });
    // 11 requests in the first second, tiny ones: only the RPM window can refuse.
    const result = simulate(limits, { rps: 11, promptTokens: 1, maxTokens: 1, minutes: 1 / 60 });
    assert.equal(result.sent, 11);
    assert.equal(result.accepted, 10);
    assert.equal(result.refusedRpm, 1);
    assert.equal(result.refusedTpm, 0);
    assert.deepEqual(result.firstRefusal, { atSeconds: 10 / 11, rule: 'rpm' });
  });

  test('10 requests per second at 600 RPM for a minute: none refused by the window', () => {
    const result = simulate(rateLimits(100, olderChat), { rps: 10, promptTokens: 10, maxTokens: 10, minutes: 1 });
    assert.equal(result.sent, 600);
    assert.equal(result.refusedRpm, 0);
    assert.equal(result.refusedTpm, 0);
  });

  test('the counted TPM is prompt + max_tokens x best_of, and the minute count refuses past the TPM', () => {
    assert.equal(estimateRequestTokens({ promptTokens: 500, maxTokens: 1000, bestOf: 3 }), 3500);
    assert.equal(estimateRequestTokens({ promptTokens: 500, maxTokens: 1000 }), 1500);
    // 100,000 TPM and 600 RPM; 3,500 tokens counted each: 28 fit in a minute (98,000), the 29th does not.
    const result = simulate(rateLimits(100, olderChat), { rps: 1, promptTokens: 500, maxTokens: 1000, bestOf: 3, minutes: 2 });
    assert.equal(result.sent, 120);
    assert.equal(result.refusedRpm, 0);
    assert.equal(result.minutes[0].accepted, 28);
    assert.equal(result.minutes[0].refusedTpm, 32);
    assert.equal(result.minutes[1].accepted, 28, 'the count resets every minute');
    assert.equal(result.refusedTpm, 64);
    assert.deepEqual(result.firstRefusal, { atSeconds: 28, rule: 'tpm' });
  });

  test('one unit of an older chat model (6 RPM): the 10-second window allows one request', () => {
    const limits = rateLimits(1, olderChat);
    assert.deepEqual(rpmWindow(limits), { seconds: 10, allowance: 1 });
    const result = simulate(limits, { rps: 1, promptTokens: 10, maxTokens: 10, minutes: 1 });
    assert.equal(result.accepted, 6);
    assert.equal(result.refusedRpm, 54);
  });
});

describe('usages (E7) and the quota check (Limits 1-2)', () => {
  const usages = readUsages([
    {
      name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 'Tokens Per Minute (thousands) - gpt-4o' },
      currentValue: 90,
      limit: 100,
      unit: 'Count',
    },
    { name: { value: 'AccountCount' }, currentValue: 3, limit: 30, unit: 'Count' },
    { name: { value: 'Weird' }, currentValue: 1, limit: 2 },
    { name: { value: 'OpenAI.Standard.o1' } },
  ]);

  test('reads model entries in units of 1,000 TPM, the account count, and says what did not match', () => {
    assert.equal(usages.models.length, 1);
    assert.deepEqual(
      { ...usageOf(usages, 'GPT-4O')! },
      {
        key: 'OpenAI.Standard.gpt-4o',
        provider: 'OpenAI',
        deploymentType: 'Standard',
        model: 'gpt-4o',
        usedTpm: 90_000,
        limitTpm: 100_000,
        freeTpm: 10_000,
        label: 'Tokens Per Minute (thousands) - gpt-4o',
      },
    );
    assert.deepEqual(usages.accounts, { used: 3, limit: 30 });
    assert.deepEqual(usages.unmatched, ['Weird', 'OpenAI.Standard.o1']);
  });

  test('over the free TPM is refused and says how much is free; a resize frees its old TPM first', () => {
    const usage = usageOf(usages, 'gpt-4o')!;
    const over = checkQuota(usage, 20_000);
    assert.equal(over.ok, false);
    assert.match((over as { message: string }).message, /10,000 TPM free of the region's 100,000 TPM/);
    assert.deepEqual(checkQuota(usage, 10_000), { ok: true, freeTpm: 10_000, afterTpm: 0 });
    // The deployment holds 15,000 of the 90,000 used: resizing it to 20,000 fits (10,000 + 15,000 free).
    assert.deepEqual(checkQuota(usage, 20_000, 15_000), { ok: true, freeTpm: 25_000, afterTpm: 5_000 });
  });
});

describe('the figures the extension asks the server for (policySet/quotaFigures)', () => {
  test('usage rows with the RPM the free TPM buys, the models of the table, what a capacity buys, the check with a resize freed first', async () => {
    const { quotaFigures } = await import('#service');
    const usages = [
      { name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 95, limit: 100 },
      { name: { value: 'OpenAI.Standard.o3-mini' }, currentValue: 0, limit: 50 },
    ];
    const answer = quotaFigures({ usages, model: 'gpt-4o', sku: 'Standard', capacity: 10, currentTpm: 5000 });
    assert.deepEqual(
      answer.rows.map((r) => [r.model, r.freeTpm, r.freeRpm]),
      [
        ['gpt-4o', 5000, 30],
        ['o3-mini', 50000, 5],
      ],
    );
    assert.ok(answer.models.some((m) => m.name === 'o1' && m.className === 'reasoning-a'));
    assert.equal(answer.limits?.rpm, 60);
    assert.equal(answer.limits?.perTenSeconds, 10);
    assert.equal(answer.usageFound, true);
    assert.deepEqual(answer.check, { ok: true, freeTpm: 10000, afterTpm: 0 });
    const over = quotaFigures({ usages, model: 'gpt-4o', capacity: 11, currentTpm: 5000 });
    assert.equal(over.check?.ok, false);
    const unknown = quotaFigures({ usages, model: 'nobody', capacity: 1 });
    assert.equal(unknown.limits, undefined);
    assert.equal(unknown.usageFound, false);
  });
});

test('usage written by hand: entries that are not objects, or names that are not strings, are listed as unmatched, not thrown on', () => {
  const read = readUsages([
    null,
    5,
    'x',
    { name: 'gpt-4o', currentValue: 1, limit: 2 },
    { name: { value: 7 }, currentValue: 1, limit: 2 },
  ] as never[]);
  assert.equal(read.models.length, 0);
  assert.equal(read.unmatched.length, 5);
});
