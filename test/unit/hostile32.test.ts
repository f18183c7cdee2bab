// Issue 32 in the pure model and the api layer: apply orders checked by an oracle of the test's own (each
// PUT replayed over the quotas here, not with the product's firstStepOver), plans of thousands of changes,
// impossible usage numbers, a plan entry without a model, casing beyond ASCII, base64 echoes of the token,
// and a PUT whose resource says it failed.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { quotaOverruns, readPlan, readUsages, reconcile, type DeploymentSpec, type ReconcileEntry, type RegionUsage } from '#service';
import { parseJson } from '#server/service/json/index';
import { checkWriteOutcome, impossibleUsageNumber, ProvisioningFailedError, putOutcome, redact } from '#api';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const spec = (capacity: number, model = 'gpt-4o', sku = 'Standard'): DeploymentSpec => ({ model, sku, capacity });
const entry = (name: string, desired: DeploymentSpec, current?: DeploymentSpec): ReconcileEntry => ({
  subscription: SUB,
  region: 'eastus',
  resourceGroup: 'rg',
  account: 'acct',
  name,
  desired,
  current,
});
const usage = (entries: Array<[string, number, number]>): RegionUsage => ({
  subscription: SUB,
  region: 'eastus',
  value: entries.map(([key, used, limit]) => ({ name: { value: key }, currentValue: used, limit })),
});

/**
 * The oracle: the quotas of the usage list (units of 1,000 TPM, as the service counts them), and each PUT of
 * `order` applied as the service applies it (the deployment leaves its current quota, takes its desired one);
 * a PUT that makes its quota grow past the limit is the first step over. Written here, from the service's
 * rules, independent of reconcile.ts.
 */
