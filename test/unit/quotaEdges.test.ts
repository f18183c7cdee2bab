// The edges of the quota model that mutation testing found untested (docs/mutation.md): what a region's read
// says when it failed and still carries a list, a usage list written by hand, the boundaries of the
// simulator's counts, the bar and the verdict the CLI prints.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyPlanAnswer,
  BUILT_IN_CAPACITY_TABLE,
  capacityClassOf,
  classify,
  reconcile,
  rpmWindow,
  checkQuota,
  checkSize,
  describeRequestWindow,
  mergeCapacityTable,
  quotaFigures,
  rateLimits,
  readUsages,
  regionsWithRoom,
  roomVerdict,
  simulate,
  usageBar,
} from '#service';

const gpt4o = (used: number, limit: number) => ({ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: used, limit });

describe('regions with room (quota where)', () => {
  test('a read that failed is not judged even when a list came with it; a read with neither is "no usage read"', () => {
    const rows = regionsWithRoom('gpt-4o', 'Standard', 1000, [
      { location: 'eastus', error: 'the answer was cut off', value: [gpt4o(0, 100)] },
      { location: 'westus' },
    ]);
    assert.deepEqual(
      rows.map((r) => [r.location, r.freeTpm, r.fits, r.error]),
      [
        ['eastus', null, false, 'the answer was cut off'],
        ['westus', null, false, 'no usage read'],
      ],
    );
  });

  test('exactly the free TPM fits; one unit more does not', () => {
    const value = [gpt4o(90, 100)];
    assert.equal(regionsWithRoom('gpt-4o', 'Standard', 10_000, [{ location: 'eastus', value }])[0].fits, true);
    assert.equal(regionsWithRoom('gpt-4o', 'Standard', 11_000, [{ location: 'eastus', value }])[0].fits, false);
  });

  test('regions with equal free TPM keep the order given; a region with none free comes before one not judged', () => {
    const rows = regionsWithRoom('gpt-4o', 'Standard', 1000, [
      { location: 'norwayeast', error: 'AuthorizationFailed (403)' },
      { location: 'b-full', value: [gpt4o(100, 100)] },
      { location: 'c', value: [gpt4o(50, 100)] },
      { location: 'a', value: [gpt4o(50, 100)] },
    ]);
    assert.deepEqual(
      rows.map((r) => r.location),
      ['c', 'a', 'b-full', 'norwayeast'],
    );
  });

  test('the verdict: fits, how much is short, or not known', () => {
    const [full, room] = regionsWithRoom('gpt-4o', 'Standard', 15_000, [
      { location: 'eastus', value: [gpt4o(90, 100)] },
      { location: 'westus', value: [gpt4o(0, 100)] },
    ]).sort((a, b) => a.location.localeCompare(b.location));
    assert.equal(roomVerdict(full, 15_000), 'no: 5,000 TPM short');
    assert.equal(roomVerdict(room, 15_000), 'fits');
    const [failed] = regionsWithRoom('gpt-4o', 'Standard', 1, [{ location: 'x', error: 'refused' }]);
    assert.equal(roomVerdict(failed, 1), 'not known');
  });
});

