// A plan as desired state: classification (create, resize, unchanged), the end state against every quota and
// the 30 resources per region, and the order of the PUTs (shrinks first, every intermediate state fits, or
// "no order fits"). Table-driven over the pure model; each order is replayed step by step (firstStepOver).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyPlanAnswer,
  classify,
  describeRequestWindow,
  firstStepOver,
  rateLimits,
  capacityClassOf,
  reconcile,
  regionsWithRoom,
  type DeploymentSpec,
  type ReconcileEntry,
  type RegionUsage,
} from '#service';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const usage = (region: string, entries: Array<[string, number, number]>, accounts?: [number, number]): RegionUsage => ({
  subscription: SUB,
  region,
  value: [
    ...entries.map(([key, used, limit]) => ({ name: { value: key }, currentValue: used, limit })),
    ...(accounts ? [{ name: { value: 'AccountCount' }, currentValue: accounts[0], limit: accounts[1] }] : []),
  ],
});
const spec = (capacity: number, model = 'gpt-4o', sku = 'Standard', version?: string): DeploymentSpec => ({
  model,
  sku,
  capacity,
  ...(version ? { version } : {}),
});
const entry = (name: string, desired: DeploymentSpec, current?: DeploymentSpec, more: Partial<ReconcileEntry> = {}): ReconcileEntry => ({
  subscription: SUB,
  region: 'eastus',
  resourceGroup: 'rg',
  account: 'acct',
  name,
  desired,
  current,
  ...more,
});

describe('classification', () => {
  const cases: Array<{ name: string; desired: DeploymentSpec; current?: DeploymentSpec; action: string; changes: string[] }> = [
    { name: 'no deployment: create', desired: spec(10), action: 'create', changes: [] },
    { name: 'same capacity, model and type: unchanged', desired: spec(10), current: spec(10), action: 'unchanged', changes: [] },
    { name: 'model name in another casing: unchanged', desired: spec(10, 'GPT-4o'), current: spec(10), action: 'unchanged', changes: [] },
    {
      name: 'no version in the plan keeps the deployed one: unchanged',
      desired: spec(10),
      current: spec(10, 'gpt-4o', 'Standard', '2024-08-06'),
      action: 'unchanged',
      changes: [],
    },
    { name: 'capacity differs: resize', desired: spec(20), current: spec(10), action: 'resize', changes: ['capacity'] },
    {
      name: 'named version differs: resize',
      desired: spec(10, 'gpt-4o', 'Standard', '2024-11-20'),
      current: spec(10, 'gpt-4o', 'Standard', '2024-08-06'),
      action: 'resize',
      changes: ['version'],
    },
    {
      name: 'deployment type differs: resize',
      desired: spec(10, 'gpt-4o', 'GlobalStandard'),
      current: spec(10),
      action: 'resize',
      changes: ['sku'],
    },
    { name: 'model differs: resize', desired: spec(10, 'gpt-4o-mini'), current: spec(10), action: 'resize', changes: ['model'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(classify(c.desired, c.current), { action: c.action, changes: c.changes });
    });
  }
});

interface OrderCase {
  name: string;
  entries: ReconcileEntry[];
  usages: RegionUsage[];
  fits: boolean;
  /** The order expected (keys), or null when none fits; undefined when the end state does not fit. */
  order?: string[] | null;
  problem?: RegExp;
}

