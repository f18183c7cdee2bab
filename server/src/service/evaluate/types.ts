// The shapes the offline evaluator reads and returns (docs/evaluate.md). Pure: no I/O.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Outcome = 'nonCompliant' | 'compliant' | 'notApplicable' | 'exempt' | 'disabled' | 'unknown';

/** One condition that was evaluated: what was read, how it was compared, and what came out. */
export interface TraceEntry {
  /** The field, the value expression, or `count(...)` as written. */
  path: string;
  /** The value read (undefined: it does not exist on the resource). */
  value?: Json;
  operator: string;
  expected?: Json;
  /** true, false, or 'unknown' when it could not be decided. */
  result: boolean | 'unknown';
  /** Why the result is unknown, or a note on how the value was read. */
  reason?: string;
  /** Under an odd number of `not`s: the rule's `if` holds through this condition when it is false. */
  negated?: true;
}

/** A related resource given for auditIfNotExists/deployIfNotExists, or the resource under evaluation. */
export type Resource = JsonObject;

/** What surrounds the evaluation: the values the service would know from the request and the scope. */
export interface EvaluationContext {
  /** ISO date-time that utcNow() returns; without it, utcNow() is unknown. */
  now?: string;
  subscription?: JsonObject;
  resourceGroup?: JsonObject;
  /** requestContext().apiVersion */
  apiVersion?: string;
  /** Resources that auditIfNotExists/deployIfNotExists look for; undefined: none given (unknown outcome). */
  relatedResources?: Resource[];
  /** The given alias catalogue (aliasCatalogue): alias name, or `<type>|<alias>` for one resource type (lowercased) -> the path it reads. */
  aliases?: Map<string, string>;
}

/** A reason the evaluator cannot decide: the whole member's outcome becomes `unknown` with it. */
export class Unknown extends Error {}

/** Thrown when the input itself is wrong (a definition with no policy rule): reported, never evaluated. */
export class InvalidInput extends Error {}

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key of an object read case-insensitively (the service's property names are). */
export function getIgnoreCase(object: JsonObject, key: string): Json | undefined {
  if (Object.prototype.hasOwnProperty.call(object, key)) return object[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(object)) if (k.toLowerCase() === lower) return object[k];
  return undefined;
}