describe('usage lists written by hand', () => {
  test('an entry without numbers is listed by its name, or by its text when it has none', () => {
    const read = readUsages([
      { name: { value: 'OpenAI.Standard.o1' }, currentValue: 1 },
      { name: { value: 'OpenAI.Standard.o3' }, limit: 1 },
      { unit: 'Count' },
    ] as never[]);
    assert.deepEqual(read.unmatched, ['OpenAI.Standard.o1', 'OpenAI.Standard.o3', '{"unit":"Count"}']);
    assert.deepEqual(read.models, []);
    assert.deepEqual(readUsages([{ unit: 'x'.repeat(100) }] as never[]).unmatched, [`{"unit":"${'x'.repeat(71)}`]);
  });

  test('an entry that is not an object is listed by its text, cut at 80 characters', () => {
    const read = readUsages([null, 'x'.repeat(100), [1]] as never[]);
    assert.deepEqual(read.unmatched, ['null', `"${'x'.repeat(79)}`, '[1]']);
  });

  test('a name object without value, or a name that is null, is unmatched, not thrown on', () => {
    const read = readUsages([
      { name: null, currentValue: 1, limit: 2 },
      { name: { localizedValue: 'gpt' }, currentValue: 1, limit: 2 },
    ] as never[]);
    assert.deepEqual(read.unmatched, ['', '']);
    assert.equal(read.models.length, 0);
  });

  test('only a name that is exactly AccountCount is the account count; a model name needs all three parts, whole', () => {
    const read = readUsages([
      { name: { value: 'AccountCountLimit' }, currentValue: 1, limit: 2 },
      { name: { value: 'XAccountCount' }, currentValue: 1, limit: 2 },
      { name: { value: 'accountcount' }, currentValue: 3, limit: 30 },
      { name: { value: 'x OpenAI.Standard.gpt-4o' }, currentValue: 1, limit: 2 },
      { name: { value: 'OpenAI.Standard.gpt 4o!' }, currentValue: 1, limit: 2 },
      { name: { value: 'OpenAI.Standard.gpt-4o\nsecond line' }, currentValue: 1, limit: 2 },
    ]);
    assert.deepEqual(read.accounts, { used: 3, limit: 30 });
    assert.deepEqual(read.unmatched, [
      'AccountCountLimit',
      'XAccountCount',
      'x OpenAI.Standard.gpt-4o',
      'OpenAI.Standard.gpt-4o\nsecond line',
    ]);
    assert.deepEqual(
      read.models.map((m) => m.model),
      ['gpt 4o!'],
    );
  });

  test('a label that is not a string is left out', () => {
    const [model] = readUsages([
      { name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 7 }, currentValue: 1, limit: 2 },
    ] as never[]).models;
    assert.equal(model.label, undefined);
    assert.equal('label' in model, true);
  });

  test('the message of a check that does not fit names what is short', () => {
    const check = checkQuota({ usedTpm: 95_000, limitTpm: 100_000 }, 8000);
    assert.equal(check.ok, false);
    assert.equal((check as { shortTpm: number }).shortTpm, 3000);
    assert.match((check as { message: string }).message, /8,000 TPM asked, 5,000 TPM free .*: 3,000 TPM short\./);
  });
});

describe('the usage bar', () => {
  test('cells for used of limit, rounded; over the limit is full; a limit of 0 is full when anything is used', () => {
    assert.equal(usageBar(0, 100), '░'.repeat(20));
    assert.equal(usageBar(50, 100), '█'.repeat(10) + '░'.repeat(10));
    assert.equal(usageBar(26, 100, 10), '███░░░░░░░');
    assert.equal(usageBar(150, 100), '█'.repeat(20));
    assert.equal(usageBar(-5, 100, 4), '░░░░');
    assert.equal(usageBar(1, 0, 4), '████');
    assert.equal(usageBar(0, 0, 4), '░░░░');
  });
});

