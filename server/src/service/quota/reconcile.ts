import { formatNumber as fmt, MAX_RESOURCES_PER_REGION, TPM_PER_CAPACITY } from './capacity';
import { readUsages, usageOf, type Usage } from './usage';

// A deployment plan as desired state (spec D, Limits rules 1-2 and the 30 resources per region): each entry
// is a deployment as it should be. Reconciling compares it with the deployment as it is (the GET on its
// path), classifies it (create, resize, unchanged), checks the end state against every quota it touches,
// and orders the PUTs so that no single PUT is refused on the way there. Pure: the reads are the caller's.

/** What a deployment is: the fields E6 sends. */
export interface DeploymentSpec {
  model: string;
  /** Compared only when the plan names one: a plan without a version keeps whatever version is deployed. */
  version?: string;
  format?: string;
  /** The deployment type (sku name). */
  sku: string;
  capacity: number;
}

export interface ReconcileEntry {
  subscription: string;
  /** The account's region: every deployment of an account is in the account's region. */
  region: string;
  resourceGroup: string;
  account: string;
  name: string;
  desired: DeploymentSpec;
  /** The deployment as the service has it; undefined when the GET answered 404. */
  current?: DeploymentSpec;
  /** True when the account itself does not exist yet (the first PUT under it creates a resource in the region). */
  accountIsNew?: boolean;
}

/** One region's usage list (E7) of one subscription, as the service returned it. */
export interface RegionUsage {
  subscription: string;
  region: string;
  value: Usage[];
}

export type ReconcileAction = 'create' | 'resize' | 'unchanged';

export interface ClassifiedEntry {
  entry: ReconcileEntry;
  /** `<account>/<name>`, the entry's name in orders and reports. */
  key: string;
  action: ReconcileAction;
  /** What differs, for a resize: 'capacity', 'model', 'version', 'format', 'sku'. */
  changes: string[];
}

/** A quota (subscription, region, deployment type, model) and what the plan does to it. */
export interface QuotaOutcome {
  subscription: string;
  region: string;
  sku: string;
  model: string;
  /** False when the region's usage has no entry for the model and deployment type: the quota is not known. */
  found: boolean;
  limitTpm?: number;
  usedTpm?: number;
  afterTpm?: number;
  fits: boolean;
  /** afterTpm - limitTpm when it does not fit. */
  overTpm?: number;
  /** The entries that draw on it in the end state, or free TPM of it: `<account>/<name>`. */
  entries: string[];
}

/** Model-service resources (accounts) of a subscription in a region, before and after the plan. */
export interface ResourceOutcome {
  subscription: string;
  region: string;
  used: number;
  limit: number;
  newAccounts: string[];
  after: number;
  fits: boolean;
}

/** One PUT of an order, with the evidence that the service's check passes when it is sent. */
export interface OrderStep {
  key: string;
  /** The quota the PUT draws on, and its use just before and just after the PUT (TPM). */
  quota: string;
  beforeTpm: number;
  afterTpm: number;
  limitTpm: number;
  /** Other quotas the PUT frees TPM of (a deployment moved away from a model or deployment type). */
  frees: Array<{ quota: string; tpm: number }>;
}

