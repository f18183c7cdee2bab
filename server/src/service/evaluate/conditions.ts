// The `if` of a policy rule: allOf/anyOf/not over field, value and count conditions, in three values (true,
// false, unknown with its reason: an unknown that cannot change the result does not decide it), with a trace.
import { applyOperator, OPERATORS } from './compare';
import { resolveField } from './aliases';
import { readFieldIn, valueIn, type CountFrame, type Scope } from './scope';
import { Unknown, getIgnoreCase, isObject, type Json, type JsonObject, type TraceEntry } from './types';

export type Tri = true | false | 'unknown';

export interface Decision {
  result: Tri;
  /** The first reason an unknown part gave. */
  reason?: string;
}

/** Evaluating only the type, name and kind conditions (the service's applicability), the others held true. */
export interface ApplicabilityMode {
  considered: Set<string>;
}

interface Walk {
  scope: Scope;
  trace: TraceEntry[] | undefined;
  applicability?: ApplicabilityMode;
  negated: boolean;
}

const OPERATOR_BY_LOWER = new Map(OPERATORS.map((o) => [o.toLowerCase(), o]));

function operatorOf(condition: JsonObject): { operator: string; expected: Json } | undefined {
  for (const [key, expected] of Object.entries(condition)) {
    const lower = key.toLowerCase();
    if (OPERATOR_BY_LOWER.has(lower)) return { operator: lower, expected };
  }
  return undefined;
}

const and = (parts: Decision[]): Decision => {
  if (parts.some((p) => p.result === false)) return { result: false };
  const unknown = parts.find((p) => p.result === 'unknown');
  return unknown ? unknown : { result: true };
};
const or = (parts: Decision[]): Decision => {
  if (parts.some((p) => p.result === true)) return { result: true };
  const unknown = parts.find((p) => p.result === 'unknown');
  return unknown ? unknown : { result: false };
};

export function evaluateCondition(node: Json, walk: Walk): Decision {
  if (!isObject(node)) return { result: 'unknown', reason: 'a condition that is not an object' };
  const allOf = getIgnoreCase(node, 'allOf');
  if (allOf !== undefined)
    return Array.isArray(allOf)
      ? and(allOf.map((c) => evaluateCondition(c, walk)))
      : { result: 'unknown', reason: 'allOf is not an array' };
  const anyOf = getIgnoreCase(node, 'anyOf');
  if (anyOf !== undefined)
    return Array.isArray(anyOf) ? or(anyOf.map((c) => evaluateCondition(c, walk))) : { result: 'unknown', reason: 'anyOf is not an array' };
  const not = getIgnoreCase(node, 'not');
  if (not !== undefined) {
    const inner = evaluateCondition(not, { ...walk, negated: !walk.negated });
    return inner.result === 'unknown' ? inner : { result: !inner.result };
  }
  try {
    return { result: leaf(node, walk) };
  } catch (error) {
    if (!(error instanceof Unknown)) throw error;
    walk.trace?.push({
      path: describeLeaf(node),
      operator: operatorOf(node)?.operator ?? '?',
      result: 'unknown',
      reason: error.message,
      ...negation(walk),
    });
    return { result: 'unknown', reason: error.message };
  }
}

/** A condition under an odd number of `not`s: its trace entry says so (the rule matches when it is false). */
const negation = (walk: Walk): { negated?: true } => (walk.negated ? { negated: true } : {});

function describeLeaf(node: JsonObject): string {
  const field = getIgnoreCase(node, 'field');
  if (field !== undefined) return String(field);
  const value = getIgnoreCase(node, 'value');
  if (value !== undefined) return `value ${JSON.stringify(value)}`;
  return 'count';
}

function leaf(node: JsonObject, walk: Walk): boolean {
  const op = operatorOf(node);
  if (!op) throw new Unknown(`a condition with no operator the service knows (${Object.keys(node).join(', ')})`);
  const { scope } = walk;
  const fieldText = getIgnoreCase(node, 'field');
  const countNode = getIgnoreCase(node, 'count');
  if (walk.applicability) {
    const field = fieldText !== undefined && countNode === undefined ? String(valueIn(scope, fieldText)).toLowerCase() : undefined;
    if (!field || !walk.applicability.considered.has(field)) return !walk.negated;
  }
  const expected = valueIn(scope, op.expected);
  if (countNode !== undefined) {
    const count = countOf(countNode, walk);
    const result = applyOperator(op.operator, count, expected);
    walk.trace?.push({
      path: `count(${describeCount(countNode)})`,
      value: count,
      operator: OPERATOR_BY_LOWER.get(op.operator) ?? op.operator,
      expected,
      result,
      ...negation(walk),
    });
    return result;
  }
  if (fieldText !== undefined) {
    const field = String(valueIn(scope, fieldText));
    const read = readFieldIn(scope, field);
    // An array alias ('[*]') outside a count: true only when every member satisfies the condition.
    const result = read.multi
      ? read.values.every((v) => applyOperator(op.operator, v, expected))
      : applyOperator(op.operator, read.values[0], expected);
    const value = read.multi ? read.values.map((v) => v ?? null) : read.values[0];
    walk.trace?.push({
      path: field,
      ...(value === undefined ? {} : { value }),
      operator: OPERATOR_BY_LOWER.get(op.operator) ?? op.operator,
      expected,
      result,
      ...(read.multi ? { reason: 'every member of the array' } : {}),
      ...negation(walk),
    });
    return result;
  }
  const valueText = getIgnoreCase(node, 'value');
  if (valueText !== undefined) {
    const value = valueIn(scope, valueText);
    const result = applyOperator(op.operator, value, expected);
    walk.trace?.push({
      path: typeof valueText === 'string' ? valueText : JSON.stringify(valueText),
      value,
      operator: OPERATOR_BY_LOWER.get(op.operator) ?? op.operator,
      expected,
      result,
      ...negation(walk),
    });
    return result;
  }
  throw new Unknown('a condition with neither field, value nor count');
}

