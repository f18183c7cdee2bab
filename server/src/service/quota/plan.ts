import { items, property, stringValue, valueOf, type Node } from '../json';
import { MAX_CAPACITY, MAX_RESOURCES_PER_REGION, TPM_PER_CAPACITY } from './capacity';
import { readUsages, usageOf, type Usage } from './usage';

/**
 * A deployment plan (spec D): deployments to make, each with subscription, region, resource group, account,
 * name, model and sku; `subscription` and `region` at the top apply to entries without their own. `usage`
 * names saved usage (the output of `policyset quota usage --format json`): a file path, the object itself,
 * or a list of those. A lone E6 request body ({ sku, properties: { model } }) is a plan of one deployment
 * with no region.
 */
export interface PlannedDeployment {
  node: Node;
  subscription?: string;
  region?: string;
  resourceGroup?: string;
  account?: string;
  /** The entry's own account value (not one inherited from the top). */
  accountNode?: Node;
  name?: string;
  model?: string;
  modelNode?: Node;
  /** The deployment type; Standard when the sku has no name. */
  sku: string;
  skuNameNode?: Node;
  capacityNode?: Node;
  /** sku.capacity when it is a positive integer up to MAX_CAPACITY. */
  capacity?: number;
  /** `properties.model.version` or the model object's version, when the plan names one. */
  version?: string;
  /** The model format, when the plan names one. */
  format?: string;
  /**
   * `"existing": <capacity>`: the deployment exists now with this capacity (of the same model and type), so
   * the saved usage counts it already; an offline check counts only the difference.
   */
  existing?: number;
  existingNode?: Node;
}

/** A region's usage as `quota usage --format json` saves it. */
export interface SavedUsage {
  subscription?: string;
  location: string;
  value: Usage[];
  /**
   * The deployments that exist in this subscription and region, of the plan `quota usage --plan` was given
   * (read from the service beside the usage): the usage counts them already, so an entry that restates one
   * draws only the difference, as `model apply` counts it. `existing` in an entry wins.
   */
  deployments?: SavedDeployment[];
}

/** A deployment as it exists, saved beside the usage that counts it. */
export interface SavedDeployment {
  resourceGroup?: string;
  account: string;
  name: string;
  model: string;
  sku: string;
  capacity: number;
}

const sameText = (a: string | undefined, b: string | undefined) =>
  a === undefined || b === undefined || a.toLowerCase() === b.toLowerCase();

/**
 * What the usage already counts of an entry: its `existing`, else the capacity of the saved deployment it
 * restates (same account and name, same model and deployment type: another model's or type's deployment
 * draws on another quota), else 0.
 */
export function existingCapacity(d: PlannedDeployment, saved: SavedUsage | undefined): { capacity: number; from?: 'entry' | 'usage' } {
  if (d.existing !== undefined) return { capacity: d.existing, from: 'entry' };
  if (!d.account || !d.name || !d.model) return { capacity: 0 };
  const found = saved?.deployments?.find(
    (s) =>
      s.account.toLowerCase() === d.account!.toLowerCase() &&
      s.name.toLowerCase() === d.name!.toLowerCase() &&
      sameText(s.resourceGroup, d.resourceGroup) &&
      s.model.toLowerCase() === d.model!.toLowerCase() &&
      s.sku.toLowerCase() === d.sku.toLowerCase(),
  );
  return found ? { capacity: found.capacity, from: 'usage' } : { capacity: 0 };
}

function asSavedDeployments(value: unknown): SavedDeployment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const found: SavedDeployment[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;
    const capacity = e.capacity;
    if (
      typeof e.account !== 'string' ||
      typeof e.name !== 'string' ||
      typeof e.model !== 'string' ||
      typeof capacity !== 'number' ||
      !Number.isInteger(capacity) ||
      capacity < 0 ||
      capacity > MAX_CAPACITY
    )
      continue;
    found.push({
      account: e.account,
      name: e.name,
      model: e.model,
      sku: typeof e.sku === 'string' ? e.sku : 'Standard',
      capacity,
      ...(typeof e.resourceGroup === 'string' ? { resourceGroup: e.resourceGroup } : {}),
    });
  }
  return found;
}

export interface DeploymentPlan {
  deployments: PlannedDeployment[];
  /** Usage written in the plan itself. */
  usages: SavedUsage[];
  /** Usage files the plan names (paths as written; the host reads them). */
  usageFiles: Array<{ path: string; node: Node }>;
  /** A lone E6 body rather than a plan. */
  lone: boolean;
}

