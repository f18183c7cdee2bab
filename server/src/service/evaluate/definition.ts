// One policy definition against one resource: parameters with their defaults, the mode, the effect (the
// assignment's override first), applicability, the `if`, and what the effect then does.
import { applicable, evaluateRule } from './conditions';
import { canonicalEffect, existence, isIfNotExists, patchOf, type PatchOperation } from './effects';
import { valueIn, type Scope } from './scope';
import {
  Unknown,
  getIgnoreCase,
  isObject,
  type EvaluationContext,
  type Json,
  type JsonObject,
  type Outcome,
  type Resource,
  type TraceEntry,
} from './types';

export interface MemberResult {
  referenceId?: string;
  definitionId: string;
  /** The effective effect (undefined when it could not be read). */
  effect?: string;
  outcome: Outcome;
  /** Why: for unknown always, for notApplicable, exempt and disabled too. */
  reason?: string;
  trace: TraceEntry[];
  /** append and modify: the changes the effect would make. */
  patch?: PatchOperation[];
  /** deployIfNotExists: the deployment would run (nonCompliant); auditIfNotExists/deployIfNotExists: related resources looked at. */
  relatedResourcesFound?: number;
  /** false when the assignment's enforcementMode is DoNotEnforce: deny, modify, append, deployIfNotExists do not act. */
  enforced?: boolean;
  note?: string;
  /**
   * manual with the default state Unknown: the rule was evaluated and the member applies; its outcome `unknown` is
   * the compliance state the service itself reports until an attestation, not something the evaluator could not decide.
   */
  awaitingAttestation?: true;
}

export interface DefinitionInput {
  /** The definition document (with `properties`, or the properties themselves). */
  definition: JsonObject;
  definitionId: string;
  referenceId?: string;
  /** Values given for the definition's parameters, by lowercased name (a set's reference, an assignment). */
  values: Map<string, Json>;
  /** The assignment's effect override for this member. */
  effectOverride?: string;
  policy: JsonObject;
  enforced: boolean;
}

export function propertiesOf(document: JsonObject): JsonObject {
  const properties = getIgnoreCase(document, 'properties');
  return isObject(properties) ? properties : document;
}

/** The parameter values a definition runs with: given, else the declared default; lowercased names. */
export function parameterValues(declared: Json | undefined, given: Map<string, Json>): Map<string, Json> {
  const values = new Map<string, Json>();
  if (isObject(declared)) {
    for (const [name, declaration] of Object.entries(declared)) {
      const value = given.get(name.toLowerCase()) ?? (isObject(declaration) ? getIgnoreCase(declaration, 'defaultValue') : undefined);
      if (value !== undefined) values.set(name.toLowerCase(), value);
    }
  }
  return values;
}

/**
 * Indexed mode evaluates only the types that support tags and location, never resource groups nor
 * subscriptions. Offline, without the types' list: a resource with a location or tags supports them; a
 * child or extension resource with neither (a subnet, a diagnostic setting) does not; a top-level type with
 * neither is evaluated as one that does, and the result says so.
 */
function indexedSkips(mode: string, resource: Resource): { skip?: string; note?: string } {
  if (mode === 'all') return {};
  if (mode !== 'indexed') throw new Unknown(`the mode '${mode}' is a resource provider mode, out of scope offline`);
  const type = typeof resource.type === 'string' ? resource.type.toLowerCase() : '';
  if (
    type === 'microsoft.resources/subscriptions' ||
    type === 'microsoft.resources/subscriptions/resourcegroups' ||
    type === 'microsoft.resources/resourcegroups'
  ) {
    return { skip: 'mode Indexed does not evaluate resource groups and subscriptions' };
  }
  if (getIgnoreCase(resource, 'location') !== undefined || getIgnoreCase(resource, 'tags') !== undefined) return {};
  const id = typeof resource.id === 'string' ? resource.id : '';
  // A child type, or an extension resource (its ID has a second '/providers/'), such as a diagnostic setting.
  if (type.split('/').length > 2 || id.split('/providers/').length > 2) {
    return { skip: 'mode Indexed evaluates only types that support tags and location, and this child or extension resource has neither' };
  }
  return { note: 'the resource has no location nor tags: evaluated as a type that supports them (mode Indexed)' };
}