describe('the simulator counts', () => {
  const olderChat = capacityClassOf('gpt-4o')!;

  test('each minute counts what was sent in it; a request whose tokens reach the TPM exactly is accepted', () => {
    // 1,000 TPM (one unit), 500 tokens each at 1 per 10 s: two fit in each minute exactly, the rest are refused.
    const result = simulate(rateLimits(1, olderChat), { rps: 0.1, promptTokens: 250, maxTokens: 250, minutes: 2 });
    assert.deepEqual(
      result.minutes.map((m) => [m.minute, m.sent, m.accepted, m.refusedRpm, m.refusedTpm, m.tokensCounted]),
      [
        [1, 6, 2, 0, 4, 1000],
        [2, 6, 2, 0, 4, 1000],
      ],
    );
  });

  test('below one request a minute there is no window that allows one', () => {
    assert.deepEqual(rpmWindow({ rpm: 0.5 }), { seconds: 60, allowance: 0 });
  });

  test('refusals by the window are counted per minute too', () => {
    // 6 RPM: one request per 10-second window; 1 per second sends 10 per window.
    const result = simulate(rateLimits(1, olderChat), { rps: 1, promptTokens: 1, maxTokens: 1, minutes: 1 });
    assert.deepEqual(
      result.minutes.map((m) => [m.sent, m.accepted, m.refusedRpm]),
      [[60, 6, 54]],
    );
    assert.deepEqual(result.firstRefusal, { atSeconds: 1, rule: 'rpm' });
  });
});

describe('the figures the extension asks for', () => {
  test('the check needs a whole capacity of 1 or more and a model; the deployment type defaults to Standard', () => {
    const usages = [gpt4o(0, 100), { name: { value: 'OpenAI.GlobalStandard.gpt-4o' }, currentValue: 100, limit: 100 }];
    assert.equal(quotaFigures({ usages, model: 'gpt-4o', capacity: 1 }).check?.ok, true);
    assert.equal(quotaFigures({ usages, model: 'gpt-4o', sku: 'GlobalStandard', capacity: 1 }).check?.ok, false);
    for (const capacity of [0, 1.5, -1])
      assert.equal(quotaFigures({ usages, model: 'gpt-4o', capacity }).check, undefined, `capacity ${capacity}`);
    assert.equal(quotaFigures({ usages, capacity: 1 }).check, undefined);
    assert.equal(quotaFigures({ usages, model: 'gpt-4o', capacity: '1' as never }).check, undefined);
    assert.equal(quotaFigures({ usages: 'x' as never }).rows.length, 0);
    assert.deepEqual(quotaFigures({ usages: 'x' as never }).unmatched, []);
    assert.ok(
      ['Standard', 'GlobalStandard', 'DataZoneStandard', 'ProvisionedManaged'].every((t) => quotaFigures({}).deploymentTypes.includes(t)),
    );
  });

  test('the models of the table are sorted by name', () => {
    const names = quotaFigures({}).models.map((m) => m.name);
    assert.deepEqual(names, [...names].sort());
    assert.notDeepEqual(Object.keys(BUILT_IN_CAPACITY_TABLE.models), names, 'the table itself is not in that order');
  });
});