const orderCases: OrderCase[] = [
  {
    name: 'only shrink-first fits: 80 -> 50 and a new 50 under a limit of 100',
    entries: [entry('new', spec(50)), entry('big', spec(50), spec(80))],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 80, 100]], [1, 30])],
    fits: true,
    order: ['acct/big', 'acct/new'],
  },
  {
    name: 'an unchanged entry is never in the order',
    entries: [entry('same', spec(20), spec(20)), entry('grow', spec(30), spec(10))],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 30, 100]])],
    fits: true,
    order: ['acct/grow'],
  },
  {
    name: 'restating what exists is not counted twice (the region is full, nothing changes)',
    entries: [entry('a', spec(60), spec(60)), entry('b', spec(40), spec(40))],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 100, 100]])],
    fits: true,
    order: [],
  },
  {
    name: 'the end state over the quota: refused, with the quota, the amount and the entries',
    entries: [entry('big', spec(80), spec(80)), entry('new', spec(30))],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 80, 100]])],
    fits: false,
    problem:
      /'gpt-4o' \(Standard\) in 'eastus': 110,000 TPM after the plan, over the 100,000 TPM quota by 10,000 TPM \(80,000 TPM used now\); drawn on by acct\/big \(unchanged, 80\), acct\/new \(new → 30\)/,
  },
  {
    name: 'a swap of two full quotas fits at the end but in no order',
    entries: [entry('x', spec(10, 'gpt-4o-mini'), spec(10, 'gpt-4o')), entry('y', spec(10, 'gpt-4o'), spec(10, 'gpt-4o-mini'))],
    usages: [
      usage('eastus', [
        ['OpenAI.Standard.gpt-4o', 10, 10],
        ['OpenAI.Standard.gpt-4o-mini', 10, 10],
      ]),
    ],
    fits: true,
    order: null,
  },
  {
    name: 'moves chained through two quotas: the greedy first pick would block, the search finds the order',
    // Q (gpt-4o) 8/10, Q' (gpt-4o-mini) 10/10. s: create 2 on Q. t: move 5 from Q' to 2 on Q. u: move 2 from Q to 3 on Q'.
    entries: [entry('s', spec(2)), entry('t', spec(2), spec(5, 'gpt-4o-mini')), entry('u', spec(3, 'gpt-4o-mini'), spec(2))],
    usages: [
      usage('eastus', [
        ['OpenAI.Standard.gpt-4o', 8, 10],
        ['OpenAI.Standard.gpt-4o-mini', 10, 10],
      ]),
    ],
    fits: true,
    order: ['acct/t', 'acct/u', 'acct/s'],
  },
  {
    name: 'a model the region does not list: refused, nothing assumed',
    entries: [entry('new', spec(1, 'o3-mini'))],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 0, 100]])],
    fits: false,
    problem: /'o3-mini' \(Standard\) in 'eastus': the region's usage has no entry/,
  },
  {
    name: 'no usage read for the region: refused',
    entries: [entry('new', spec(1), undefined, { region: 'westus' })],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 0, 100]])],
    fits: false,
    problem: /no usage of subscription .* in 'westus' was read/,
  },
  {
    name: 'the 31st resource in a region: refused',
    entries: [entry('new', spec(1), undefined, { account: 'fresh', accountIsNew: true })],
    usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 0, 100]], [30, 30])],
    fits: false,
    problem: /'eastus': 31 model-service resources after the plan \(30 now and 1 new: rg\/fresh\), over the limit of 30/,
  },
  {
    name: 'quotas are per deployment type and region: GlobalStandard and westus do not draw on eastus Standard',
    entries: [
      entry('g', spec(300, 'gpt-4o', 'GlobalStandard')),
      entry('w', spec(100), undefined, { region: 'westus' }),
      entry('e', spec(20)),
    ],
    usages: [
      usage('eastus', [
        ['OpenAI.Standard.gpt-4o', 80, 100],
        ['OpenAI.GlobalStandard.gpt-4o', 0, 450],
      ]),
      usage('westus', [['OpenAI.Standard.gpt-4o', 0, 100]]),
    ],
    fits: true,
    order: ['acct/g', 'acct/w', 'acct/e'],
  },
];

describe('end state and order', () => {
  for (const c of orderCases) {
    test(c.name, () => {
      const r = reconcile(c.entries, c.usages);
      assert.equal(r.fits, c.fits, r.problems.join('\n'));
      if (c.problem)
        assert.ok(
          r.problems.some((p) => c.problem!.test(p)),
          r.problems.join('\n'),
        );
      if (!c.fits) {
        assert.equal(r.order, undefined, 'nothing is ordered when the end state does not fit');
        return;
      }
      if (c.order === null) {
        assert.equal(r.order, undefined);
        assert.match(r.noOrder ?? '', /every order passes a quota/);
        return;
      }
      assert.deepEqual(r.order, c.order);
      // The proof: replayed step by step, no PUT takes its quota past the limit.
      assert.equal(firstStepOver(r, r.order!), undefined);
      for (const step of r.steps!) assert.ok(step.afterTpm <= step.limitTpm || step.afterTpm <= step.beforeTpm, JSON.stringify(step));
    });
  }

  test('the replay catches an order that crosses a quota (create before the shrink)', () => {
    const r = reconcile(orderCases[0].entries, orderCases[0].usages);
    assert.deepEqual(firstStepOver(r, ['acct/new', 'acct/big']), {
      key: 'acct/new',
      quota: "'gpt-4o' (Standard) in 'eastus'",
      afterTpm: 130_000,
      limitTpm: 100_000,
    });
  });

  test('used now and after, per quota', () => {
    const r = reconcile(orderCases[0].entries, orderCases[0].usages);
    assert.deepEqual(
      r.quotas.map((q) => [q.model, q.usedTpm, q.afterTpm, q.limitTpm, q.fits]),
      [['gpt-4o', 80_000, 100_000, 100_000, true]],
    );
    assert.deepEqual(
      r.entries.map((e) => [e.key, e.action]),
      [
        ['acct/new', 'create'],
        ['acct/big', 'resize'],
      ],
    );
  });
});

