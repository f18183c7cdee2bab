import { formatNumber as fmt, TPM_PER_CAPACITY } from './capacity';

/** One entry of a region's usages list (E7), as the real service returns it: counts in units of 1,000 TPM for models. */
export interface Usage {
  name?: { value?: string; localizedValue?: string };
  currentValue?: number;
  limit?: number;
  unit?: string;
}

export interface ModelUsage {
  /** `name.value` as the service wrote it. */
  key: string;
  provider: string;
  deploymentType: string;
  model: string;
  usedTpm: number;
  limitTpm: number;
  freeTpm: number;
  label?: string;
}

export interface ReadUsages {
  models: ModelUsage[];
  /** Model-service resources in the region (`AccountCount`), when the list has it. */
  accounts?: { used: number; limit: number };
  /** Entries whose name did not read as `<Provider>.<DeploymentType>.<model>`, or that lack numbers: said, not dropped silently. */
  unmatched: string[];
}

/** The largest usage count believed (units of 1,000 TPM, or resources): far above any real quota. */
const MAX_USAGE_COUNT = 1e9;
const possibleCount = (n: number) => Number.isFinite(n) && n >= 0 && n <= MAX_USAGE_COUNT;

const MODEL_USAGE = /^([A-Za-z0-9]+)\.([A-Za-z0-9-]+)\.(.+)$/;

/**
 * Reads a usages list leniently: `name.value` of the form `<Provider>.<DeploymentType>.<model>`
 * (`OpenAI.Standard.gpt-4o`), `currentValue` and `limit` in units of 1,000 TPM; `AccountCount` gives the
 * resources in the region. What does not match is listed in `unmatched`.
 */
export function readUsages(entries: Usage[]): ReadUsages {
  const result: ReadUsages = { models: [], unmatched: [] };
  for (const entry of entries) {
    // Saved files and plans are written by hand: anything may be in the list.
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      result.unmatched.push(JSON.stringify(entry ?? null).slice(0, 80));
      continue;
    }
    const name = typeof entry.name === 'object' && entry.name !== null ? entry.name : undefined;
    const key = typeof name?.value === 'string' ? name.value : '';
    const used = entry.currentValue;
    const limit = entry.limit;
    if (typeof used !== 'number' || typeof limit !== 'number') {
      result.unmatched.push(key || JSON.stringify(entry).slice(0, 80));
      continue;
    }
    // Impossible numbers (1e308, negative, not finite) are never believed: the entry is as good as absent,
    // so nothing "fits" on it and nothing is sent on it.
    if (!possibleCount(used) || !possibleCount(limit)) {
      result.unmatched.push(`${key || '(no name)'} (impossible numbers: ${used} used of ${limit})`);
      continue;
    }
    if (/^AccountCount$/i.test(key)) {
      result.accounts = { used, limit };
      continue;
    }
    const match = MODEL_USAGE.exec(key);
    if (!match) {
      result.unmatched.push(key);
      continue;
    }
    result.models.push({
      key,
      provider: match[1],
      deploymentType: match[2],
      model: match[3],
      usedTpm: used * TPM_PER_CAPACITY,
      limitTpm: limit * TPM_PER_CAPACITY,
      freeTpm: Math.max(0, limit - used) * TPM_PER_CAPACITY,
      label: typeof name?.localizedValue === 'string' ? name.localizedValue : undefined,
    });
  }
  return result;
}

/** The usage of a model for a deployment type (`Standard` when none is given), any casing. */
export function usageOf(usages: ReadUsages, model: string, deploymentType = 'Standard'): ModelUsage | undefined {
  const m = model.toLowerCase();
  const t = deploymentType.toLowerCase();
  return usages.models.find((u) => u.model.toLowerCase() === m && u.deploymentType.toLowerCase() === t);
}

export type QuotaCheck =
  { ok: true; freeTpm: number; afterTpm: number } | { ok: false; freeTpm: number; limitTpm: number; shortTpm: number; message: string };

/**
 * Whether a deployment of `requestedTpm` fits: the free TPM, plus the deployment's own current TPM when it is
 * a resize (that TPM is freed first), must cover it (spec Limits, rules 1 and 2).
 */
export function checkQuota(usage: Pick<ModelUsage, 'usedTpm' | 'limitTpm'>, requestedTpm: number, currentTpm = 0): QuotaCheck {
  const freeTpm = usage.limitTpm - usage.usedTpm + currentTpm;
  if (requestedTpm <= freeTpm) return { ok: true, freeTpm, afterTpm: freeTpm - requestedTpm };
  const short = requestedTpm - freeTpm;
  return {
    ok: false,
    freeTpm,
    limitTpm: usage.limitTpm,
    shortTpm: short,
    message:
      `${fmt(requestedTpm)} TPM asked, ${fmt(Math.max(0, freeTpm))} TPM free of the region's ${fmt(usage.limitTpm)} TPM quota for this model` +
      `${currentTpm ? ` (counting the ${fmt(currentTpm)} TPM this deployment holds now)` : ''}: ${fmt(short)} TPM short. ` +
      'Lower another deployment of this model in the region, or request a quota increase; quota of a resource deleted in the last 48 hours stays held until the resource is purged.',
  };
}

/** A text bar of `width` cells for used of limit (full cells for used, light ones for free). */
export function usageBar(used: number, limit: number, width = 20): string {
  const share = limit > 0 ? Math.min(1, Math.max(0, used / limit)) : used > 0 ? 1 : 0;
  const full = Math.round(share * width);
  return '█'.repeat(full) + '░'.repeat(width - full);
}