describe('sizes and the capacity-unit file', () => {
  test('a capacity from 1 to 1,000,000 units; a TPM above 0 up to 1,000,000,000; anything else is refused with its reason', () => {
    assert.deepEqual(checkSize({ capacity: 1 }), { ok: true, capacity: 1 });
    assert.deepEqual(checkSize({ capacity: 1_000_000 }), { ok: true, capacity: 1_000_000 });
    assert.deepEqual(checkSize({ capacity: 1_000_001 }), {
      ok: false,
      message: 'capacity must be at most 1,000,000 units (1,000,000,000 TPM), not 1000001',
    });
    assert.deepEqual(checkSize({ capacity: 0 }), {
      ok: false,
      message: 'capacity must be a positive whole number of units (1 unit = 1,000 TPM), not 0',
    });
    assert.deepEqual(checkSize({ tpm: 1000 }), { ok: true, capacity: 1 });
    assert.deepEqual(checkSize({ tpm: 1_000_000_000 }), { ok: true, capacity: 1_000_000 });
    assert.deepEqual(checkSize({ tpm: 1_000_001_000 }), { ok: false, message: 'TPM must be at most 1,000,000,000, not 1000001000' });
    for (const tpm of [0, -1000, Infinity, NaN])
      assert.deepEqual(checkSize({ tpm }), { ok: false, message: `TPM must be a positive multiple of 1,000, not ${tpm}` }, `tpm ${tpm}`);
    assert.deepEqual(checkSize({}), { ok: false, message: 'give a capacity or a TPM' });
  });

  test('the request window: at exactly one request per 10 s the allowances are given; no RPM is "no requests"', () => {
    assert.equal(describeRequestWindow({ rpm: 6, perSecond: 0, perTenSeconds: 1 }), '0 per 1 s window, 1 per 10 s');
    assert.equal(describeRequestWindow({ rpm: 0, perSecond: 0, perTenSeconds: 0 }), 'no requests');
    assert.equal(describeRequestWindow({ rpm: 3, perSecond: 0, perTenSeconds: 0 }), '3 RPM: one request every 20 s');
    // Thousands are separated as every other figure is (6,000 per 10 s, never 6000).
    assert.equal(describeRequestWindow({ rpm: 36_000, perSecond: 600, perTenSeconds: 6_000 }), '600 per 1 s window, 6,000 per 10 s');
  });

  test("a user file keeps the built-in models it does not name, and a class's description when it is text", () => {
    const merged = mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, {
      classes: { mine: { rpm: 2, tpm: 1000, description: 'my class' }, other: { rpm: 1, tpm: 1000, description: 5 } },
      models: { m1: 'mine', m2: 'other' },
    });
    assert.equal(capacityClassOf('o1', merged)?.name, 'reasoning-a');
    assert.equal(capacityClassOf('m1', merged)?.description, 'my class');
    assert.equal(capacityClassOf('m2', merged)?.description, undefined);
    assert.equal(capacityClassOf('m2', merged)?.rpm, 1);
  });

  test('a model the table does not know has no class, even when a class is named "undefined"', () => {
    const merged = mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, { classes: { undefined: { rpm: 1, tpm: 1000 } } });
    assert.equal(capacityClassOf('not-a-model', merged), undefined);
  });

  test('every wrong shape of the file is refused with what is wrong', () => {
    const refused: Array<[unknown, RegExp]> = [
      [null, /a JSON object with "classes" and\/or "models"/],
      [{ classes: [] }, /"classes" must be an object/],
      [{ classes: null }, /"classes" must be an object/],
      [{ classes: { c: null } }, /class 'c' needs a positive "rpm" and "tpm"/],
      [{ classes: { c: [1] } }, /class 'c' needs/],
      [{ classes: { c: { rpm: 0, tpm: 1000 } } }, /class 'c' needs/],
      [{ classes: { c: { rpm: 1, tpm: 0 } } }, /class 'c' needs/],
      [{ classes: { c: { rpm: 1, tpm: '1000' } } }, /class 'c' needs/],
      [{ classes: { c: { rpm: '1', tpm: 1000 } } }, /class 'c' needs/],
      ['a file', /a JSON object with "classes" and\/or "models"/],
      [{ classes: { c: { rpm: 1 } } }, /class 'c' needs/],
      [{ models: [] }, /"models" must be an object mapping a model name to a class name/],
      [{ models: null }, /"models" must be an object/],
      [{ models: { x: 5 } }, /model 'x' must name a class/],
    ];
    for (const [file, message] of refused)
      assert.throws(() => mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, file), message, JSON.stringify(file));
  });
});

