// What the effect does once the `if` matched: append's and modify's patch, the related resources that
// auditIfNotExists and deployIfNotExists look for, manual's default state. Pure.
import { evaluateRule, type Decision } from './conditions';
import { deepValueIn, valueIn, type Scope } from './scope';
import { Unknown, getIgnoreCase, isObject, type Json, type Resource, type TraceEntry } from './types';

export const EFFECTS = ['deny', 'audit', 'append', 'modify', 'auditIfNotExists', 'deployIfNotExists', 'disabled', 'manual', 'denyAction'];
const BY_LOWER = new Map(EFFECTS.map((e) => [e.toLowerCase(), e]));

/** The effect's canonical spelling, or undefined for a value that is no effect. */
export function canonicalEffect(value: Json): string | undefined {
  return typeof value === 'string' ? BY_LOWER.get(value.toLowerCase()) : undefined;
}

export const isIfNotExists = (effect: string) => effect === 'auditIfNotExists' || effect === 'deployIfNotExists';

export interface PatchOperation {
  operation: string;
  field: string;
  value?: Json;
}

/** append: each detail `{ field, value }`; modify: the operations whose condition holds. */
export function patchOf(effect: string, details: Json | undefined, scope: Scope): PatchOperation[] {
  if (effect === 'append') {
    if (!Array.isArray(details)) throw new Unknown('append needs details: an array of { field, value }');
    return details.map((d) => {
      if (!isObject(d)) throw new Unknown('an append detail is not an object');
      return {
        operation: 'append',
        field: String(valueIn(scope, getIgnoreCase(d, 'field') ?? null)),
        value: deepValueIn(scope, getIgnoreCase(d, 'value') ?? null),
      };
    });
  }
  const operations = isObject(details) ? getIgnoreCase(details, 'operations') : undefined;
  if (!Array.isArray(operations)) throw new Unknown('modify needs details.operations');
  const out: PatchOperation[] = [];
  for (const op of operations) {
    if (!isObject(op)) throw new Unknown('a modify operation is not an object');
    const condition = getIgnoreCase(op, 'condition');
    if (condition !== undefined) {
      const holds = valueIn(scope, condition);
      if (typeof holds !== 'boolean') throw new Unknown("a modify operation's condition is not a boolean");
      if (!holds) continue;
    }
    const operation = String(getIgnoreCase(op, 'operation') ?? '');
    const value = getIgnoreCase(op, 'value');
    out.push({
      operation,
      field: String(valueIn(scope, getIgnoreCase(op, 'field') ?? null)),
      ...(value === undefined ? {} : { value: deepValueIn(scope, value) }),
    });
  }
  return out;
}

const lower = (v: Json | undefined) => (typeof v === 'string' ? v.toLowerCase() : undefined);

/** The resource group part of an ID ('/subscriptions/s/resourcegroups/g'), or the subscription part. */
function scopePart(id: string | undefined, level: 'resourcegroup' | 'subscription'): string | undefined {
  if (!id) return undefined;
  const match = /^\/subscriptions\/[^/]+(\/resourcegroups\/[^/]+)?/i.exec(id);
  if (!match) return undefined;
  return level === 'subscription' ? match[0].split('/').slice(0, 3).join('/').toLowerCase() : match[1] ? match[0].toLowerCase() : undefined;
}

/** Whether a related resource is where the effect looks: under the resource, or in its group or subscription. */
function inScope(related: Resource, primary: Resource, type: string, existenceScope: string): boolean {
  const rid = lower(related.id);
  const pid = lower(primary.id);
  if (!rid || !pid) return true; // without IDs only the type and name are compared (docs/evaluate.md)
  const primaryType = lower(primary.type) ?? '';
  // A child (Microsoft.Sql/servers/auditingSettings) or an extension (Microsoft.Insights/diagnosticSettings) of the resource.
  if (rid.startsWith(pid + '/')) return true;
  // A child type, or an extension of another resource (a second '/providers/'), is looked for under the resource only.
  if (type.toLowerCase().startsWith(primaryType + '/') || rid.split('/providers/').length > 2) return false;
  const level = existenceScope.toLowerCase() === 'subscription' ? 'subscription' : 'resourcegroup';
  const [a, b] = [scopePart(rid, level), scopePart(pid, level)];
  return a !== undefined && a === b;
}

export interface ExistenceResult {
  decision: Decision;
  /** The related resources of the type (and name) that were looked at. */
  candidates: number;
}

/**
 * auditIfNotExists/deployIfNotExists: compliant when one related resource of details.type (and details.name)
 * in scope satisfies details.existenceCondition. `field()` in the condition reads the related resource; the
 * `[field()]` function of an expression reads the resource being evaluated, as the service documents.
 */
export function existence(details: Json | undefined, scope: Scope, related: Resource[], trace: TraceEntry[]): ExistenceResult {
  if (!isObject(details)) throw new Unknown('the effect needs details');
  const type = valueIn(scope, getIgnoreCase(details, 'type') ?? null);
  if (typeof type !== 'string') throw new Unknown('details.type is not a string');
  const nameNode = getIgnoreCase(details, 'name');
  const name = nameNode === undefined ? undefined : valueIn(scope, nameNode);
  const existenceScope = String(valueIn(scope, getIgnoreCase(details, 'existenceScope') ?? 'resourceGroup'));
  const condition = getIgnoreCase(details, 'existenceCondition');
  const candidates = related.filter((r) => {
    if (r === scope.resource || lower(r.type) !== type.toLowerCase()) return false;
    if (name !== undefined) {
      const n = lower(r.name) ?? '';
      const wanted = String(name).toLowerCase();
      if (n !== wanted && n.split('/').pop() !== wanted) return false;
    }
    return inScope(r, scope.resource, type, existenceScope);
  });
  trace.push({
    path: `related ${type}${name !== undefined ? ` named '${String(name)}'` : ''}`,
    value: candidates.length,
    operator: 'exists',
    expected: true,
    result: candidates.length > 0,
    reason: `looked for among the ${related.length} resources given`,
  });
  if (!candidates.length) return { decision: { result: false }, candidates: 0 };
  if (condition === undefined) return { decision: { result: true }, candidates: candidates.length };
  let unknown: Decision | undefined;
  for (const candidate of candidates) {
    // Conditions read the related resource; field() inside expressions keeps reading the evaluated one.
    const relatedScope: Scope = { ...scope, resource: candidate, frames: [], fieldFunctionResource: scope.resource };
    const decision = evaluateRule(condition, relatedScope, trace);
    if (decision.result === true) return { decision, candidates: candidates.length };
    if (decision.result === 'unknown') unknown ??= decision;
  }
  return { decision: unknown ?? { result: false }, candidates: candidates.length };
}
