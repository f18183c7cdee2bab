/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use: most documents have no parameter schema */
import type Ajv2019 from 'ajv/dist/2019';
import type { ValidateFunction } from 'ajv';
import { boundedRegExp, PatternError } from '../patterns';

/**
 * Parameter `schema`s are user-written JSON Schema 2019-09. Their `pattern`s run on RE2 (linear time),
 * so a catastrophic regular expression cannot hang validation. Patterns that RE2 cannot run
 * (lookaround, backreferences) or that are too large to run in bounded time are recorded and not evaluated.
 */
export interface CompiledParameterSchema {
  validate?: ValidateFunction;
  /** Why the schema is not a valid JSON Schema 2019-09. */
  error?: string;
  /** Patterns that could not be evaluated safely (lookaround, backreferences). */
  uncheckedPatterns: string[];
  /** Patterns too large to run in bounded time (counted repetitions expand past the bound). */
  costlyPatterns?: string[];
}

interface RegExpLike {
  test(input: string): boolean;
  /** ajv caches compiled patterns by this string: it must be unique per pattern. */
  toString(): string;
}

let currentUnchecked: string[] = [];
let currentCostly: string[] = [];

function safeRegExp(pattern: string, flags: string): RegExpLike {
  // Throws for a pattern that is not an ECMA-262 regular expression: the schema is invalid then. Compiling
  // (not running) a JavaScript regular expression is linear in its length.
  new RegExp(pattern, flags);
  try {
    // The one bounded pattern engine: RE2, after a bound on the program's size (a counted repetition
    // repeated makes re2js compile for seconds).
    const re = boundedRegExp(pattern);
    // A value too long to test within the bound is not failed (a false error is as bad as a missed one).
    return { test: (input: string) => re.test(input) ?? true, toString: () => `/${pattern}/${flags}` };
  } catch (error) {
    (error instanceof PatternError ? currentCostly : currentUnchecked).push(pattern);
    return { test: () => true, toString: () => `unchecked:/${pattern}/${flags}` };
  }
}
safeRegExp.code = 'safeRegExp';

export const PARAMETER_SCHEMA_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;
export const META_SCHEMA_2019 = 'https://json-schema.org/draft/2019-09/schema';

let ajv: Ajv2019 | undefined;
const cache = new Map<string, CompiledParameterSchema>();
const CACHE_LIMIT = 500;

function engine(): Ajv2019 {
  // strict off: the service ignores unknown keywords in these schemas, and so do we.
  const Ajv2019Class = (require('ajv/dist/2019') as { default: typeof Ajv2019 }).default;
  // The meta-schema check is done before compiling (metaValid), with the validator generated at build time.
  ajv ??= new Ajv2019Class({ ...PARAMETER_SCHEMA_OPTIONS, validateSchema: false, code: { regExp: safeRegExp } });
  return ajv;
}

let draft07Added = false;

/** Schemas written for draft-07 declare it; the 2019-09 engine reads them too (its meta-schema is added on first need). */
function ensureMetaSchemaOf(instance: Ajv2019, schema: unknown) {
  const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (!draft07Added && typeof declared === 'string' && /draft-07/.test(declared)) {
    instance.addMetaSchema(require('ajv/dist/refs/json-schema-draft-07.json') as object);
    draft07Added = true;
  }
}

type MetaValidator = ((schema: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };
let generatedMeta: MetaValidator | null | undefined;

/** The 2019-09 meta-schema validator generated at build time (null when it is missing: ajv compiles one). */
function metaSchema2019(): MetaValidator | null {
  if (generatedMeta === undefined) {
    try {
      generatedMeta = (require('./metaSchema2019.generated.js') as { metaSchema2019: MetaValidator }).metaSchema2019;
    } catch {
      generatedMeta = null;
    }
  }
  return generatedMeta;
}

function metaValid(instance: Ajv2019, schema: unknown, result: CompiledParameterSchema): boolean {
  try {
    ensureMetaSchemaOf(instance, schema);
    const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
    const generated = declared === undefined || (typeof declared === 'string' && declared.includes('2019-09')) ? metaSchema2019() : null;
    if (generated) {
      if (generated(schema)) return true;
      const error = generated.errors?.[0];
      result.error = `schema${error?.instancePath ?? ''} ${error?.message ?? 'is not valid'}`;
      return false;
    }
    if (instance.validateSchema(schema as object)) return true;
    result.error = instance.errorsText(instance.errors, { dataVar: 'schema' });
  } catch (error) {
    // An unknown "$schema": the meta-schema cannot be found.
    result.error = `unsupported $schema (${(error as Error).message}); use JSON Schema 2019-09 or draft-07`;
  }
  return false;
}

/** Compiles once per distinct schema: `source` (the schema's text, when known) is the cache key. */
export function compileParameterSchema(schema: unknown, source?: string): CompiledParameterSchema {
  const key = source ?? JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const result: CompiledParameterSchema = { uncheckedPatterns: [], costlyPatterns: [] };
  const ajvInstance = engine();
  if (typeof schema !== 'object' && typeof schema !== 'boolean') {
    result.error = 'a schema must be an object or a boolean';
  } else if (!metaValid(ajvInstance, schema, result)) {
    // result.error says why
  } else {
    currentUnchecked = result.uncheckedPatterns;
    currentCostly = result.costlyPatterns!;
    // A fresh $id each time would leak into the instance: compile without registering ids.
    const copy = typeof schema === 'object' && schema !== null ? { ...(schema as object) } : schema;
    if (copy && typeof copy === 'object') delete (copy as Record<string, unknown>)['$id'];
    try {
      result.validate = ajvInstance.compile(copy as object);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.error = /can't resolve reference/i.test(message) ? `${message}: references to other documents cannot be resolved` : message;
    } finally {
      currentUnchecked = [];
      currentCostly = [];
      // ajv keeps every schema it compiled (or failed to) in a Map keyed by the schema object, for ever: our
      // bounded cache holds the validator, so ajv need not (an editor compiles a new copy at each edit of a schema).
      if (typeof copy === 'object' && copy !== null) ajvInstance.removeSchema(copy);
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, result);
  return result;
}

export function firstSchemaError(compiled: CompiledParameterSchema, value: unknown): string | undefined {
  if (!compiled.validate || compiled.validate(value)) return undefined;
  const error = compiled.validate.errors?.[0];
  if (!error) return 'does not match the schema';
  return `${error.instancePath || 'value'} ${error.message ?? 'does not match the schema'}`;
}

/** How many schemas the ajv instance holds (tests: it must not grow with every schema compiled). */
export function schemasHeldByEngine(): number {
  return (ajv as unknown as { _cache?: Map<unknown, unknown> } | undefined)?._cache?.size ?? 0;
}