const str = (node: Node | undefined): string | undefined => stringValue(node);
const first = (node: Node | undefined, ...keys: string[]): Node | undefined =>
  keys.map((k) => property(node, k)).find((n) => n !== undefined);

function readDeployment(
  node: Node,
  defaults: { subscription?: string; region?: string; resourceGroup?: string; account?: string },
): PlannedDeployment {
  const modelProperty = first(node, 'model') ?? property(property(node, 'properties'), 'model');
  const modelNode = modelProperty?.type === 'string' ? modelProperty : property(modelProperty, 'name');
  const sku = property(node, 'sku');
  const capacityNode = property(sku, 'capacity') ?? property(node, 'capacity');
  const capacityValue = capacityNode?.type === 'number' ? (capacityNode.value as number) : undefined;
  const skuNameNode = property(sku, 'name');
  const modelObject = modelProperty?.type === 'object' ? modelProperty : undefined;
  const existingNode = property(node, 'existing');
  const existing =
    existingNode?.type === 'number' && Number.isInteger(existingNode.value) && (existingNode.value as number) >= 0
      ? (existingNode.value as number)
      : undefined;
  return {
    node,
    subscription: str(first(node, 'subscription', 'subscriptionId')) ?? defaults.subscription,
    region: (str(first(node, 'region', 'location')) ?? defaults.region)?.toLowerCase(),
    resourceGroup: str(first(node, 'resourceGroup', 'resourceGroupName')) ?? defaults.resourceGroup,
    account: str(first(node, 'account', 'accountName')) ?? defaults.account,
    accountNode: first(node, 'account', 'accountName'),
    name: str(first(node, 'name', 'deploymentName')),
    model: str(modelNode),
    modelNode: modelNode?.type === 'string' ? modelNode : undefined,
    sku: str(skuNameNode) ?? 'Standard',
    skuNameNode: skuNameNode?.type === 'string' ? skuNameNode : undefined,
    capacityNode,
    capacity:
      capacityValue !== undefined && Number.isInteger(capacityValue) && capacityValue >= 1 && capacityValue <= MAX_CAPACITY
        ? capacityValue
        : undefined,
    version: str(property(modelObject, 'version')) ?? str(property(node, 'version')),
    format: str(property(modelObject, 'format')),
    existing,
    existingNode,
  };
}

/** A saved usage object, when the value is one ({ location, value: [...] }). */
export function asSavedUsage(value: unknown): SavedUsage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.location !== 'string' || !Array.isArray(v.value)) return undefined;
  const deployments = asSavedDeployments(v.deployments);
  return {
    subscription: typeof v.subscription === 'string' ? v.subscription : undefined,
    location: v.location.toLowerCase(),
    value: v.value as Usage[],
    ...(deployments ? { deployments } : {}),
  };
}

/** Plans read per tree: the plan rules, hover and the host's usage lookup all read the same document. */
const plans = new WeakMap<Node, DeploymentPlan>();

export function readPlan(root: Node | undefined): DeploymentPlan {
  if (!root) return readPlanOf(root);
  let plan = plans.get(root);
  if (!plan) plans.set(root, (plan = readPlanOf(root)));
  return plan;
}

function readPlanOf(root: Node | undefined): DeploymentPlan {
  const plan: DeploymentPlan = { deployments: [], usages: [], usageFiles: [], lone: false };
  if (root?.type !== 'object') return plan;
  const deployments = property(root, 'deployments');
  if (deployments?.type !== 'array') {
    if (property(root, 'sku')) {
      plan.lone = true;
      plan.deployments.push(readDeployment(root, {}));
    }
    return plan;
  }
  const defaults = {
    subscription: str(first(root, 'subscription', 'subscriptionId')),
    region: str(first(root, 'region', 'location')),
    resourceGroup: str(first(root, 'resourceGroup', 'resourceGroupName')),
    account: str(first(root, 'account', 'accountName')),
  };
  for (const item of items(deployments)) if (item.type === 'object') plan.deployments.push(readDeployment(item, defaults));
  const usage = property(root, 'usage');
  for (const entry of usage?.type === 'array' ? items(usage) : usage ? [usage] : []) {
    if (entry.type === 'string') plan.usageFiles.push({ path: entry.value as string, node: entry });
    else {
      const saved = asSavedUsage(valueOf(entry));
      if (saved) plan.usages.push(saved);
    }
  }
  return plan;
}

/** A model's TPM over its quota in a region: on the deployment whose TPM crosses it. */
export interface QuotaOverrun {
  deployment: PlannedDeployment;
  /** The plan's other deployments that draw on the same quota. */
  others: PlannedDeployment[];
  model: string;
  sku: string;
  region: string;
  /** The plan's TPM of this quota up to and including the crossing deployment. */
  plannedTpm: number;
  freeTpm: number;
  usedTpm: number;
  limitTpm: number;
}