describe('applying a plan: what the editor and the CLI are told before anything is sent', () => {
  const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const plan = (
    deployments: unknown[],
    more: Record<string, unknown> = { subscription: SUB, resourceGroup: 'rg', region: 'eastus', account: 'acct' },
  ) => JSON.stringify({ ...more, deployments });
  const usages = [{ subscription: SUB, region: 'eastus', value: [gpt4o(0, 1000)] }];
  const one = plan([{ name: 'd1', model: 'gpt-4o', sku: { capacity: 10 } }]);

  test('each thing an entry lacks is named, in order', () => {
    const answer = applyPlanAnswer({ text: plan([{ sku: { capacity: 0 } }], {}) });
    assert.deepEqual(answer.problems, [
      "entry 1 needs a subscription, a region, a resource group, an account, a name, a model, a capacity (a positive whole number) (its own or the plan's)",
    ]);
    const named = applyPlanAnswer({ text: plan([{ name: 'd1' }], {}) });
    assert.match(named.problems[0], /^entry 1 \(\?\/d1\) needs /);
  });

  test('one deployment named twice in other casings is one deployment; one account in one region whatever the casing', () => {
    const twice = applyPlanAnswer({
      text: plan([
        { name: 'd1', model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'D1', account: 'ACCT', model: 'gpt-4o', sku: { capacity: 1 } },
      ]),
    });
    assert.match(twice.problems.join('\n'), /entry 2 \(ACCT\/D1\) names the same deployment as an earlier entry/);
    const regions = applyPlanAnswer({
      text: plan([
        { name: 'd1', model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'd2', account: 'ACCT', region: 'EastUS', model: 'gpt-4o', sku: { capacity: 1 } },
      ]),
    });
    assert.deepEqual(regions.problems, []);
    const elsewhere = applyPlanAnswer({
      text: plan([
        { name: 'd1', model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'd2', account: 'ACCT', region: 'westus', model: 'gpt-4o', sku: { capacity: 1 } },
      ]),
    });
    assert.match(elsewhere.problems.join('\n'), /entry 2 \(ACCT\/d2\) puts account 'ACCT' in 'westus', an earlier entry in 'eastus'/);
  });

  test('a file that is not a plan, or a lone deployment, is said to be no plan', () => {
    for (const text of ['{}', '{ "deployments": [] }', '{ "sku": { "capacity": 1 }, "model": "gpt-4o" }']) {
      assert.deepEqual(
        applyPlanAnswer({ text }),
        { targets: [], problems: ['this is not a deployment plan ({ "deployments": [...] })'] },
        text,
      );
    }
    assert.deepEqual(applyPlanAnswer({ text: 5 as never }), {
      targets: [],
      problems: ['the plan could not be read as JSON: see its diagnostics'],
    });
  });

  test("an entry's version and format are part of its target", () => {
    const [t] = applyPlanAnswer({
      text: plan([{ name: 'd1', model: { name: 'gpt-4o', version: '2024-08-06', format: 'OpenAI' }, sku: { capacity: 1 } }]),
    }).targets;
    assert.deepEqual(t.desired, { model: 'gpt-4o', sku: 'Standard', capacity: 1, version: '2024-08-06', format: 'OpenAI' });
  });

  test('no reconciliation without both the deployments and the usages read', () => {
    assert.equal(applyPlanAnswer({ text: one, deployments: [{}] }).result, undefined);
    assert.equal(applyPlanAnswer({ text: one, usages }).result, undefined);
    assert.notEqual(applyPlanAnswer({ text: one, deployments: [{}], usages }).result, undefined);
  });

  test('answers read for another number of entries are refused, not matched up', () => {
    assert.deepEqual(applyPlanAnswer({ text: one, deployments: [{}, {}], usages }), {
      targets: applyPlanAnswer({ text: one }).targets,
      problems: ['2 deployments read for 1 entries'],
    });
  });

  test("a deployment the service answered without a model name or capacity stops the apply: what would change can't be told", () => {
    for (const body of [
      {},
      null,
      { sku: { capacity: 10 } },
      { sku: { capacity: '10' }, properties: { model: { name: 'gpt-4o' } } },
      { sku: { capacity: Infinity }, properties: { model: { name: 'gpt-4o' } } },
      { sku: { capacity: 10 }, properties: { model: { name: 5 } } },
      { sku: [10], properties: { model: { name: 'gpt-4o' } } },
    ]) {
      const answer = applyPlanAnswer({ text: one, deployments: [{ body }], usages });
      assert.deepEqual(
        answer.problems,
        ["the service's answer for acct/d1 has no model name or capacity: cannot tell what would change"],
        JSON.stringify(body),
      );
      assert.equal(answer.result, undefined);
    }
  });

  test('what the service answered is read whole: type, version and format; a missing type is Standard', () => {
    const read = (body: unknown) => applyPlanAnswer({ text: one, deployments: [{ body }], usages }).result?.rows[0];
    const row = read({
      sku: { name: 'GlobalStandard', capacity: 10 },
      properties: { model: { name: 'gpt-4o', version: '1', format: 'OpenAI' } },
    });
    assert.deepEqual([row?.action, row?.changes, row?.currentVersion, row?.currentFormat], ['resize', ['sku'], '1', 'OpenAI']);
    const same = read({ sku: { capacity: 10 }, properties: { model: { name: 'gpt-4o', version: 7, format: 8 } } });
    assert.deepEqual([same?.action, same?.changes, same?.currentVersion, same?.currentFormat], ['unchanged', [], undefined, undefined]);
  });

  test('an account the GET said is missing is a new account; any other answer is not', () => {
    const result = (accountMissing: unknown) =>
      applyPlanAnswer({
        text: one,
        deployments: [{ accountMissing: accountMissing as boolean }],
        usages: [
          {
            subscription: SUB,
            region: 'eastus',
            value: [gpt4o(0, 1000), { name: { value: 'AccountCount' }, currentValue: 30, limit: 30 }],
          },
        ],
      }).result;
    assert.equal(result(true)?.fits, false, 'a new account in a region at its 30 accounts does not fit');
    assert.equal(result('yes')?.fits, true);
    assert.equal(result(undefined)?.fits, true);
  });
});

