import BUILT_IN_TABLE from './capacityUnits.json';

/** A model class's capacity unit: what one unit buys. */
export interface CapacityClass {
  name: string;
  rpm: number;
  tpm: number;
  description?: string;
}

/** Model classes and which models belong to them (see capacityUnits.json). */
export interface CapacityTable {
  classes: Record<string, { rpm: number; tpm: number; description?: string }>;
  models: Record<string, string>;
}

/** sku.capacity 1 is 1,000 TPM (spec D), and TPM changes in steps of 1,000 (spec Limits). */
export const TPM_PER_CAPACITY = 1000;
export const TPM_STEP = 1000;
/**
 * The largest capacity taken (units; 1,000,000,000 TPM): far above any quota, and well inside the numbers
 * JSON and the service carry exactly. Anything larger is a typo or a hostile file, never sent.
 */
export const MAX_CAPACITY = 1_000_000;
/** Deployment types (sku names) the real service takes for model deployments. */
export const DEPLOYMENT_TYPES: readonly string[] = [
  'Standard',
  'GlobalStandard',
  'DataZoneStandard',
  'ProvisionedManaged',
  'GlobalProvisionedManaged',
  'DataZoneProvisionedManaged',
  'GlobalBatch',
  'DataZoneBatch',
  'DeveloperTier',
];
/** The most model-service resources a subscription may have in one region (spec Limits). */
export const MAX_RESOURCES_PER_REGION = 30;

export const BUILT_IN_CAPACITY_TABLE: CapacityTable = BUILT_IN_TABLE;

/** A number as the quota figures are written everywhere (1,000 TPM; up to `digits` decimals). */
export const formatNumber = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/**
 * The built-in table with a user's file laid over it: its classes and models are added, and replace those of
 * the same name. Throws with a message that says what is wrong with the file's shape.
 */
export function mergeCapacityTable(base: CapacityTable, extra: unknown): CapacityTable {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(extra)) throw new Error('a capacity-unit file is a JSON object with "classes" and/or "models"');
  const classes = { ...base.classes };
  const models = { ...base.models };
  if (extra['classes'] !== undefined) {
    if (!isObject(extra['classes'])) throw new Error('"classes" must be an object of { "rpm": number, "tpm": number }');
    for (const [name, value] of Object.entries(extra['classes'])) {
      if (
        !isObject(value) ||
        !(typeof value['rpm'] === 'number' && value['rpm'] > 0) ||
        !(typeof value['tpm'] === 'number' && value['tpm'] > 0)
      ) {
        throw new Error(`class '${name}' needs a positive "rpm" and "tpm" (what one capacity unit buys)`);
      }
      classes[name] = {
        rpm: value['rpm'],
        tpm: value['tpm'],
        description: typeof value['description'] === 'string' ? value['description'] : undefined,
      };
    }
  }
  if (extra['models'] !== undefined) {
    if (!isObject(extra['models'])) throw new Error('"models" must be an object mapping a model name to a class name');
    for (const [model, value] of Object.entries(extra['models'])) {
      if (typeof value !== 'string') throw new Error(`model '${model}' must name a class`);
      models[model.toLowerCase()] = value;
    }
  }
  for (const [model, className] of Object.entries(models)) {
    if (!classes[className]) throw new Error(`model '${model}' names class '${className}', which is not defined`);
  }
  return { classes, models };
}

/** The capacity class of a model (by name, any casing), or undefined when the table does not know it. */
export function capacityClassOf(model: string, table: CapacityTable = BUILT_IN_CAPACITY_TABLE): CapacityClass | undefined {
  const name = table.models[model.toLowerCase()];
  const found = name === undefined ? undefined : table.classes[name];
  return found && { name, ...found };
}

/** What a deployment's capacity buys. */
export interface RateLimits {
  capacity: number;
  tpm: number;
  /** RPM follows TPM by the class's ratio; it may be fractional (o1 at 1 unit: 1,000 TPM is 1/6 RPM). */
  rpm: number;
  /** Requests allowed in one 1-second and one 10-second window: the RPM spread evenly, rounded down. */
  perSecond: number;
  perTenSeconds: number;
}

export function rateLimits(capacity: number, unit: CapacityClass): RateLimits {
  const tpm = capacity * TPM_PER_CAPACITY;
  const rpm = (tpm * unit.rpm) / unit.tpm;
  return { capacity, tpm, rpm, perSecond: Math.floor(rpm / 60 + 1e-9), perTenSeconds: Math.floor(rpm / 6 + 1e-9) };
}

/** A requested size, checked: a capacity (positive integer) or a TPM (a positive multiple of 1,000). */
export type SizeCheck = { ok: true; capacity: number } | { ok: false; message: string };

export function checkSize(size: { capacity?: number; tpm?: number }): SizeCheck {
  if (size.capacity !== undefined) {
    if (!Number.isInteger(size.capacity) || size.capacity < 1)
      return {
        ok: false,
        message: `capacity must be a positive whole number of units (1 unit = ${formatNumber(TPM_PER_CAPACITY)} TPM), not ${size.capacity}`,
      };
    if (size.capacity > MAX_CAPACITY)
      return {
        ok: false,
        message: `capacity must be at most ${formatNumber(MAX_CAPACITY)} units (${formatNumber(MAX_CAPACITY * TPM_PER_CAPACITY)} TPM), not ${size.capacity}`,
      };
    return { ok: true, capacity: size.capacity };
  }
  if (size.tpm !== undefined) {
    if (!Number.isFinite(size.tpm) || size.tpm <= 0)
      return { ok: false, message: `TPM must be a positive multiple of ${formatNumber(TPM_STEP)}, not ${size.tpm}` };
    if (size.tpm > MAX_CAPACITY * TPM_PER_CAPACITY)
      return { ok: false, message: `TPM must be at most ${formatNumber(MAX_CAPACITY * TPM_PER_CAPACITY)}, not ${size.tpm}` };
    if (size.tpm % TPM_STEP !== 0) {
      const lower = Math.floor(size.tpm / TPM_STEP) * TPM_STEP;
      const upper = lower + TPM_STEP;
      const nearest = [lower, upper].filter((v) => v > 0).map((v) => formatNumber(v));
      return {
        ok: false,
        message: `TPM changes in steps of ${formatNumber(TPM_STEP)}: ${formatNumber(size.tpm, 3)} is not one; the nearest valid values are ${nearest.join(' and ')}`,
      };
    }
    return { ok: true, capacity: size.tpm / TPM_PER_CAPACITY };
  }
  return { ok: false, message: 'give a capacity or a TPM' };
}

/**
 * The request window that applies, in words: the 1 s and 10 s allowances while at least one request fits in
 * 10 s; below that the spacing the RPM allows ("5 RPM: one request every 12 s"), never "0 per 1 s, 0 per 10 s".
 */
export function describeRequestWindow(limits: Pick<RateLimits, 'rpm' | 'perSecond' | 'perTenSeconds'>): string {
  if (limits.perTenSeconds >= 1) return `${formatNumber(limits.perSecond)} per 1 s window, ${formatNumber(limits.perTenSeconds)} per 10 s`;
  if (!(limits.rpm > 0)) return 'no requests';
  return `${formatNumber(limits.rpm, 2)} RPM: one request every ${formatNumber(60 / limits.rpm, 1)} s`;
}
