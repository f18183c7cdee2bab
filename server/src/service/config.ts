// The shared configuration file, `.policysetrc.json`: what it may hold, checked key by key. Pure: the
// file is found and read by server/src/node/config.ts (CLI) and the language server. Its JSON Schema
// (schemas/policysetrc.schema.json) describes the same keys for the editor; a test keeps the two equal.
import { RULES } from './rules';
import { isSeveritySetting, type SeverityName, type SeveritySetting } from './diagnostics';
import { closestMatch } from './text';

export const CONFIG_FILE_NAME = '.policysetrc.json';

export const CLOUDS = ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'] as const;

/** The file's settings, checked; paths as written (relative to the file's folder). */
export interface PolicySetConfig {
  /** Severity per rule, keyed by the rule's code or name as written in the file (canonical casing). */
  rules?: Record<string, SeveritySetting>;
  definitions?: string[];
  cloud?: string;
  ignore?: string[];
  strict?: boolean;
  minSeverity?: SeverityName;
  maxWarnings?: number;
  errorOnUnmatchedPattern?: boolean;
  docsBaseUrl?: string;
  capacityUnits?: string;
  usage?: string[];
  /** What a reference added, or removed, asks of a set's version (docs/versions.md). */
  versions?: { referenceAdded?: 'minor' | 'major'; referenceRemoved?: 'minor' | 'major' };
}

/** Each key, with what it takes (for messages) and its check. */
const KEYS: Record<string, { takes: string; check: (value: unknown) => boolean }> = {
  $schema: { takes: 'a string', check: (v) => typeof v === 'string' },
  rules: { takes: 'an object of rule code or name -> "error", "warning", "info", "hint" or "off"', check: (v) => isObject(v) },
  definitions: { takes: 'an array of paths', check: isPathArray },
  cloud: { takes: CLOUDS.join(', '), check: (v) => typeof v === 'string' && (CLOUDS as readonly string[]).includes(v) },
  ignore: { takes: 'an array of glob patterns', check: isPathArray },
  strict: { takes: 'true or false', check: (v) => typeof v === 'boolean' },
  minSeverity: { takes: '"error", "warning", "info" or "hint"', check: (v) => isSeveritySetting(v) && v !== 'off' },
  maxWarnings: { takes: 'a whole number from 0', check: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 },
  errorOnUnmatchedPattern: { takes: 'true or false', check: (v) => typeof v === 'boolean' },
  docsBaseUrl: { takes: 'a URL', check: (v) => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v) },
  capacityUnits: { takes: 'a path', check: (v) => typeof v === 'string' && v.length > 0 },
  usage: { takes: 'an array of paths', check: isPathArray },
  versions: {
    takes: '{ "referenceAdded": "minor" or "major", "referenceRemoved": "minor" or "major" }',
    check: (v) =>
      isObject(v) &&
      Object.keys(v).every((k) => k === 'referenceAdded' || k === 'referenceRemoved') &&
      [v.referenceAdded, v.referenceRemoved].every((b) => b === undefined || b === 'minor' || b === 'major'),
  },
};

export const CONFIG_KEYS = Object.keys(KEYS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPathArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((p) => typeof p === 'string' && p.length > 0);
}

/** A problem with a key, said as "key: what is wrong" (the caller names the file). */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

const near = (value: string, candidates: Iterable<string>) => {
  const match = closestMatch(value, candidates);
  return match ? `; did you mean '${match}'?` : '';
};

/**
 * The code of a rule given by code (any casing) or name, or undefined. Both `--rule` and the file key
 * their severities by code, so that a flag naming a rule by name overrides the file naming it by code.
 */
export function canonicalRuleKey(given: string): string | undefined {
  return RULES.find((r) => r.meta.code.toLowerCase() === given.toLowerCase() || r.meta.name === given)?.meta.code;
}

/** The nearest rule code or name, for "did you mean". */
export function nearestRule(given: string): string | undefined {
  return closestMatch(
    given,
    RULES.flatMap((r) => [r.meta.name, r.meta.code]),
  );
}

/** Checks a parsed file; throws a ConfigError on the first unknown key or bad value. */
export function checkConfig(value: unknown): PolicySetConfig {
  if (!isObject(value)) throw new ConfigError('', 'the file must hold one JSON object, like { "rules": { "PS7003": "off" } }');
  for (const [key, v] of Object.entries(value)) {
    const known = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    if (!known)
      throw new ConfigError(
        key,
        `unknown key '${key}'${near(key, CONFIG_KEYS)} (the keys: ${CONFIG_KEYS.filter((k) => k !== '$schema').join(', ')})`,
      );
    if (!known.check(v)) throw new ConfigError(key, `'${key}' takes ${known.takes}, not ${JSON.stringify(v)}`);
  }
  const config = { ...value } as PolicySetConfig & { $schema?: string };
  delete config.$schema;
  if (config.rules) {
    const rules: Record<string, SeveritySetting> = {};
    for (const [rule, level] of Object.entries(config.rules)) {
      const key = canonicalRuleKey(rule);
      if (!key) {
        const match = nearestRule(rule);
        throw new ConfigError(
          `rules.${rule}`,
          `'rules': no rule '${rule}'${match ? `; did you mean '${match}'?` : ''} (the rules: policyset rules)`,
        );
      }
      if (!isSeveritySetting(level)) {
        const levelNear = typeof level === 'string' ? near(level, ['error', 'warning', 'info', 'hint', 'off']) : '';
        throw new ConfigError(
          `rules.${rule}`,
          `'rules'.'${rule}' takes "error", "warning", "info", "hint" or "off", not ${JSON.stringify(level)}${levelNear}`,
        );
      }
      rules[key] = level;
    }
    config.rules = rules;
  }
  return config;
}