describe('the request window that applies', () => {
  const window = (model: string, capacity: number) => describeRequestWindow(rateLimits(capacity, capacityClassOf(model)!));
  test('600 RPM: 10 per 1 s, 100 per 10 s', () => assert.equal(window('gpt-4o', 100), '10 per 1 s window, 100 per 10 s'));
  test('30 RPM: none per second, 5 per 10 s', () => assert.equal(window('gpt-4o', 5), '0 per 1 s window, 5 per 10 s'));
  test('5 RPM (o3 at 5 units): one request every 12 s, not "0 per 1 s, 0 per 10 s"', () =>
    assert.equal(window('o3', 5), '5 RPM: one request every 12 s'));
  test('1/6 RPM (o1 at 1 unit): one request every 360 s', () => assert.equal(window('o1', 1), '0.17 RPM: one request every 360 s'));
});

describe("the editor's questions to the server (applyPlanAnswer, regionsWithRoom)", () => {
  const text = JSON.stringify({
    subscription: SUB,
    resourceGroup: 'rg',
    region: 'eastus',
    account: 'acct',
    deployments: [
      { name: 'new', model: 'gpt-4o', sku: { capacity: 50 } },
      { name: 'big', model: 'gpt-4o', sku: { capacity: 50 } },
    ],
  });

  test('first the targets, then the reconciliation of what the extension read', () => {
    const first = applyPlanAnswer({ text });
    assert.deepEqual(first.problems, []);
    assert.deepEqual(
      first.targets.map((t) => `${t.account}/${t.name}@${t.region}`),
      ['acct/new@eastus', 'acct/big@eastus'],
    );
    assert.equal(first.result, undefined);
    const second = applyPlanAnswer({
      text,
      deployments: [
        {},
        {
          body: {
            sku: { name: 'Standard', capacity: 80 },
            properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } },
          },
        },
      ],
      usages: [usage('eastus', [['OpenAI.Standard.gpt-4o', 80, 100]])],
    });
    assert.deepEqual(second.result?.order, ['acct/big', 'acct/new']);
    assert.deepEqual(
      second.result?.rows.map((r) => [r.key, r.action, r.from, r.to, r.currentVersion]),
      [
        ['acct/new', 'create', undefined, 50, undefined],
        ['acct/big', 'resize', 80, 50, '2024-08-06'],
      ],
    );
  });

  test('entries that lack what a PUT needs, or name one deployment twice, or one account in two regions', () => {
    const bad = JSON.stringify({
      subscription: SUB,
      deployments: [
        { name: 'a1', model: 'gpt-4o', sku: { capacity: 1 } },
        { account: 'x1', resourceGroup: 'rg', region: 'eastus', name: 'b1', model: 'gpt-4o', sku: { capacity: 1 } },
        { account: 'x1', resourceGroup: 'rg', region: 'westus', name: 'b2', model: 'gpt-4o', sku: { capacity: 1 } },
        { account: 'x1', resourceGroup: 'rg', region: 'eastus', name: 'b1', model: 'gpt-4o', sku: { capacity: 2 } },
      ],
    });
    const answer = applyPlanAnswer({ text: bad });
    assert.equal(answer.problems.length, 3, answer.problems.join('\n'));
    assert.match(answer.problems[0], /entry 1 \(\?\/a1\) needs a region, a resource group, an account/);
    assert.match(answer.problems[1], /entry 3 .* puts account 'x1' in 'westus', an earlier entry in 'eastus'/);
    assert.match(answer.problems[2], /entry 4 .* names the same deployment as an earlier entry/);
    assert.match(applyPlanAnswer({ text: '{ "deployments": [' }).problems[0], /could not be read as JSON/);
  });

  test('regions sorted by free TPM; the ones that could not be judged last, with their reason', () => {
    const rows = regionsWithRoom('gpt-4o', 'Standard', 150_000, [
      { location: 'eastus', value: usage('eastus', [['OpenAI.Standard.gpt-4o', 80, 100]]).value },
      { location: 'norwayeast', error: 'AuthorizationFailed (403)' },
      { location: 'westus', value: usage('westus', [['OpenAI.Standard.gpt-4o', 100, 300]]).value },
      { location: 'japaneast', value: [] },
    ]);
    assert.deepEqual(
      rows.map((r) => [r.location, r.freeTpm, r.fits, r.error ?? '']),
      [
        ['westus', 200_000, true, ''],
        ['eastus', 20_000, false, ''],
        ['norwayeast', null, false, 'AuthorizationFailed (403)'],
        ['japaneast', null, false, "the usage lists no quota for 'gpt-4o' (Standard): the model may not be offered there"],
      ],
    );
  });
});