describe('reconciling a plan: the edges', () => {
  const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const region = (value: unknown[], more: Partial<{ subscription: string; region: string }> = {}) => ({
    subscription: SUB,
    region: 'eastus',
    value: value as never[],
    ...more,
  });
  const entry = (name: string, capacity: number, more: Record<string, unknown> = {}) => ({
    subscription: SUB,
    region: 'eastus',
    resourceGroup: 'rg',
    account: 'acct',
    name,
    desired: { model: 'gpt-4o', sku: 'Standard', capacity },
    ...more,
  });

  test('a format is a change only when both sides name one, in any casing', () => {
    const spec = { model: 'gpt-4o', sku: 'Standard', capacity: 1 };
    assert.deepEqual(classify({ ...spec, format: 'OpenAI' }, { ...spec, format: 'openai' }), { action: 'unchanged', changes: [] });
    assert.deepEqual(classify({ ...spec, format: 'OpenAI' }, { ...spec, format: 'Other' }), { action: 'resize', changes: ['format'] });
    assert.deepEqual(classify({ ...spec, format: 'OpenAI' }, spec), { action: 'unchanged', changes: [] });
    assert.deepEqual(classify(spec, { ...spec, format: 'OpenAI' }), { action: 'unchanged', changes: [] });
    assert.deepEqual(classify({ ...spec, model: 'GPT-4o', sku: 'standard' }, spec), { action: 'unchanged', changes: [] });
  });

  test('the 30th resource of a region fits; an account named by two entries is one new resource', () => {
    const fresh = { account: 'fresh', accountIsNew: true };
    const at29 = reconcile(
      [entry('a', 1, fresh), entry('b', 1, { ...fresh, account: 'fresh' })],
      [region([gpt4o(0, 100), { name: { value: 'AccountCount' }, currentValue: 29, limit: 30 }])],
    );
    assert.deepEqual(
      at29.resources.map((r) => [r.used, r.newAccounts, r.after, r.fits]),
      [[29, ['rg/fresh'], 30, true]],
    );
    assert.equal(at29.fits, true);
  });

  test('without an account count in the usage, the accounts the plan names that exist are what is used', () => {
    const known = Array.from({ length: 30 }, (_, i) =>
      entry(`d${i}`, 1, { account: `acct${i}`, current: { model: 'gpt-4o', sku: 'Standard', capacity: 1 } }),
    );
    const result = reconcile([...known, entry('new', 1, { account: 'fresh', accountIsNew: true })], [region([gpt4o(30, 100)])]);
    assert.deepEqual(
      result.resources.map((r) => [r.used, r.limit, r.after, r.fits]),
      [[30, 30, 31, false]],
    );
    assert.match(result.problems.join('\n'), /'eastus': 31 model-service resources after the plan \(30 now and 1 new: rg\/fresh\)/);
  });

  test('an account count with a limit of 0 falls back to 30 per region', () => {
    const result = reconcile(
      [entry('new', 1, { account: 'fresh', accountIsNew: true })],
      [region([gpt4o(0, 100), { name: { value: 'AccountCount' }, currentValue: 3, limit: 0 }])],
    );
    assert.deepEqual(
      result.resources.map((r) => [r.used, r.limit, r.fits]),
      [[3, 30, true]],
    );
  });

  test("the region's usage is found whatever the casing of the subscription and region", () => {
    const other = region([gpt4o(100, 100)], { subscription: '00000000-0000-0000-0000-000000000000' });
    const result = reconcile([entry('d', 10)], [other, region([gpt4o(0, 100)], { subscription: SUB.toUpperCase(), region: 'EastUS' })]);
    assert.equal(result.fits, true, result.problems.join('\n'));
    assert.deepEqual(
      result.quotas.map((q) => [q.found, q.usedTpm, q.afterTpm]),
      [[true, 0, 10_000]],
    );
  });

  test('moving away from a model the region no longer lists is no problem: that quota is only freed', () => {
    const result = reconcile(
      [entry('d', 10, { current: { model: 'retired-model', sku: 'Standard', capacity: 5 } })],
      [region([gpt4o(0, 100)])],
    );
    assert.deepEqual(result.problems, []);
    assert.equal(result.fits, true);
    assert.deepEqual(
      result.quotas.map((q) => [q.model, q.found, q.fits]),
      [
        ['gpt-4o', true, true],
        ['retired-model', false, true],
      ],
    );
  });

  test('a quota drawn on by one entry lists it once, with its move away from another model', () => {
    const result = reconcile(
      [entry('d', 10, { current: { model: 'gpt-4o-mini', sku: 'Standard', capacity: 5 } })],
      [region([gpt4o(0, 100), { name: { value: 'OpenAI.Standard.gpt-4o-mini' }, currentValue: 5, limit: 100 }])],
    );
    assert.deepEqual(
      result.quotas.map((q) => [q.model, q.entries, q.afterTpm]),
      [
        ['gpt-4o', ['acct/d'], 10_000],
        ['gpt-4o-mini', ['acct/d'], 0],
      ],
    );
    const resize = reconcile([entry('d', 10, { current: { model: 'gpt-4o', sku: 'Standard', capacity: 5 } })], [region([gpt4o(5, 100)])]);
    assert.deepEqual(
      resize.quotas.map((q) => [q.model, q.entries, q.afterTpm]),
      [['gpt-4o', ['acct/d'], 10_000]],
    );
  });
});