export function usageFor(usages: SavedUsage[], d: PlannedDeployment): SavedUsage | undefined {
  return usages.find(
    (u) => u.location === d.region && (!u.subscription || !d.subscription || u.subscription.toLowerCase() === d.subscription.toLowerCase()),
  );
}

/**
 * Limits rule 1 over a plan: per subscription, region, deployment type and model, the plan's deployments
 * add to what the saved usage says is used; the first deployment that takes the sum past the limit is the
 * one reported. Without usage for a region, its quota is not known and nothing is said.
 */
export function quotaOverruns(plan: DeploymentPlan, usages: SavedUsage[]): QuotaOverrun[] {
  const groups = new Map<string, PlannedDeployment[]>();
  for (const d of plan.deployments) {
    if (!d.region || !d.model || d.capacity === undefined) continue;
    const key = [d.subscription ?? '', d.region, d.sku, d.model].join('|').toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const found: QuotaOverrun[] = [];
  for (const group of groups.values()) {
    const head = group[0];
    const saved = usageFor(usages, head);
    const usage = saved && usageOf(readUsages(saved.value), head.model!, head.sku);
    if (!usage) continue;
    const freeTpm = usage.limitTpm - usage.usedTpm;
    let planned = 0;
    for (const d of group) {
      // An entry that restates an existing deployment draws only the difference: the usage counts it already.
      planned += (d.capacity! - existingCapacity(d, saved).capacity) * TPM_PER_CAPACITY;
      if (planned > freeTpm) {
        found.push({
          deployment: d,
          others: group.filter((o) => o !== d),
          model: head.model!,
          sku: head.sku,
          region: head.region!,
          plannedTpm: planned,
          freeTpm,
          usedTpm: usage.usedTpm,
          limitTpm: usage.limitTpm,
        });
        break;
      }
    }
  }
  return found;
}

/** More model-service resources in a region than allowed (the 31st account of a subscription and region). */
export interface ResourceOverrun {
  deployment: PlannedDeployment;
  region: string;
  count: number;
  limit: number;
}

export function resourceOverruns(plan: DeploymentPlan, usages: SavedUsage[]): ResourceOverrun[] {
  const accounts = new Map<string, string[]>();
  const found: ResourceOverrun[] = [];
  for (const d of plan.deployments) {
    if (!d.region || !d.account) continue;
    const key = `${d.subscription ?? ''}|${d.region}`.toLowerCase();
    const list = accounts.get(key) ?? [];
    accounts.set(key, list);
    const account = `${d.resourceGroup ?? ''}/${d.account}`.toLowerCase();
    if (list.includes(account)) continue;
    list.push(account);
    const saved = usageFor(usages, d);
    const limit = (saved && readUsages(saved.value).accounts?.limit) || MAX_RESOURCES_PER_REGION;
    if (list.length === limit + 1) found.push({ deployment: d, region: d.region, count: list.length, limit });
  }
  return found;
}

/** A plan entry whose quota an offline check could not check, and why. */
export interface UncheckedDeployment {
  deployment: PlannedDeployment;
  reason: string;
}

/**
 * The entries whose quota the saved usage does not cover: no region, no usage of their subscription and
 * region, or a usage without an entry for their model and deployment type. Said, never passed over silently.
 * Entries without a model or a valid capacity are left to the rules that report those.
 */
export function uncheckedDeployments(plan: DeploymentPlan, usages: SavedUsage[]): UncheckedDeployment[] {
  const had = usages.length
    ? `the usage given is for ${[...new Set(usages.map((u) => `'${u.location}'${u.subscription ? ` (subscription ${u.subscription})` : ''}`))].join(', ')}`
    : 'no usage was given (the plan\'s "usage", --usage or the setting policySet.quota.usageFiles)';
  const found: UncheckedDeployment[] = [];
  for (const d of plan.deployments) {
    if (!d.model || d.capacity === undefined) continue;
    if (!d.region) {
      found.push({ deployment: d, reason: 'the entry names no region' });
      continue;
    }
    const saved = usageFor(usages, d);
    if (!saved) {
      found.push({
        deployment: d,
        reason: `no usage of ${d.subscription ? `subscription ${d.subscription} in ` : ''}'${d.region}': ${had}`,
      });
      continue;
    }
    if (!usageOf(readUsages(saved.value), d.model, d.sku))
      found.push({ deployment: d, reason: `the usage of '${d.region}' has no entry for '${d.model}' (${d.sku})` });
  }
  return found;
}
