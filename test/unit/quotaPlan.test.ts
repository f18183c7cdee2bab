// How a deployment plan is read (server/src/service/quota/plan.ts) and what the offline quota checks make of
// it, edge by edge, as mutation testing found them untested (docs/mutation.md).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { asSavedUsage, quotaOverruns, readPlan, resourceOverruns, uncheckedDeployments, usageFor } from '#service';
import { parseJson } from '#server/service/json/index';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const planOf = (value: unknown) => readPlan(parseJson(JSON.stringify(value)).root);
const gpt4o = (used: number, limit: number) => ({ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: used, limit });
const saved = (location: string, value: unknown[], subscription?: string) =>
  asSavedUsage({ location, value, ...(subscription ? { subscription } : {}) })!;

describe('reading a plan', () => {
  test("each field under its other name too; the plan's own values as defaults", () => {
    const [d] = planOf({
      subscription: 'plan-sub',
      location: 'EastUS',
      resourceGroupName: 'rg',
      accountName: 'acct',
      deployments: [
        {
          subscriptionId: SUB,
          deploymentName: 'd1',
          properties: { model: { name: 'gpt-4o', version: '1', format: 'OpenAI' } },
          sku: { name: 'GlobalStandard', capacity: 5 },
        },
      ],
    }).deployments;
    assert.deepEqual(
      [d.subscription, d.region, d.resourceGroup, d.account, d.name, d.model, d.version, d.format, d.sku, d.capacity],
      [SUB, 'eastus', 'rg', 'acct', 'd1', 'gpt-4o', '1', 'OpenAI', 'GlobalStandard', 5],
    );
    assert.equal(d.skuNameNode?.value, 'GlobalStandard', 'the node of the sku name, for ranges');
    const [s] = planOf({ deployments: [{ model: 'gpt-4o', version: '2', capacity: 3 }] }).deployments;
    assert.deepEqual(
      [s.model, s.version, s.format, s.sku, s.capacity, s.skuNameNode, s.modelNode?.value],
      ['gpt-4o', '2', undefined, 'Standard', 3, undefined, 'gpt-4o'],
    );
  });

  test("the model object's version wins over the entry's; a sku name or model that is not text is none", () => {
    const [d] = planOf({
      deployments: [{ model: { name: 'gpt-4o', version: 'inner' }, version: 'outer', sku: { name: 5, capacity: 1 } }],
    }).deployments;
    assert.deepEqual([d.version, d.sku, d.skuNameNode], ['inner', 'Standard', undefined]);
    const [n] = planOf({ deployments: [{ model: { name: 7 }, sku: { capacity: 1 } }] }).deployments;
    assert.deepEqual([n.model, n.modelNode], [undefined, undefined]);
  });

  test('a capacity from 1 to 1,000,000 whole units; "existing" only as a whole number of 0 or more', () => {
    const caps = planOf({
      deployments: [1, 1_000_000, 1_000_001, 0, 1.5].map((capacity) => ({ model: 'gpt-4o', sku: { capacity } })),
    }).deployments.map((d) => d.capacity);
    assert.deepEqual(caps, [1, 1_000_000, undefined, undefined, undefined]);
    const existing = planOf({
      deployments: [0, 3, -1, 1.5, '2'].map((e) => ({ model: 'gpt-4o', sku: { capacity: 5 }, existing: e })),
    }).deployments.map((d) => d.existing);
    assert.deepEqual(existing, [0, 3, undefined, undefined, undefined]);
  });

  test('a lone deployment has a sku; a root without deployments or sku is no plan; entries that are not objects are left out', () => {
    assert.deepEqual(
      [planOf({ sku: { capacity: 1 }, model: 'gpt-4o' }).lone, planOf({ sku: { capacity: 1 }, model: 'gpt-4o' }).deployments.length],
      [true, 1],
    );
    assert.deepEqual([planOf({ model: 'gpt-4o' }).lone, planOf({ model: 'gpt-4o' }).deployments.length], [false, 0]);
    assert.deepEqual(planOf([1, 2]).deployments, []);
    assert.equal(readPlan(undefined).deployments.length, 0);
    assert.equal(planOf({ deployments: [5, null, { model: 'gpt-4o' }, ['x']] }).deployments.length, 1);
  });

  test('usage: one object or a list; text is a file to read, objects are saved usage, anything else is left out', () => {
    const plan = planOf({
      deployments: [],
      usage: ['eastus.json', { location: 'EastUS', value: [] }, { location: 5, value: [] }, { location: 'westus', value: {} }, 7],
    });
    assert.deepEqual(
      plan.usageFiles.map((f) => f.path),
      ['eastus.json'],
    );
    assert.deepEqual(plan.usages, [{ subscription: undefined, location: 'eastus', value: [] }]);
    assert.deepEqual(planOf({ deployments: [], usage: { location: 'westus', value: [], subscription: 7 } }).usages, [
      { subscription: undefined, location: 'westus', value: [] },
    ]);
    assert.deepEqual(
      planOf({ deployments: [], usage: 'one.json' }).usageFiles.map((f) => f.path),
      ['one.json'],
    );
    assert.equal(asSavedUsage(['x']), undefined);
    assert.equal(asSavedUsage(null), undefined);
  });
});

