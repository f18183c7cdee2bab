// What the quota and model-deployment commands share: the capacity-unit table (built in, or laid over by
// --capacity-units <file>), number flags, and the client of E6/E7.
import { ModelDeploymentClient } from '#api';
import { BUILT_IN_CAPACITY_TABLE, mergeCapacityTable, type CapacityTable } from '../../service/quota';
import { InputError, UsageError, type FileKind } from '../../node/files';
import { readJsonFileSync } from '../../node/definitions';
import { ConfigFileError, findConfigFile, loadConfigFile } from '../../node/config';
import type { ServiceContext } from './serviceOptions';

export const CAPACITY_UNITS_USAGE = `      --capacity-units <file>   A JSON file of capacity-unit classes and models that extends or overrides
                                the built-in table ({ "classes": {...}, "models": {...} }; docs/quota.md;
                                default: "capacityUnits" of .policysetrc.json)`;

/** .policysetrc.json from the current folder upward, for its quota files (capacityUnits, usage); a broken one is exit 2. */
export function quotaConfig(): { capacityUnits?: string; usage?: string[] } {
  try {
    const file = findConfigFile(process.cwd());
    return file ? loadConfigFile(file).config : {};
  } catch (error) {
    if (error instanceof ConfigFileError) throw new InputError(error.message);
    throw error;
  }
}

/** The built-in table, with the file laid over it: --capacity-units, else the config file's capacityUnits. */
export function capacityTable(given: string | undefined): CapacityTable {
  const file = given ?? quotaConfig().capacityUnits;
  if (!file) return BUILT_IN_CAPACITY_TABLE;
  const value = readJsonFile(file, '--capacity-units', 'capacityUnits');
  try {
    return mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, value);
  } catch (error) {
    // The file's shape is wrong (a model naming a class it does not define): the user's file, not a failure of ours.
    throw new InputError(`--capacity-units '${file}': ${(error as Error).message}`);
  }
}

/** Reads a JSON (with comments) file; a missing or broken file is an InputError that names it. */
export function readJsonFile(file: string, what: string, kind: FileKind): unknown {
  try {
    return readJsonFileSync(file, kind);
  } catch (error) {
    throw new InputError(`${what}: ${(error as Error).message}`);
  }
}

/** A flag that must be a number in a range; `integer` for counts. */
export function numberFlag(
  value: string | undefined,
  flag: string,
  options: { min: number; max?: number; integer?: boolean; required?: boolean },
): number | undefined {
  if (value === undefined) {
    if (options.required) throw new UsageError(`${flag} is required`);
    return undefined;
  }
  const n = Number(value);
  // What is sent must be what was typed: a whole number past 2^53 would be rounded (99999999999999999999 -> 1e20).
  if (/^\s*[+-]?\d+\s*$/.test(value) && !Number.isSafeInteger(n))
    throw new UsageError(`${flag} ${value.trim().slice(0, 40)}${value.trim().length > 40 ? '…' : ''} is too large to be taken exactly`);
  const ok =
    value.trim() !== '' &&
    Number.isFinite(n) &&
    n >= options.min &&
    (options.max === undefined || n <= options.max) &&
    (!options.integer || Number.isInteger(n));
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

export { formatNumber as fmt } from '../../service/quota';