function oracle(
  entries: ReconcileEntry[],
  usages: RegionUsage,
  order: string[],
): { over?: string; end: Map<string, number>; limits: Map<string, number> } {
  const quotaOf = (s: DeploymentSpec) => `OpenAI.${s.sku}.${s.model}`.toLowerCase();
  const used = new Map<string, number>();
  const limits = new Map<string, number>();
  for (const u of usages.value) {
    used.set(String(u.name!.value).toLowerCase(), u.currentValue!);
    limits.set(String(u.name!.value).toLowerCase(), u.limit!);
  }
  let over: string | undefined;
  for (const key of order) {
    const e = entries.find((x) => `${x.account}/${x.name}` === key)!;
    const to = quotaOf(e.desired);
    const before = used.get(to) ?? 0;
    if (e.current) used.set(quotaOf(e.current), (used.get(quotaOf(e.current)) ?? 0) - e.current.capacity);
    used.set(to, (used.get(to) ?? 0) + e.desired.capacity);
    if (over === undefined && used.get(to)! > before && used.get(to)! > (limits.get(to) ?? Infinity)) over = key;
  }
  return { over, end: used, limits };
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('12: apply orders against an oracle of the test', () => {
  test('one unit over the quota at the end: refused; exactly at the limit: applied, every step within it', () => {
    const fits = reconcile([entry('big', spec(49), spec(80)), entry('new', spec(51))], [usage([['OpenAI.Standard.gpt-4o', 80, 100]])]);
    assert.equal(fits.fits, true);
    assert.deepEqual(fits.order, ['acct/big', 'acct/new']);
    assert.equal(
      oracle([entry('big', spec(49), spec(80)), entry('new', spec(51))], usage([['OpenAI.Standard.gpt-4o', 80, 100]]), fits.order!).over,
      undefined,
    );
    const over = reconcile([entry('big', spec(49), spec(80)), entry('new', spec(52))], [usage([['OpenAI.Standard.gpt-4o', 80, 100]])]);
    assert.equal(over.fits, false);
    assert.equal(over.order, undefined);
  });

  test('one unit over on the way: the only order that fits is found, and the order taking the quota to 101 is not', () => {
    // Q 10/10 (x holds 10), Q' 0/5: x moves to Q' (5), y grows on Q to 10; y before x would take Q to 20 of 10.
    const entries = [entry('y', spec(10)), entry('x', spec(5, 'gpt-4o-mini'), spec(10))];
    const usages = usage([
      ['OpenAI.Standard.gpt-4o', 10, 10],
      ['OpenAI.Standard.gpt-4o-mini', 0, 5],
    ]);
    const r = reconcile(entries, [usages]);
    assert.deepEqual(r.order, ['acct/x', 'acct/y']);
    assert.equal(oracle(entries, usages, r.order!).over, undefined);
    assert.equal(oracle(entries, usages, ['acct/y', 'acct/x']).over, 'acct/y');
  });

  test('400 generated plans: every order given passes the oracle; every refusal is right (end state over, or no permutation fits)', () => {
    const next = random(32);
    const models = ['gpt-4o', 'gpt-4o-mini'];
    let ordered = 0;
    let refused = 0;
    let noOrder = 0;
    for (let n = 0; n < 400; n++) {
      const limits = [1 + Math.floor(next() * 12), 1 + Math.floor(next() * 12)];
      const count = 2 + Math.floor(next() * 4);
      const entries: ReconcileEntry[] = [];
      const usedNow = [0, 0];
      for (let i = 0; i < count; i++) {
        const desiredModel = Math.floor(next() * 2);
        const hasCurrent = next() < 0.6;
        const currentModel = Math.floor(next() * 2);
        const current = hasCurrent ? 1 + Math.floor(next() * 5) : 0;
        if (hasCurrent) usedNow[currentModel] += current;
        entries.push(
          entry(
            `d${i}`,
            spec(1 + Math.floor(next() * 6), models[desiredModel]),
            hasCurrent ? spec(current, models[currentModel]) : undefined,
          ),
        );
      }
      const usages = usage(
        models.map((m, i) => [`OpenAI.Standard.${m}`, usedNow[i], Math.max(limits[i], usedNow[i])] as [string, number, number]),
      );
      const r = reconcile(entries, [usages]);
      const changed = r.entries.filter((e) => e.action !== 'unchanged').map((e) => e.key);
      const end = oracle(entries, usages, changed);
      const endOver = [...end.end].some(
        ([q, u]) =>
          u > (end.limits.get(q) ?? Infinity) &&
          u > (usages.value.find((v) => String(v.name!.value).toLowerCase() === q)!.currentValue ?? 0),
      );
      if (r.order) {
        ordered++;
        assert.deepEqual([...r.order].sort(), [...changed].sort(), `plan ${n}: the order is every change once`);
        assert.equal(oracle(entries, usages, r.order).over, undefined, `plan ${n}: ${JSON.stringify({ entries, usages, order: r.order })}`);
      } else if (!r.fits) {
        refused++;
        assert.ok(endOver, `plan ${n}: refused, but the end state fits: ${JSON.stringify({ entries, usages, problems: r.problems })}`);
      } else {
        noOrder++;
        assert.ok(
          permutations(changed).every((p) => oracle(entries, usages, p).over !== undefined),
          `plan ${n}: "no order" but one fits: ${JSON.stringify({ entries, usages })}`,
        );
      }
    }
    assert.ok(ordered > 50 && refused > 20, `${ordered} ordered, ${refused} refused, ${noOrder} with no order`);
  });
});

describe('5: a plan of thousands of changes', () => {
  test('7,000 creates: ordered without "Maximum call stack size exceeded"', () => {
    const entries = Array.from({ length: 7000 }, (_, i) => entry(`d${i}`, spec(1)));
    const r = reconcile(entries, [usage([['OpenAI.Standard.gpt-4o', 0, 10_000]])]);
    assert.equal(r.order?.length, 7000);
  });
});

describe('6: impossible usage numbers are never believed', () => {
  test('1e308, -1e308, negative, Infinity or NaN: the entry is not read as a quota (listed as unmatched)', () => {
    for (const [used, limit] of [
      [0, 1e308],
      [-1e308, 100],
      [-1, 100],
      [0, Infinity],
      [Number.NaN, 10],
    ]) {
      const read = readUsages([{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: used, limit }]);
      assert.deepEqual(read.models, [], `${used} of ${limit}`);
      assert.match(read.unmatched[0], /impossible numbers/);
    }
    assert.equal(readUsages([{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 5, limit: 100 }]).models.length, 1);
  });

  test('the api layer says which number is impossible', () => {
    assert.match(impossibleUsageNumber({ currentValue: 0, limit: 1e308 }) ?? '', /limit \(1e\+308\)/);
    assert.match(impossibleUsageNumber({ currentValue: -1e308, limit: 1 }) ?? '', /currentValue/);
    assert.match(impossibleUsageNumber({ currentValue: 'NaN', limit: 1 }) ?? '', /currentValue \(NaN\)/);
    assert.equal(impossibleUsageNumber({ currentValue: 3, limit: 30 }), undefined);
  });
});

describe('12: the plan reader (mutation survivors of plan.ts)', () => {
  const plan = (deployments: unknown[]) => readPlan(parseJson(JSON.stringify({ region: 'eastus', subscription: SUB, deployments })).root);
  const saved = (entries: Array<[string, number, number]>) => [
    {
      location: 'eastus',
      subscription: SUB,
      value: entries.map(([key, used, limit]) => ({ name: { value: key }, currentValue: used, limit })),
    },
  ];

  test('an entry without a model is passed over by the quota rule, not thrown on (plan.ts:166)', () => {
    const p = plan([
      { account: 'a', name: 'nomodel', sku: { name: 'Standard', capacity: 5 } },
      { account: 'a', name: 'd', model: 'gpt-4o', sku: { name: 'Standard', capacity: 5 } },
    ]);
    assert.deepEqual(quotaOverruns(p, saved([['OpenAI.Standard.gpt-4o', 0, 10]])), []);
  });

  test("models that differ beyond ASCII are two quotas: 'gpt-ß' and 'gpt-SS' are not summed (lower, not upper, casing)", () => {
    const p = plan([
      { account: 'a', name: 'one', model: 'gpt-ß', sku: { name: 'Standard', capacity: 6 } },
      { account: 'a', name: 'two', model: 'gpt-SS', sku: { name: 'Standard', capacity: 6 } },
    ]);
    assert.deepEqual(quotaOverruns(p, saved([['OpenAI.Standard.gpt-ß', 0, 10]])), []);
  });
});

describe('7: the token echoed in base64 or base64url is redacted', () => {
  const TOKEN = 'TOKEN-hostile-7f3a9c1e5b2d4806';
  for (const prefix of ['', 'x', 'xy', 'Authorization: ']) {
    test(`'${prefix}Bearer <token>' encoded (alignment ${prefix.length % 3})`, () => {
      for (const encoded of [
        Buffer.from(`${prefix}Bearer ${TOKEN}`).toString('base64'),
        Buffer.from(`${prefix}Bearer ${TOKEN}!`).toString('base64url'),
      ]) {
        const shown = redact(`the service echoed ${encoded} back`, [TOKEN]);
        assert.match(shown, /\[redacted\]/);
        // No run of the token's bytes long enough to be of use is left: what remains decodes to no 4 characters of it.
        const rest = shown
          .replace(/^the service echoed /, '')
          .replace(/ back$/, '')
          .split('[redacted]');
        for (const part of rest) assert.ok(!Buffer.from(part, 'base64').toString('latin1').includes(TOKEN.slice(2, 6)), part);
      }
    });
  }
});

describe('4: a PUT answered 2xx whose resource says it failed', () => {
  test('provisioningState Failed or Canceled: a ProvisioningFailedError, read as refused (not applied), never success', () => {
    for (const state of ['Failed', 'failed', 'Canceled']) {
      assert.throws(
        () => checkWriteOutcome({ properties: { provisioningState: state } }, 200, 'PUT /x', 'req-1'),
        (error: unknown) => {
          assert.ok(error instanceof ProvisioningFailedError);
          assert.match((error as Error).message, new RegExp(`provisioningState is '${state}'`));
          assert.equal(putOutcome(error), 'refused');
          return true;
        },
      );
    }
    for (const state of ['Succeeded', 'Accepted', 'Creating', undefined])
      checkWriteOutcome({ properties: { provisioningState: state } }, 201, 'PUT /x', undefined);
  });
});

describe('11: the web worker keeps what the rules need, and an update costs what the changed file costs', () => {
  test('thousands of files: no text kept but split parts and the config; a one-file update does no workspace-wide work', async () => {
    const { ClientFiles } = await import('#server/lsp/browser/clientFiles');
    const { DefinitionCatalog } = await import('#service');
    const definition = (name: string, description = '') =>
      JSON.stringify({
        id: `/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policyDefinitions/${name}`,
        name,
        properties: {
          displayName: name,
          description,
          policyRule: { if: {}, then: { effect: 'audit' } },
          parameters: { p: { type: 'String' } },
        },
      });
    const files = new ClientFiles(() => undefined);
    const sent = Array.from({ length: 3000 }, (_, i) => ({ uri: `memfs:/defs/d${i}.json`, text: definition(`d${i}`) }));
    sent.push(
      { uri: 'memfs:/sets/s.definitions.json', text: '{"policyDefinitions": []}' },
      { uri: 'memfs:/.policysetrc.json', text: '{}' },
    );
    assert.equal(files.receive({ complete: true, files: sent }), true);
    assert.equal(files.catalog.size, 3000);
    assert.equal(files.keptTexts(), 2, 'only the split part and the config keep their text');
    assert.equal(files.text('memfs:/defs/d1.json'), undefined);
    assert.equal(files.text('memfs:/sets/s.definitions.json'), '{"policyDefinitions": []}');

    // Count the catalogue's additions: an update that changes nothing the catalogue holds adds none, and
    // one that does changes the definition.
    let added = 0;
    const add = DefinitionCatalog.prototype.add;
    DefinitionCatalog.prototype.add = function (this: InstanceType<typeof DefinitionCatalog>, ...args: Parameters<typeof add>) {
      added++;
      return add.apply(this, args);
    };
    try {
      for (let i = 0; i < 50; i++)
        assert.equal(
          files.receive({ complete: false, files: [{ uri: 'memfs:/defs/d7.json', text: definition('d7') + ' '.repeat(i) }] }),
          false,
        );
      assert.equal(added, 0, 'an update that changes no definition rebuilds nothing');
    } finally {
      DefinitionCatalog.prototype.add = add;
    }
    assert.equal(files.receive({ complete: false, files: [{ uri: 'memfs:/defs/d7.json', text: definition('d7-renamed') }] }), true);
    assert.equal(files.catalog.lookupName('d7-renamed').length, 1);
    assert.equal(files.catalog.lookupName('d7').length, 0);
  });
});

describe('12: keys fold to lower case, and upper case is not the same beyond ASCII (ß: SS)', () => {
  const plan = (deployments: unknown[], extra: Record<string, unknown> = {}) =>
    readPlan(parseJson(JSON.stringify({ subscription: SUB, resourceGroup: 'rg', region: 'eastus', ...extra, deployments })).root);
  const gpt = { model: 'gpt-4o', sku: { name: 'Standard', capacity: 1 } };

  test("apply targets: deployments 'straße' and 'STRASSE' are two, not the same one named twice (apply.ts:33)", async () => {
    const { applyTargets } = await import('#service');
    assert.deepEqual(
      applyTargets(
        plan([
          { account: 'a', name: 'straße', ...gpt },
          { account: 'a', name: 'STRASSE', ...gpt },
        ]),
      ).problems,
      [],
    );
  });

  test("apply targets: accounts 'aß' in eastus and 'ASS' in westus are two accounts (apply.ts:39)", async () => {
    const { applyTargets } = await import('#service');
    assert.deepEqual(
      applyTargets(
        plan([
          { account: 'aß', name: 'x', ...gpt },
          { account: 'ASS', name: 'y', region: 'westus', ...gpt },
        ]),
      ).problems,
      [],
    );
  });

  test("resources per region: accounts 'aß' and 'ASS' are two resources against a limit of one (plan.ts:206)", async () => {
    const { resourceOverruns } = await import('#service');
    const usages = [{ location: 'eastus', subscription: SUB, value: [{ name: { value: 'AccountCount' }, currentValue: 0, limit: 1 }] }];
    assert.equal(
      resourceOverruns(
        plan([
          { account: 'aß', name: 'x', ...gpt },
          { account: 'ASS', name: 'y', ...gpt },
        ]),
        usages,
      ).length,
      1,
    );
  });

  test("resources per region: regions 'eastß' and 'EASTSS' are two regions, one account each (plan.ts:203)", async () => {
    const { resourceOverruns } = await import('#service');
    const usages = ['eastß', 'EASTSS'].map((location) => ({
      location,
      subscription: SUB,
      value: [{ name: { value: 'AccountCount' }, currentValue: 0, limit: 1 }],
    }));
    assert.deepEqual(
      resourceOverruns(
        plan([
          { account: 'a', name: 'x', region: 'eastß', ...gpt },
          { account: 'b', name: 'y', region: 'EASTSS', ...gpt },
        ]),
        usages,
      ),
      [],
    );
  });

  test("reconcile: a plan's region 'eastß' does not read the usage of 'EASTSS' (reconcile.ts:109)", () => {
    const r = reconcile(
      [{ ...entry('d', spec(1)), region: 'eastß' }],
      [{ subscription: SUB, region: 'EASTSS', value: [{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 0, limit: 100 }] }],
    );
    assert.equal(r.fits, false);
  });
});
