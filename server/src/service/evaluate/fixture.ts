// What a fixture of `policyset test` is (docs/evaluate.md), recognised by content: the CLI runs it, the editor
// checks it when it is open. The shapes of a fixture's results, as the runner gives them. Pure.
import { isObject, type Json, type JsonObject } from './types';

export type FixtureDocument = JsonObject & { target: string | JsonObject; cases: Json[] };

/** A fixture: an object with "target" (a path, or the document) and "cases" (an array). */
export function isFixture(value: unknown): value is FixtureDocument {
  return (
    isObject(value as Json) &&
    (typeof (value as JsonObject).target === 'string' || isObject((value as JsonObject).target)) &&
    Array.isArray((value as JsonObject).cases)
  );
}

/** One expectation of a case: a reference ID and the outcome expected of it, and what the evaluation gave. */
export interface FixtureExpectation {
  /** As the case's `expect` writes it. */
  referenceId: string;
  expected: string;
  /** The outcome found (undefined: no member has that reference ID). */
  actual?: string;
  /** The resource, when the case's resource file holds several. */
  resource?: string;
  reason?: string;
  /** The member's result in one sentence (explainResult), when there is such a member. */
  explanation?: string;
  passed: boolean;
}

/** A fixture's results, a case for each of its cases, in order; or why it could not run and where in it. */
export type FixtureRun =
  { cases: Array<{ name: string; passed: boolean; expectations: FixtureExpectation[] }> } | { error: string; at: Array<string | number> };
