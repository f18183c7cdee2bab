// The offline evaluator (docs/evaluate.md): what a policy set or definition, under an assignment, would do
// to one resource. Pure: the caller reads files and passes documents in; it runs in the web worker too.
import { assignmentSkips, exemptionFor, expiresOnWithoutClock, overriddenEffect, readAssignment } from './assignment';
import { evaluateDefinition, parameterValues, propertiesOf, type MemberResult } from './definition';
import { valueIn, type Scope } from './scope';
import { Unknown, getIgnoreCase, isObject, type EvaluationContext, type Json, type JsonObject, type Resource } from './types';

export type { MemberResult } from './definition';
export type { PatchOperation } from './effects';
export type { EvaluationContext, Json, JsonObject, Outcome, Resource, TraceEntry } from './types';
export { aliasCatalogue } from './aliases';
export { resourcesOf, relatedIn } from './resources';
export { evaluationJson, type ResourceResults } from './report';
export { explainResult, describeCondition } from './explain';
export { isFixture, type FixtureDocument, type FixtureExpectation, type FixtureRun } from './fixture';

export interface EvaluateInput {
  /** A policy set or a policy definition document. */
  target: JsonObject;
  /** A set's member definitions by policyDefinitionId (any form: full ID or name). */
  findDefinition: (id: string) => JsonObject | undefined;
  assignment?: JsonObject;
  exemptions?: JsonObject[];
  context: EvaluationContext;
  /** Why findDefinition has no definition for an ID (default: not found). */
  missingReason?: (id: string) => string;
}

const lastSegment = (id: string) => id.replace(/\/+$/, '').split('/').pop() ?? id;

function idOf(document: JsonObject, fallback: string): string {
  return typeof document.id === 'string' ? document.id : typeof document.name === 'string' ? document.name : fallback;
}

export function isSet(document: JsonObject): boolean {
  return Array.isArray(getIgnoreCase(propertiesOf(document), 'policyDefinitions'));
}

/** Every member's result for one resource, in the set's order (one result for a definition). */
export function evaluate(input: EvaluateInput, resource: Resource): MemberResult[] {
  const view = readAssignment(input.assignment);
  const exemptions = input.exemptions ?? [];
  const skipped = assignmentSkips(view, resource);
  const targetId = idOf(input.target, 'target');
  const members: Array<{
    referenceId?: string;
    definitionId: string;
    values: () => Map<string, Json>;
    definition?: JsonObject;
    missing?: string;
  }> = [];
  if (isSet(input.target)) {
    const properties = propertiesOf(input.target);
    const setValues = parameterValues(getIgnoreCase(properties, 'parameters'), view.values);
    const setScope: Scope = {
      resource,
      context: input.context,
      parameters: setValues,
      policy: { assignmentId: view.id ?? '', setDefinitionId: targetId },
      frames: [],
    };
    for (const reference of getIgnoreCase(properties, 'policyDefinitions') as Json[]) {
      if (!isObject(reference)) continue;
      const definitionId = String(getIgnoreCase(reference, 'policyDefinitionId') ?? '');
      const referenceId = getIgnoreCase(reference, 'policyDefinitionReferenceId');
      const definition = definitionId ? input.findDefinition(definitionId) : undefined;
      members.push({
        referenceId: typeof referenceId === 'string' ? referenceId : undefined,
        definitionId,
        definition,
        missing: definition ? undefined : (input.missingReason?.(definitionId) ?? `the definition '${definitionId}' was not found`),
        // A reference's values are expressions over the set's parameters.
        values: () => {
          const values = new Map<string, Json>();
          const given = getIgnoreCase(reference, 'parameters');
          if (isObject(given)) {
            for (const [name, entry] of Object.entries(given)) {
              const value = isObject(entry) ? getIgnoreCase(entry, 'value') : undefined;
              if (value !== undefined) values.set(name.toLowerCase(), valueIn(setScope, value));
            }
          }
          return values;
        },
      });
    }
  } else {
    members.push({ definitionId: targetId, definition: input.target, values: () => view.values });
  }
  return members.map((member): MemberResult => {
    const base = { referenceId: member.referenceId, definitionId: member.definitionId, trace: [] };
    const exemption = skipped ? undefined : exemptionFor(exemptions, view.id, member.referenceId, resource, input.context.now);
    const expires = exemption ? expiresOnWithoutClock(exemption, input.context.now) : undefined;
    // What decides before the rule runs; the effect is still said (read from the definition when there is one).
    const before: Pick<MemberResult, 'outcome' | 'reason'> | undefined = skipped
      ? { outcome: 'notApplicable', reason: skipped }
      : expires
        ? {
            outcome: 'unknown',
            reason: `an exemption applies until ${expires}: give the clock (--now, a fixture's context.now) to know whether it still does`,
          }
        : exemption
          ? {
              outcome: 'exempt',
              reason: `exempted by '${String(exemption.name ?? exemption.id ?? 'an exemption')}' (${String(getIgnoreCase(propertiesOf(exemption), 'exemptionCategory') ?? 'no category')})`,
            }
          : undefined;
    if (!member.definition) return { ...base, ...(before ?? { outcome: 'unknown', reason: member.missing }) };
    let values: Map<string, Json>;
    try {
      values = member.values();
    } catch (error) {
      if (!(error instanceof Unknown)) throw error;
      return { ...base, ...(before ?? { outcome: 'unknown', reason: `a parameter value of the reference: ${error.message}` }) };
    }
    const policy: JsonObject = {
      assignmentId: view.id ?? '',
      definitionId: member.definitionId,
      setDefinitionId: member.referenceId !== undefined ? targetId : '',
      definitionReferenceId: member.referenceId ?? '',
    };
    const result = evaluateDefinition(
      {
        definition: member.definition,
        definitionId: member.definitionId,
        referenceId: member.referenceId,
        values,
        effectOverride: overriddenEffect(view, member.referenceId, resource),
        policy,
        enforced: view.enforced,
      },
      resource,
      input.context,
    );
    return before ? { ...base, ...(result.effect ? { effect: result.effect } : {}), ...before } : result;
  });
}

/** Whether a definition document is named by a policyDefinitionId (a full ID, or its last segment). */
export function namedBy(document: JsonObject, id: string): boolean {
  const wanted = id.toLowerCase();
  const own = typeof document.id === 'string' ? document.id.toLowerCase() : undefined;
  const name = typeof document.name === 'string' ? document.name.toLowerCase() : undefined;
  return own === wanted || (name !== undefined && name === lastSegment(wanted));
}
