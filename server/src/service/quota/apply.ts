import {
  BUILT_IN_CAPACITY_TABLE,
  capacityClassOf,
  describeRequestWindow,
  rateLimits,
  TPM_PER_CAPACITY,
  type CapacityTable,
} from './capacity';
import { parseJson } from '../json';
import { readPlan, type DeploymentPlan } from './plan';
import {
  entryKey,
  reconcile,
  type DeploymentSpec,
  type OrderStep,
  type ReconcileAction,
  type ReconcileEntry,
  type Reconciliation,
  type RegionUsage,
} from './reconcile';

// What `policyset model apply` and the editor's Apply Deployment Plan share: the plan's entries as targets
// (each fully named), the deployment a GET answered read as a spec, and the rows and the JSON of the report.

/** A plan entry with everything a PUT needs. */
export type ApplyTarget = Omit<ReconcileEntry, 'current' | 'accountIsNew'>;

/** The plan's entries as targets; `problems` names each entry that lacks something, and each one named twice. */
export function applyTargets(plan: DeploymentPlan): { targets: ApplyTarget[]; problems: string[] } {
  const targets: ApplyTarget[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const regionOfAccount = new Map<string, string>();
  plan.deployments.forEach((d, i) => {
    const label = `entry ${i + 1}${d.account || d.name ? ` (${d.account ?? '?'}/${d.name ?? '?'})` : ''}`;
    const missing = [
      !d.subscription && 'a subscription',
      !d.region && 'a region',
      !d.resourceGroup && 'a resource group',
      !d.account && 'an account',
      !d.name && 'a name',
      !d.model && 'a model',
      d.capacity === undefined && 'a capacity (a positive whole number)',
    ].filter((m): m is string => !!m);
    if (missing.length) {
      problems.push(`${label} needs ${missing.join(', ')} (its own or the plan's)`);
      return;
    }
    const id = [d.subscription, d.resourceGroup, d.account, d.name].join('/').toLowerCase();
    if (seen.has(id)) {
      problems.push(`${label} names the same deployment as an earlier entry: a desired state has one entry per deployment`);
      return;
    }
    seen.add(id);
    const account = [d.subscription, d.resourceGroup, d.account].join('/').toLowerCase();
    const region = regionOfAccount.get(account);
    if (region !== undefined && region !== d.region!.toLowerCase()) {
      problems.push(
        `${label} puts account '${d.account}' in '${d.region}', an earlier entry in '${region}': an account's deployments are all in the account's region`,
      );
      return;
    }
    regionOfAccount.set(account, d.region!.toLowerCase());
    targets.push({
      subscription: d.subscription!,
      region: d.region!.toLowerCase(),
      resourceGroup: d.resourceGroup!,
      account: d.account!,
      name: d.name!,
      desired: {
        model: d.model!,
        sku: d.sku,
        capacity: d.capacity!,
        ...(d.version ? { version: d.version } : {}),
        ...(d.format ? { format: d.format } : {}),
      },
    });
  });
  return { targets, problems };
}

/** A deployment as the GET answered it, read as a spec; undefined when it lacks a model or a capacity. */
export function deployedSpec(body: unknown): DeploymentSpec | undefined {
  const o = (v: unknown): Record<string, unknown> | undefined =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const sku = o(o(body)?.sku);
  const model = o(o(o(body)?.properties)?.model);
  const capacity = sku?.capacity;
  if (typeof model?.name !== 'string' || typeof capacity !== 'number' || !Number.isFinite(capacity)) return undefined;
  return {
    model: model.name,
    sku: typeof sku?.name === 'string' ? sku.name : 'Standard',
    capacity,
    ...(typeof model.version === 'string' ? { version: model.version } : {}),
    ...(typeof model.format === 'string' ? { format: model.format } : {}),
  };
}

export interface ApplyRow {
  key: string;
  region: string;
  model: string;
  sku: string;
  action: ReconcileAction;
  changes: string[];
  from?: number;
  to: number;
  tpm: number;
  rpm?: number;
  window?: string;
  /** The deployed version and format, when the deployment is of the same model: a PUT keeps them unless the plan names others. */
  currentVersion?: string;
  currentFormat?: string;
}

export function applyRows(reconciliation: Reconciliation, table: CapacityTable = BUILT_IN_CAPACITY_TABLE): ApplyRow[] {
  return reconciliation.entries.map((c) => {
    const unit = capacityClassOf(c.entry.desired.model, table);
    const limits = unit ? rateLimits(c.entry.desired.capacity, unit) : undefined;
    return {
      key: c.key,
      region: c.entry.region,
      model: c.entry.desired.model,
      sku: c.entry.desired.sku,
      action: c.action,
      changes: c.changes,
      from: c.entry.current?.capacity,
      to: c.entry.desired.capacity,
      tpm: c.entry.desired.capacity * TPM_PER_CAPACITY,
      rpm: limits?.rpm,
      window: limits ? describeRequestWindow(limits) : undefined,
      ...(c.entry.current && c.entry.current.model.toLowerCase() === c.entry.desired.model.toLowerCase()
        ? { currentVersion: c.entry.current.version, currentFormat: c.entry.current.format }
        : {}),
    };
  });
}

/** The report's JSON (without the outcome of the PUTs): actions, quotas, order. */
export function applySummary(reconciliation: Reconciliation) {
  return {
    fits: reconciliation.fits,
    actions: reconciliation.entries.map((c) => ({
      account: c.entry.account,
      name: c.entry.name,
      region: c.entry.region,
      model: c.entry.desired.model,
      sku: c.entry.desired.sku,
      action: c.action,
      from: c.entry.current?.capacity ?? null,
      to: c.entry.desired.capacity,
      ...(c.changes.length ? { changes: c.changes } : {}),
    })),
    quotas: reconciliation.quotas.map((q) => ({
      subscription: q.subscription,
      region: q.region,
      sku: q.sku,
      model: q.model,
      limitTpm: q.limitTpm ?? null,
      usedTpm: q.usedTpm ?? null,
      afterTpm: q.afterTpm ?? null,
      fits: q.fits,
    })),
    resources: reconciliation.resources,
    order: reconciliation.order ?? [],
    ...(reconciliation.problems.length ? { problems: reconciliation.problems } : {}),
    ...(reconciliation.noOrder ? { noOrder: reconciliation.noOrder } : {}),
  };
}

/** The editor's Apply Deployment Plan asks the server this twice: first for the targets, then with what it read. */
export interface ApplyPlanParams {
  /** The plan's text. */
  text: string;
  /** The GET's answer per target, in the order of `targets` (absent: the first question). */
  deployments?: Array<{ body?: unknown; accountMissing?: boolean }>;
  /** E7 of every subscription and region of the targets. */
  usages?: RegionUsage[];
}

export interface ApplyPlanAnswer {
  targets: ApplyTarget[];
  problems: string[];
  /** With `deployments` and `usages`: the reconciliation, the rows of its table and the replay of its order. */
  result?: ReturnType<typeof applySummary> & { rows: ApplyRow[]; steps: OrderStep[] };
}

export function applyPlanAnswer(params: ApplyPlanParams, table: CapacityTable = BUILT_IN_CAPACITY_TABLE): ApplyPlanAnswer {
  const parsed = parseJson(typeof params.text === 'string' ? params.text : '');
  if (parsed.syntaxErrors.length || parsed.tooLarge || parsed.tooDeep)
    return { targets: [], problems: ['the plan could not be read as JSON: see its diagnostics'] };
  const plan = readPlan(parsed.root);
  if (!plan.deployments.length || plan.lone) return { targets: [], problems: ['this is not a deployment plan ({ "deployments": [...] })'] };
  const { targets, problems } = applyTargets(plan);
  if (problems.length || !params.deployments || !params.usages) return { targets, problems };
  if (params.deployments.length !== targets.length)
    return { targets, problems: [`${params.deployments.length} deployments read for ${targets.length} entries`] };
  const entries: ReconcileEntry[] = targets.map((t, i) => ({
    ...t,
    current: params.deployments![i].body === undefined ? undefined : deployedSpec(params.deployments![i].body),
    accountIsNew: params.deployments![i].accountMissing === true,
  }));
  const unreadable = entries.filter((e, i) => params.deployments![i].body !== undefined && !e.current).map(entryKey);
  if (unreadable.length)
    return {
      targets,
      problems: [`the service's answer for ${unreadable.join(', ')} has no model name or capacity: cannot tell what would change`],
    };
  const rec = reconcile(entries, params.usages);
  return { targets, problems, result: { ...applySummary(rec), rows: applyRows(rec, table), steps: rec.steps ?? [] } };
}