describe('the offline checks of a plan', () => {
  test("a saved usage is the region's when its subscription is the entry's, in any casing, or either names none", () => {
    const [d] = planOf({ deployments: [{ subscription: SUB, region: 'eastus', model: 'gpt-4o', sku: { capacity: 1 } }] }).deployments;
    assert.equal(usageFor([saved('eastus', [], '00000000-0000-0000-0000-000000000000')], d), undefined);
    assert.ok(usageFor([saved('eastus', [], SUB.toUpperCase())], d));
    assert.ok(usageFor([saved('eastus', [])], d));
    const [none] = planOf({ deployments: [{ region: 'eastus', model: 'gpt-4o', sku: { capacity: 1 } }] }).deployments;
    assert.ok(usageFor([saved('eastus', [], SUB)], none));
  });

  test('quota: entries add up per subscription, region, type and model; an entry without a region, model or capacity is left to other rules', () => {
    const plan = planOf({
      deployments: [
        { subscription: SUB, region: 'eastus', name: 'a', model: 'gpt-4o', sku: { capacity: 6 } },
        { subscription: SUB.toUpperCase(), region: 'EastUS', name: 'b', model: 'GPT-4o', sku: { capacity: 5 } },
        {
          subscription: '00000000-0000-0000-0000-000000000000',
          region: 'eastus',
          name: 'other-sub',
          model: 'gpt-4o',
          sku: { capacity: 9 },
        },
        { subscription: SUB, name: 'no-region', model: 'gpt-4o', sku: { capacity: 50 } },
        { subscription: SUB, region: 'eastus', name: 'no-capacity', model: 'gpt-4o' },
      ],
    });
    const found = quotaOverruns(plan, [
      saved('eastus', [gpt4o(0, 10)], SUB),
      saved('eastus', [gpt4o(0, 10)], '00000000-0000-0000-0000-000000000000'),
    ]);
    assert.deepEqual(
      found.map((o) => [o.deployment.name, o.plannedTpm, o.others.map((x) => x.name)]),
      [['b', 11_000, ['a']]],
    );
  });

  test('resources: an account counted once in any casing, per subscription and region; the limit of the saved usage, else 30', () => {
    const entries = (n: number, more: Record<string, unknown> = {}, prefix = 'acct') =>
      Array.from({ length: n }, (_, i) => ({
        subscription: SUB,
        region: 'eastus',
        resourceGroup: 'rg',
        account: `${prefix}${i}`,
        name: 'd',
        model: 'gpt-4o',
        sku: { capacity: 1 },
        ...more,
      }));
    const three = planOf({
      deployments: [
        ...entries(3),
        {
          subscription: SUB,
          region: 'eastus',
          resourceGroup: 'RG',
          account: 'ACCT0',
          name: 'again',
          model: 'gpt-4o',
          sku: { capacity: 1 },
        },
      ],
    });
    const over = resourceOverruns(three, [saved('eastus', [{ name: { value: 'AccountCount' }, currentValue: 0, limit: 2 }], SUB)]);
    assert.deepEqual(
      over.map((o) => [o.deployment.account, o.count, o.limit]),
      [['acct2', 3, 2]],
    );
    assert.deepEqual(
      resourceOverruns(planOf({ deployments: entries(31) }), []).map((o) => [o.deployment.account, o.count, o.limit]),
      [['acct30', 31, 30]],
    );
    assert.deepEqual(resourceOverruns(planOf({ deployments: entries(30) }), []), []);
    const twoSubs = planOf({
      deployments: [...entries(20), ...entries(20, { subscription: '00000000-0000-0000-0000-000000000000' }, 'other')],
    });
    assert.deepEqual(resourceOverruns(twoSubs, []), []);
    const otherGroup = planOf({
      deployments: [
        ...entries(30),
        { subscription: SUB, region: 'eastus', resourceGroup: 'rg2', account: 'acct0', name: 'd', model: 'gpt-4o', sku: { capacity: 1 } },
      ],
    });
    assert.equal(resourceOverruns(otherGroup, []).length, 1, 'the same account name in another resource group is another resource');
    assert.deepEqual(resourceOverruns(planOf({ deployments: entries(31, { region: undefined }) }), []), []);
  });

  test('unchecked: no region, no usage, or no entry for the model and type, each said; entries without a model or capacity are not', () => {
    const plan = planOf({
      deployments: [
        { name: 'no-region', model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'westus', region: 'westus', subscription: SUB, model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'o3', region: 'eastus', model: 'o3', sku: { capacity: 1 } },
        { name: 'fits', region: 'eastus', model: 'gpt-4o', sku: { capacity: 1 } },
        { name: 'no-model', region: 'westus', sku: { capacity: 1 } },
        { name: 'no-capacity', region: 'westus', model: 'gpt-4o' },
      ],
    });
    assert.deepEqual(
      uncheckedDeployments(plan, [saved('eastus', [gpt4o(0, 10)])]).map((u) => [u.deployment.name, u.reason]),
      [
        ['no-region', 'the entry names no region'],
        ['westus', `no usage of subscription ${SUB} in 'westus': the usage given is for 'eastus'`],
        ['o3', "the usage of 'eastus' has no entry for 'o3' (Standard)"],
      ],
    );
    assert.match(
      uncheckedDeployments(plan, [])[1].reason,
      /no usage was given \(the plan's "usage", --usage or the setting policySet\.quota\.usageFiles\)$/,
    );
  });
});