export function evaluateDefinition(input: DefinitionInput, resource: Resource, context: EvaluationContext): MemberResult {
  const base = { referenceId: input.referenceId, definitionId: input.definitionId };
  const trace: TraceEntry[] = [];
  let effect: string | undefined;
  try {
    const properties = propertiesOf(input.definition);
    const rule = getIgnoreCase(properties, 'policyRule');
    if (!isObject(rule)) throw new Unknown('the definition has no policyRule');
    const scope: Scope = {
      resource,
      context,
      parameters: parameterValues(getIgnoreCase(properties, 'parameters'), input.values),
      policy: input.policy,
      frames: [],
    };
    const then = getIgnoreCase(rule, 'then');
    if (!isObject(then)) throw new Unknown('the policy rule has no then');
    const mode = String(getIgnoreCase(properties, 'mode') ?? 'Indexed').toLowerCase();
    const indexed = indexedSkips(mode, resource);
    const written = input.effectOverride ?? valueIn(scope, getIgnoreCase(then, 'effect') ?? null);
    effect = canonicalEffect(written);
    if (!effect) throw new Unknown(`'${String(written)}' is not an effect`);
    if (effect === 'disabled')
      return { ...base, effect, outcome: 'disabled', reason: 'the effect is disabled: the service does not evaluate it', trace };
    if (indexed.skip) return { ...base, effect, outcome: 'notApplicable', reason: indexed.skip, trace };
    if (indexed.note) Object.assign(base, { note: indexed.note });
    const condition = getIgnoreCase(rule, 'if') ?? null;
    const details = getIgnoreCase(then, 'details');
    const enforcement = input.enforced ? {} : { enforced: false };
    if (!isIfNotExists(effect)) {
      const applies = applicable(condition, scope);
      if (applies.result === false)
        return { ...base, effect, outcome: 'notApplicable', reason: 'the type, name and kind conditions do not match the resource', trace };
      if (applies.result === 'unknown') return { ...base, effect, outcome: 'unknown', reason: applies.reason, trace };
    }
    const decision = evaluateRule(condition, scope, trace);
    if (decision.result === 'unknown') return { ...base, effect, outcome: 'unknown', reason: decision.reason, trace };
    if (!decision.result)
      return {
        ...base,
        effect,
        outcome: isIfNotExists(effect) ? 'notApplicable' : 'compliant',
        ...(isIfNotExists(effect) ? { reason: 'the if condition is false' } : {}),
        trace,
      };
    if (isIfNotExists(effect)) {
      if (!context.relatedResources)
        return { ...base, effect, outcome: 'unknown', reason: `${effect} needs the related resources (none were given)`, trace };
      const found = existence(details, scope, context.relatedResources, trace);
      const related = { relatedResourcesFound: found.candidates };
      if (found.decision.result === 'unknown')
        return { ...base, effect, outcome: 'unknown', reason: found.decision.reason, trace, ...related };
      return {
        ...base,
        effect,
        outcome: found.decision.result ? 'compliant' : 'nonCompliant',
        trace,
        ...related,
        ...(effect === 'deployIfNotExists' ? enforcement : {}),
      };
    }
    if (effect === 'append' || effect === 'modify')
      return { ...base, effect, outcome: 'nonCompliant', trace, patch: patchOf(effect, details, scope), ...enforcement };
    if (effect === 'manual') {
      const state = String((isObject(details) ? getIgnoreCase(details, 'defaultState') : undefined) ?? 'Unknown').toLowerCase();
      if (state === 'compliant' || state === 'noncompliant')
        return {
          ...base,
          effect,
          outcome: state === 'compliant' ? 'compliant' : 'nonCompliant',
          trace,
          note: 'manual: the default state until an attestation says otherwise',
        };
      return {
        ...base,
        effect,
        outcome: 'unknown',
        reason: 'manual: compliance comes from attestations (default state Unknown)',
        awaitingAttestation: true,
        trace,
      };
    }
    if (effect === 'denyAction')
      return {
        ...base,
        effect,
        outcome: 'nonCompliant',
        trace,
        note: 'denyAction: the actions of details.actionNames (delete) on this resource are refused (the service shows it as protected)',
        ...enforcement,
      };
    return { ...base, effect, outcome: 'nonCompliant', trace, ...(effect === 'deny' ? enforcement : {}) };
  } catch (error) {
    if (!(error instanceof Unknown)) throw error;
    return { ...base, ...(effect ? { effect } : {}), outcome: 'unknown', reason: error.message, trace };
  }
}
