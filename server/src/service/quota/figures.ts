import {
  BUILT_IN_CAPACITY_TABLE,
  capacityClassOf,
  DEPLOYMENT_TYPES,
  describeRequestWindow,
  rateLimits,
  TPM_PER_CAPACITY,
  type CapacityTable,
  type RateLimits,
} from './capacity';
import { checkQuota, readUsages, usageOf, type QuotaCheck, type Usage } from './usage';

/**
 * One answer for the extension's quota commands (custom request `policySet/quotaFigures`): the extension
 * holds no quota logic of its own, it asks the server, which holds the table and the rules.
 */
export interface QuotaFiguresParams {
  /** E7 entries as the service returned them. */
  usages?: unknown[];
  model?: string;
  /** Deployment type (default Standard). */
  sku?: string;
  capacity?: number;
  /** TPM the deployment holds now when it is a resize of the same model and type (freed first). */
  currentTpm?: number;
}

export interface QuotaFigures {
  rows: Array<{
    key: string;
    model: string;
    deploymentType: string;
    usedTpm: number;
    limitTpm: number;
    freeTpm: number;
    freeRpm?: number;
    label?: string;
  }>;
  accounts?: { used: number; limit: number };
  unmatched: string[];
  /** Models of the capacity-unit table, for pickers. */
  models: Array<{ name: string; className: string; rpm: number; tpm: number }>;
  /** Deployment types (sku names), for pickers. */
  deploymentTypes: readonly string[];
  /** What the capacity buys the model; undefined when the model's class is not known. */
  /** `window`: the request window that applies, in words (describeRequestWindow). */
  limits?: RateLimits & { className: string; window: string };
  /** The quota check, when usage for the model and type is given. */
  check?: QuotaCheck;
  /** Whether the usage had an entry for the model and type. */
  usageFound: boolean;
}

export function quotaFigures(params: QuotaFiguresParams, table: CapacityTable = BUILT_IN_CAPACITY_TABLE): QuotaFigures {
  const read = readUsages(Array.isArray(params.usages) ? (params.usages as Usage[]) : []);
  const rows = read.models.map((m) => {
    const unit = capacityClassOf(m.model, table);
    return {
      key: m.key,
      model: m.model,
      deploymentType: m.deploymentType,
      usedTpm: m.usedTpm,
      limitTpm: m.limitTpm,
      freeTpm: m.freeTpm,
      freeRpm: unit ? rateLimits(m.freeTpm / TPM_PER_CAPACITY, unit).rpm : undefined,
      label: m.label,
    };
  });
  const models = Object.keys(table.models)
    .sort()
    .map((name) => {
      const unit = capacityClassOf(name, table)!;
      return { name, className: unit.name, rpm: unit.rpm, tpm: unit.tpm };
    });
  const result: QuotaFigures = {
    rows,
    accounts: read.accounts,
    unmatched: read.unmatched,
    models,
    deploymentTypes: DEPLOYMENT_TYPES,
    usageFound: false,
  };
  if (params.model && typeof params.capacity === 'number' && Number.isInteger(params.capacity) && params.capacity >= 1) {
    const unit = capacityClassOf(params.model, table);
    if (unit) {
      const limits = rateLimits(params.capacity, unit);
      result.limits = { ...limits, className: unit.name, window: describeRequestWindow(limits) };
    }
    const usage = usageOf(read, params.model, params.sku ?? 'Standard');
    if (usage) {
      result.usageFound = true;
      result.check = checkQuota(usage, params.capacity * TPM_PER_CAPACITY, params.currentTpm ?? 0);
    }
  }
  return result;
}
