// What the quota and model-deployment commands share: the capacity-unit table (built in, or laid over by
// --capacity-units <file>), number flags, and the client of E6/E7.
import { ModelDeploymentClient } from '#api';
import { BUILT_IN_CAPACITY_TABLE, mergeCapacityTable, type CapacityTable } from '../service/quota';
import { InputError, UsageError } from '../node/files';
import { readJsonFileSync } from '../node/definitions';
import type { ServiceContext } from './serviceOptions';

export const CAPACITY_UNITS_USAGE = `      --capacity-units <file>   A JSON file of capacity-unit classes and models that extends or overrides
                                the built-in table ({ "classes": {...}, "models": {...} }; docs/quota.md)`;

/** The built-in table, with the file laid over it when one is given. */
export function capacityTable(file: string | undefined): CapacityTable {
  if (!file) return BUILT_IN_CAPACITY_TABLE;
  return mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, readJsonFile(file, '--capacity-units'));
}

/** Reads a JSON (with comments) file; a missing or broken file is an InputError that names it. */
export function readJsonFile(file: string, what: string): unknown {
  try {
    return readJsonFileSync(file);
  } catch (error) {
    throw new InputError(`${what}: ${(error as Error).message}`);
  }
}

/** A flag that must be a number in a range; `integer` for counts. */
export function numberFlag(value: string | undefined, flag: string, options: { min: number; max?: number; integer?: boolean; required?: boolean }): number | undefined {
  if (value === undefined) {
    if (options.required) throw new UsageError(`${flag} is required`);
    return undefined;
  }
  const n = Number(value);
  const ok = value.trim() !== '' && Number.isFinite(n) && n >= options.min && (options.max === undefined || n <= options.max) && (!options.integer || Number.isInteger(n));
  if (!ok) {
    const kind = options.integer ? 'a whole number' : 'a number';
    const range = Number.isFinite(options.min) ? ` from ${options.min}${options.max !== undefined ? ` to ${options.max}` : ''}` : '';
    throw new UsageError(`${flag} takes ${kind}${range}, not '${value}'`);
  }
  return n;
}

export function modelDeploymentClient(context: ServiceContext): ModelDeploymentClient {
  return new ModelDeploymentClient(context.settings, { token: context.token, timeoutMs: context.timeoutMs, onRetry: context.onRetry });
}

export { formatNumber as fmt } from '../service/quota';