export interface Reconciliation {
  entries: ClassifiedEntry[];
  quotas: QuotaOutcome[];
  resources: ResourceOutcome[];
  /** True when the end state fits every quota and resource limit. */
  fits: boolean;
  /** Why the end state does not fit: one sentence per quota or region crossed. */
  problems: string[];
  /** The order of the PUTs (keys), when the end state fits and an order exists in which every step fits. */
  order?: string[];
  /** The replay of `order`: each step's quota before and after. */
  steps?: OrderStep[];
  /** When the end state fits but no order does: why. */
  noOrder?: string;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
export const entryKey = (e: Pick<ReconcileEntry, 'account' | 'name'>): string => `${e.account}/${e.name}`;
const quotaId = (subscription: string, region: string, sku: string, model: string) =>
  [subscription, region, sku, model].map(lower).join('|');
const quotaLabel = (q: { model: string; sku: string; region: string }) => `'${q.model}' (${q.sku}) in '${q.region}'`;

/** create when there is no deployment; resize when capacity, model, the named version or format, or the deployment type differ. */
export function classify(desired: DeploymentSpec, current: DeploymentSpec | undefined): { action: ReconcileAction; changes: string[] } {
  if (!current) return { action: 'create', changes: [] };
  const changes: string[] = [];
  if (desired.capacity !== current.capacity) changes.push('capacity');
  if (lower(desired.model) !== lower(current.model)) changes.push('model');
  if (desired.version !== undefined && desired.version !== current.version) changes.push('version');
  if (desired.format !== undefined && current.format !== undefined && lower(desired.format) !== lower(current.format))
    changes.push('format');
  if (lower(desired.sku) !== lower(current.sku)) changes.push('sku');
  return { action: changes.length ? 'resize' : 'unchanged', changes };
}

interface Effect {
  key: string;
  /** Quota the PUT draws on, and by how much it changes it (desired minus what the deployment holds there now). */
  target: string;
  delta: number;
  /** Quotas the PUT frees (the deployment's current quota when it moves away from it). */
  frees: Array<{ quota: string; tpm: number }>;
}

/** What each changed entry's PUT does to the quotas. */
function effectOf(c: ClassifiedEntry): Effect {
  const e = c.entry;
  const target = quotaId(e.subscription, e.region, e.desired.sku, e.desired.model);
  const cur = e.current;
  const currentQuota = cur ? quotaId(e.subscription, e.region, cur.sku, cur.model) : undefined;
  const currentTpm = cur ? cur.capacity * TPM_PER_CAPACITY : 0;
  const desiredTpm = e.desired.capacity * TPM_PER_CAPACITY;
  if (currentQuota === target) return { key: c.key, target, delta: desiredTpm - currentTpm, frees: [] };
  return { key: c.key, target, delta: desiredTpm, frees: currentQuota && currentTpm ? [{ quota: currentQuota, tpm: currentTpm }] : [] };
}

/** Largest number of states the order search looks at before it gives up (a plan of a few dozen changes). */
export const ORDER_SEARCH_LIMIT = 200_000;
/** Plans up to this many changes remember the states that failed (a string of one character per change). */
const MEMO_LIMIT = 1000;

/**
 * Reconciles a plan with what the service has. `usages`: E7 of every subscription and region the plan
 * touches. The end state of a quota is what is used now, minus what the changed entries hold of it now,
 * plus what they will take; it must not pass the limit. Resources: the region's AccountCount plus the
 * accounts the plan creates, at most the limit (30).
 */
export function reconcile(entries: ReconcileEntry[], usages: RegionUsage[]): Reconciliation {
  const classified: ClassifiedEntry[] = entries.map((entry) => ({
    entry,
    key: entryKey(entry),
    ...classify(entry.desired, entry.current),
  }));
  const usageOfRegion = (subscription: string, region: string) =>
    usages.find((u) => lower(u.subscription) === lower(subscription) && lower(u.region) === lower(region));

  // Every quota an entry draws on now or will draw on.
  const quotas = new Map<string, QuotaOutcome>();
  const touch = (e: ReconcileEntry, spec: DeploymentSpec, key: string) => {
    const id = quotaId(e.subscription, e.region, spec.sku, spec.model);
    let q = quotas.get(id);
    if (!q) {
      const listed = usageOfRegion(e.subscription, e.region);
      const found = listed ? usageOf(readUsages(listed.value), spec.model, spec.sku) : undefined;
      q = {
        subscription: e.subscription,
        region: e.region,
        sku: spec.sku,
        model: spec.model,
        found: !!found,
        limitTpm: found?.limitTpm,
        usedTpm: found?.usedTpm,
        afterTpm: found?.usedTpm,
        fits: !!found,
        entries: [],
      };
      quotas.set(id, q);
    }
    if (!q.entries.includes(key)) q.entries.push(key);
    return q;
  };
  for (const c of classified) {
    touch(c.entry, c.entry.desired, c.key);
    if (c.entry.current && c.action !== 'unchanged') touch(c.entry, c.entry.current, c.key);
  }
  const changed = classified.filter((c) => c.action !== 'unchanged');
  const effects = changed.map(effectOf);
  for (const effect of effects) {
    const target = quotas.get(effect.target)!;
    if (target.afterTpm !== undefined) target.afterTpm += effect.delta;
    for (const f of effect.frees) {
      const q = quotas.get(f.quota)!;
      if (q.afterTpm !== undefined) q.afterTpm -= f.tpm;
    }
  }
  const problems: string[] = [];
  const describe = (key: string) => {
    const c = classified.find((x) => x.key === key)!;
    const from = c.entry.current ? `${c.entry.current.capacity}` : 'new';
    return `${key} (${c.action === 'unchanged' ? `unchanged, ${c.entry.desired.capacity}` : `${from} → ${c.entry.desired.capacity}`})`;
  };
  for (const q of quotas.values()) {
    if (!q.found) {
      // A quota that is only freed (the model a deployment moves away from) needs no entry.
      const drawn = classified.some(
        (c) =>
          quotaId(c.entry.subscription, c.entry.region, c.entry.desired.sku, c.entry.desired.model) ===
          quotaId(q.subscription, q.region, q.sku, q.model),
      );
      if (!drawn) {
        q.fits = true;
        continue;
      }
      const listed = usageOfRegion(q.subscription, q.region);
      problems.push(
        listed
          ? `${quotaLabel(q)}: the region's usage has no entry for this model and deployment type (it may not be offered there); drawn on by ${q.entries.map(describe).join(', ')}`
          : `${quotaLabel(q)}: no usage of subscription '${q.subscription}' in '${q.region}' was read; drawn on by ${q.entries.map(describe).join(', ')}`,
      );
      continue;
    }
    q.fits = q.afterTpm! <= q.limitTpm!;
    if (!q.fits) {
      q.overTpm = q.afterTpm! - q.limitTpm!;
      problems.push(
        `${quotaLabel(q)}: ${fmt(q.afterTpm!)} TPM after the plan, over the ${fmt(q.limitTpm!)} TPM quota by ${fmt(q.overTpm)} TPM (${fmt(q.usedTpm!)} TPM used now); drawn on by ${q.entries.map(describe).join(', ')}`,
      );
    }
  }

  const resources: ResourceOutcome[] = [];
  const regions = new Map<string, ReconcileEntry[]>();
  for (const e of entries) {
    const id = `${lower(e.subscription)}|${lower(e.region)}`;
    regions.set(id, [...(regions.get(id) ?? []), e]);
  }
  for (const list of regions.values()) {
    const head = list[0];
    const listed = usageOfRegion(head.subscription, head.region);
    const accounts = listed ? readUsages(listed.value).accounts : undefined;
    const newAccounts = [...new Set(list.filter((e) => e.accountIsNew).map((e) => `${e.resourceGroup}/${e.account}`))];
    const known = new Set(list.filter((e) => !e.accountIsNew).map((e) => lower(`${e.resourceGroup}/${e.account}`))).size;
    const used = accounts ? accounts.used : known;
    const limit = accounts?.limit || MAX_RESOURCES_PER_REGION;
    const outcome: ResourceOutcome = {
      subscription: head.subscription,
      region: head.region,
      used,
      limit,
      newAccounts,
      after: used + newAccounts.length,
      fits: used + newAccounts.length <= limit || !newAccounts.length,
    };
    resources.push(outcome);
    if (!outcome.fits)
      problems.push(
        `'${head.region}': ${outcome.after} model-service resources after the plan (${used} now and ${newAccounts.length} new: ${newAccounts.join(', ')}), over the limit of ${limit} per subscription and region`,
      );
  }

  const result: Reconciliation = { entries: classified, quotas: [...quotas.values()], resources, fits: problems.length === 0, problems };
  if (!result.fits) return result;
  const limits = new Map<string, number>();
  const start = new Map<string, number>();
  for (const [id, q] of quotas) {
    if (q.found) {
      limits.set(id, q.limitTpm!);
      start.set(id, q.usedTpm!);
    }
  }
  const found = findOrder(effects, start, limits);
  if (found.order) {
    result.order = found.order.map((i) => effects[i].key);
    result.steps = replay(
      found.order.map((i) => effects[i]),
      start,
      limits,
      quotas,
    );
  } else result.noOrder = found.why;
  return result;
}

/** Whether a PUT may be sent in this state: the quota it draws on stays within its limit, or does not grow. */
function admissible(effect: Effect, used: Map<string, number>, limits: Map<string, number>): boolean {
  if (effect.delta <= 0) return true;
  const limit = limits.get(effect.target);
  return limit === undefined || (used.get(effect.target) ?? 0) + effect.delta <= limit;
}

function apply(effect: Effect, used: Map<string, number>, sign = 1): void {
  if (used.has(effect.target)) used.set(effect.target, used.get(effect.target)! + sign * effect.delta);
  for (const f of effect.frees) if (used.has(f.quota)) used.set(f.quota, used.get(f.quota)! - sign * f.tpm);
}

/** A PUT that grows no quota (a shrink) can go first in any order that works: it only makes room. */
const growsNothing = (e: Effect) => e.delta <= 0;

/**
 * Searches an order in which every PUT passes the service's check. Shrinks go first (moving a shrink earlier
 * never makes a later PUT fail); then a depth-first search over what is left, moves away from a quota
 * before plain grows and creates, each set of applied PUTs tried once.
 */
function findOrder(effects: Effect[], start: Map<string, number>, limits: Map<string, number>): { order?: number[]; why?: string } {
  const used = new Map(start);
  const done = new Array<boolean>(effects.length).fill(false);
  const order: number[] = [];
  const failed = new Set<string>();
  let visited = 0;
  const candidates = effects
    .map((_, i) => i)
    .sort(
      (a, b) =>
        Number(growsNothing(effects[b])) - Number(growsNothing(effects[a])) || effects[b].frees.length - effects[a].frees.length || a - b,
    );

  // Depth-first, with an explicit stack: a plan of thousands of changes is thousands of levels deep, past
  // what the call stack holds. Each level's choices are taken one at a time (the state is the same whenever a
  // level resumes, so asking `admissible` then is asking it at the start); the memo of failed states is kept
  // for plans small enough to search widely (a larger one is bounded by ORDER_SEARCH_LIMIT).
  const memo = effects.length <= MEMO_LIMIT;
  interface Frame {
    state: string;
    /** A shrink, the only choice of its level; else -1, and `next` walks the candidates. */
    only: number;
    next: number;
    taken?: number;
  }
  const open = (): Frame | 'failed' | 'limit' => {
    const state = memo ? done.map((d) => (d ? '1' : '0')).join('') : '';
    if (memo && failed.has(state)) return 'failed';
    if (++visited > ORDER_SEARCH_LIMIT) return 'limit';
    // Shrinks first, without branching.
    const shrink = candidates.find((i) => !done[i] && growsNothing(effects[i]));
    return { state, only: shrink ?? -1, next: 0 };
  };
  const nextChoice = (frame: Frame): number | undefined => {
    if (frame.only >= 0) {
      if (frame.next > 0) return undefined;
      frame.next = 1;
      return frame.only;
    }
    while (frame.next < candidates.length) {
      const i = candidates[frame.next++];
      if (!done[i] && admissible(effects[i], used, limits)) return i;
    }
    return undefined;
  };
  const search = (): boolean | 'limit' => {
    if (order.length === effects.length) return true;
    const root = open();
    if (root === 'failed') return false;
    if (root === 'limit') return 'limit';
    const stack: Frame[] = [root];
    while (stack.length) {
      const frame = stack[stack.length - 1];
      if (frame.taken !== undefined) {
        // Back from a choice that led nowhere: undo it.
        apply(effects[frame.taken], used, -1);
        order.pop();
        done[frame.taken] = false;
        frame.taken = undefined;
      }
      const i = nextChoice(frame);
      if (i === undefined) {
        if (memo) failed.add(frame.state);
        stack.pop();
        continue;
      }
      done[i] = true;
      order.push(i);
      apply(effects[i], used);
      frame.taken = i;
      if (order.length === effects.length) return true;
      const child = open();
      if (child === 'limit') return 'limit';
      if (child !== 'failed') stack.push(child);
    }
    return false;
  };
  const found = search();
  if (found === true) return { order };
  if (found === 'limit')
    return { why: `no order was found within ${fmt(ORDER_SEARCH_LIMIT)} steps of search; split the plan into smaller ones` };
  return {
    why: 'the end state fits, but every order passes a quota on the way (each change needs room that another change frees only after it); apply part of the plan first, or lower a deployment by hand',
  };
}

/** Replays an order and records, for each PUT, the quota it draws on before and after it. */
function replay(
  effects: Effect[],
  start: Map<string, number>,
  limits: Map<string, number>,
  quotas: Map<string, QuotaOutcome>,
): OrderStep[] {
  const used = new Map(start);
  return effects.map((effect) => {
    const before = used.get(effect.target) ?? 0;
    apply(effect, used);
    return {
      key: effect.key,
      quota: quotaLabel(quotas.get(effect.target)!),
      beforeTpm: before,
      afterTpm: used.get(effect.target) ?? 0,
      limitTpm: limits.get(effect.target) ?? 0,
      frees: effect.frees.map((f) => ({ quota: quotaLabel(quotas.get(f.quota)!), tpm: f.tpm })),
    };
  });
}

/**
 * Checks an order step by step against the quotas (for tests, and before anything is sent): the first PUT
 * that would take a quota past its limit, or undefined when every step fits.
 */
export function firstStepOver(
  reconciliation: Reconciliation,
  order: string[],
): { key: string; quota: string; afterTpm: number; limitTpm: number } | undefined {
  const byKey = new Map(reconciliation.entries.filter((c) => c.action !== 'unchanged').map((c) => [c.key, effectOf(c)]));
  const used = new Map<string, number>();
  const limits = new Map<string, number>();
  for (const q of reconciliation.quotas) {
    if (!q.found) continue;
    const id = quotaId(q.subscription, q.region, q.sku, q.model);
    used.set(id, q.usedTpm!);
    limits.set(id, q.limitTpm!);
  }
  for (const key of order) {
    const effect = byKey.get(key);
    if (!effect) continue;
    const ok = admissible(effect, used, limits);
    apply(effect, used);
    if (!ok) {
      const q = reconciliation.quotas.find((x) => quotaId(x.subscription, x.region, x.sku, x.model) === effect.target)!;
      return { key, quota: quotaLabel(q), afterTpm: used.get(effect.target)!, limitTpm: limits.get(effect.target)! };
    }
  }
  return undefined;
}