describe("the apply report's JSON and rows", () => {
  const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const text = JSON.stringify({
    subscription: SUB,
    resourceGroup: 'rg',
    region: 'eastus',
    account: 'acct',
    deployments: [
      { name: 'new', model: 'gpt-4o', sku: { capacity: 2 } },
      { name: 'moved', model: 'gpt-4o', sku: { capacity: 3 } },
      { name: 'odd', model: 'not-in-table', sku: { capacity: 1 } },
    ],
  });
  const deployed = {
    sku: { name: 'Standard', capacity: 1 },
    properties: { model: { name: 'gpt-4o-mini', version: 'v-mini', format: 'OpenAI' } },
  };

  test('every action with from (null for a create) and its changes when there are some; every quota with nulls where not known; the order', () => {
    const answer = applyPlanAnswer({
      text,
      deployments: [{}, { body: deployed }, {}],
      usages: [
        {
          subscription: SUB,
          region: 'eastus',
          value: [gpt4o(0, 100), { name: { value: 'OpenAI.Standard.gpt-4o-mini' }, currentValue: 1, limit: 100 }],
        },
      ],
    });
    const result = answer.result!;
    assert.deepEqual(result.actions, [
      { account: 'acct', name: 'new', region: 'eastus', model: 'gpt-4o', sku: 'Standard', action: 'create', from: null, to: 2 },
      {
        account: 'acct',
        name: 'moved',
        region: 'eastus',
        model: 'gpt-4o',
        sku: 'Standard',
        action: 'resize',
        from: 1,
        to: 3,
        changes: ['capacity', 'model'],
      },
      { account: 'acct', name: 'odd', region: 'eastus', model: 'not-in-table', sku: 'Standard', action: 'create', from: null, to: 1 },
    ]);
    assert.deepEqual(
      result.quotas.map((q) => [q.model, q.limitTpm, q.usedTpm, q.afterTpm, q.fits]),
      [
        ['gpt-4o', 100_000, 0, 5000, true],
        ['gpt-4o-mini', 100_000, 1000, 0, true],
        ['not-in-table', null, null, null, false],
      ],
    );
    assert.equal(result.fits, false);
    assert.deepEqual(result.order, []);
    assert.match(result.problems?.join('\n') ?? '', /'not-in-table' \(Standard\) in 'eastus': the region's usage has no entry/);
    assert.equal('noOrder' in result, false);
    assert.deepEqual(result.steps, [], 'no steps when the plan does not fit');
  });

  test('the rows: TPM, RPM and window from the table; the deployed version only for the same model', () => {
    const answer = applyPlanAnswer({
      text,
      deployments: [{}, { body: deployed }, {}],
      usages: [
        {
          subscription: SUB,
          region: 'eastus',
          value: [
            gpt4o(0, 100),
            { name: { value: 'OpenAI.Standard.gpt-4o-mini' }, currentValue: 1, limit: 100 },
            { name: { value: 'OpenAI.Standard.not-in-table' }, currentValue: 0, limit: 100 },
          ],
        },
      ],
    });
    const rows = answer.result!.rows;
    assert.deepEqual(
      rows.map((r) => [r.key, r.tpm, r.rpm, r.window, r.currentVersion, 'currentVersion' in r]),
      [
        ['acct/new', 2000, 12, '0 per 1 s window, 2 per 10 s', undefined, false],
        ['acct/moved', 3000, 18, '0 per 1 s window, 3 per 10 s', undefined, false],
        ['acct/odd', 1000, undefined, undefined, undefined, false],
      ],
    );
    assert.deepEqual(answer.result!.order, ['acct/moved', 'acct/new', 'acct/odd'], 'a move away from a quota first');
    assert.deepEqual(answer.result!.steps[0].frees, [{ quota: "'gpt-4o-mini' (Standard) in 'eastus'", tpm: 1000 }]);
    assert.equal('problems' in answer.result!, false);
    const same = applyPlanAnswer({
      text,
      deployments: [{}, { body: { ...deployed, properties: { model: { name: 'GPT-4o', version: 'v1', format: 'OpenAI' } } } }, {}],
      usages: [
        {
          subscription: SUB,
          region: 'eastus',
          value: [gpt4o(0, 100), { name: { value: 'OpenAI.Standard.not-in-table' }, currentValue: 0, limit: 100 }],
        },
      ],
    });
    assert.deepEqual([same.result!.rows[1].currentVersion, same.result!.rows[1].currentFormat], ['v1', 'OpenAI']);
  });
});