function describeCount(count: Json): string {
  if (!isObject(count)) return '?';
  const field = getIgnoreCase(count, 'field');
  return field !== undefined ? String(field) : `value ${JSON.stringify(getIgnoreCase(count, 'value'))}`;
}

/** count: how many members (of a field's array or of a value's array) satisfy `where` (all, without it). */
function countOf(count: Json, walk: Walk): number {
  if (!isObject(count)) throw new Unknown('count is not an object');
  const { scope } = walk;
  const where = getIgnoreCase(count, 'where');
  const fieldText = getIgnoreCase(count, 'field');
  let members: Array<Json | undefined>;
  let frameOf: (value: Json | undefined) => CountFrame;
  if (fieldText !== undefined) {
    const field = String(valueIn(scope, fieldText));
    if (!field.endsWith('[*]')) throw new Unknown(`a field count needs an array alias ending in '[*]', got '${field}'`);
    const read = readFieldIn(scope, field);
    const resolved = resolveField(field, scope.resource, scope.context.aliases);
    members = read.values;
    // Under an enclosing count the path is relative to its member: keep the absolute one for nested fields.
    frameOf = (value) => ({ alias: field.toLowerCase(), path: resolved.path, value });
  } else {
    const valueNode = getIgnoreCase(count, 'value');
    if (valueNode === undefined) throw new Unknown('count needs a field or a value');
    const value = valueIn(scope, valueNode);
    if (!Array.isArray(value)) throw new Unknown('a value count needs an array');
    members = value;
    const name = getIgnoreCase(count, 'name');
    frameOf = (v) => ({ name: typeof name === 'string' ? name : undefined, value: v });
  }
  if (where === undefined) return members.length;
  let n = 0;
  for (const member of members) {
    scope.frames.push(frameOf(member));
    try {
      const decision = evaluateCondition(where, { ...walk, trace: undefined, negated: false });
      if (decision.result === 'unknown') throw new Unknown(decision.reason ?? 'a member of the count could not be decided');
      if (decision.result) n++;
    } finally {
      scope.frames.pop();
    }
  }
  return n;
}

/** The fields of the type, name and kind conditions in a rule, and whether it has any other condition. */
function applicabilityFields(node: Json, found: { fields: Set<string>; others: boolean }, scope: Scope): void {
  if (Array.isArray(node)) return node.forEach((n) => applicabilityFields(n, found, scope));
  if (!isObject(node)) return;
  for (const key of ['allOf', 'anyOf', 'not']) {
    const inner = getIgnoreCase(node, key);
    if (inner !== undefined) return applicabilityFields(inner, found, scope);
  }
  const fieldText = getIgnoreCase(node, 'field');
  let field: string | undefined;
  try {
    field =
      fieldText !== undefined && getIgnoreCase(node, 'count') === undefined ? String(valueIn(scope, fieldText)).toLowerCase() : undefined;
  } catch {
    field = undefined;
  }
  if (field === 'type' || field === 'name' || field === 'kind') found.fields.add(field);
  else found.others = true;
}

/**
 * Whether the resource is applicable to a rule whose effect is not an IfNotExists one: only the type, name
 * and kind conditions count, with the special cases of the service's applicability page.
 */
export function applicable(rule: Json, scope: Scope): Decision {
  const found = { fields: new Set<string>(), others: false };
  applicabilityFields(rule, found, scope);
  const considered = new Set(found.fields);
  if (!found.others) {
    if (considered.size === 1 && !considered.has('type')) considered.clear();
    if (considered.has('type')) {
      considered.delete('kind');
      considered.delete('name');
    }
  }
  return evaluateCondition(rule, { scope, trace: undefined, applicability: { considered }, negated: false });
}

/** The whole `if`, with its trace. */
export function evaluateRule(rule: Json, scope: Scope, trace: TraceEntry[]): Decision {
  return evaluateCondition(rule, { scope, trace, negated: false });
}
