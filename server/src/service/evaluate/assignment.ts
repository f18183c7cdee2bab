// What an assignment and its exemptions decide before the rule runs: the scope and notScopes, the resource
// selectors, the effect overrides, enforcementMode, and which members an exemption exempts.
import { getIgnoreCase, isObject, type Json, type JsonObject, type Resource } from './types';

const lowerId = (v: Json | undefined) => (typeof v === 'string' ? v.toLowerCase().replace(/\/+$/, '') : undefined);
const under = (id: string, scope: string) => id === scope || id.startsWith(scope + '/');
const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** A selector `{ kind, in | notIn }` against what the resource has for that kind; undefined when the kind is not known. */
function selectorMatches(selector: JsonObject, resource: Resource, referenceId: string | undefined): boolean | undefined {
  const kind = String(getIgnoreCase(selector, 'kind') ?? '').toLowerCase();
  let actual: string | undefined;
  if (kind === 'resourcelocation') actual = typeof resource.location === 'string' ? resource.location : undefined;
  else if (kind === 'resourcetype') actual = typeof resource.type === 'string' ? resource.type : undefined;
  else if (kind === 'resourcewithoutlocation') actual = resource.location === undefined ? 'true' : 'false';
  else if (kind === 'policydefinitionreferenceid') actual = referenceId;
  else return undefined;
  const a = actual?.toLowerCase().replace(/\s+/g, '');
  const norm = (list: string[]) => list.map((x) => x.toLowerCase().replace(/\s+/g, ''));
  const inList = getIgnoreCase(selector, 'in');
  if (inList !== undefined) return a !== undefined && norm(strings(inList)).includes(a);
  const notIn = getIgnoreCase(selector, 'notIn');
  if (notIn !== undefined) return a === undefined || !norm(strings(notIn)).includes(a);
  return true;
}

export interface AssignmentView {
  properties: JsonObject;
  /** Parameter values by lowercased name. */
  values: Map<string, Json>;
  enforced: boolean;
  id?: string;
}

export function readAssignment(assignment: JsonObject | undefined): AssignmentView {
  const properties =
    assignment && isObject(getIgnoreCase(assignment, 'properties'))
      ? (getIgnoreCase(assignment, 'properties') as JsonObject)
      : (assignment ?? {});
  const values = new Map<string, Json>();
  const parameters = getIgnoreCase(properties, 'parameters');
  if (isObject(parameters)) {
    for (const [name, entry] of Object.entries(parameters)) {
      const value = isObject(entry) ? getIgnoreCase(entry, 'value') : undefined;
      if (value !== undefined) values.set(name.toLowerCase(), value);
    }
  }
  const mode = String(getIgnoreCase(properties, 'enforcementMode') ?? 'Default').toLowerCase();
  const id = assignment && typeof assignment.id === 'string' ? assignment.id : undefined;
  return { properties, values, enforced: mode !== 'donotenforce', id };
}

/** Why the assignment does not apply to the resource at all (its scope, notScopes, resource selectors), or undefined. */
export function assignmentSkips(view: AssignmentView, resource: Resource): string | undefined {
  const id = lowerId(resource.id);
  const scope = lowerId(getIgnoreCase(view.properties, 'scope'));
  if (id && scope && !under(id, scope)) return `the resource is outside the assignment's scope '${scope}'`;
  for (const notScope of strings(getIgnoreCase(view.properties, 'notScopes'))) {
    if (id && under(id, notScope.toLowerCase().replace(/\/+$/, ''))) return `the resource is under the assignment's notScope '${notScope}'`;
  }
  const selectors = getIgnoreCase(view.properties, 'resourceSelectors');
  if (Array.isArray(selectors) && selectors.length) {
    const any = selectors.some((rs) => {
      const list = isObject(rs) ? getIgnoreCase(rs, 'selectors') : undefined;
      return Array.isArray(list) && list.every((s) => isObject(s) && selectorMatches(s, resource, undefined) !== false);
    });
    if (!any) return "the resource matches none of the assignment's resourceSelectors";
  }
  return undefined;
}

/** The effect an override gives a member (the last override whose selectors all match), or undefined. */
export function overriddenEffect(view: AssignmentView, referenceId: string | undefined, resource: Resource): string | undefined {
  const overrides = getIgnoreCase(view.properties, 'overrides');
  let effect: string | undefined;
  for (const override of Array.isArray(overrides) ? overrides : []) {
    if (!isObject(override) || String(getIgnoreCase(override, 'kind') ?? '').toLowerCase() !== 'policyeffect') continue;
    const selectors = getIgnoreCase(override, 'selectors');
    const list = Array.isArray(selectors) ? selectors : [];
    if (list.every((s) => isObject(s) && selectorMatches(s, resource, referenceId) === true)) {
      const value = getIgnoreCase(override, 'value');
      if (typeof value === 'string') effect = value;
    }
  }
  return effect;
}

/** The exemption that exempts a member, if any: same assignment, the member among its reference IDs, the resource in its scope, not expired. */
export function exemptionFor(
  exemptions: JsonObject[],
  assignmentId: string | undefined,
  referenceId: string | undefined,
  resource: Resource,
  now: string | undefined,
): JsonObject | undefined {
  const id = lowerId(resource.id);
  return exemptions.find((exemption) => {
    const props = isObject(getIgnoreCase(exemption, 'properties')) ? (getIgnoreCase(exemption, 'properties') as JsonObject) : exemption;
    const target = lowerId(getIgnoreCase(props, 'policyAssignmentId'));
    if (target && assignmentId && target !== assignmentId.toLowerCase()) return false;
    const references = strings(getIgnoreCase(props, 'policyDefinitionReferenceIds')).map((r) => r.toLowerCase());
    if (references.length && (!referenceId || !references.includes(referenceId.toLowerCase()))) return false;
    const exemptionId = lowerId(exemption.id);
    const scope = exemptionId?.split('/providers/microsoft.authorization/policyexemptions/')[0];
    if (scope && scope !== exemptionId && id && !under(id, scope)) return false;
    const expires = getIgnoreCase(props, 'expiresOn');
    // Without the clock an exemption that expires cannot be decided: the caller reports it (expiresOnWithoutClock).
    if (typeof expires === 'string' && now && Date.parse(expires) <= Date.parse(now)) return false;
    const selectors = getIgnoreCase(props, 'resourceSelectors');
    if (Array.isArray(selectors) && selectors.length) {
      return selectors.some((rs) => {
        const list = isObject(rs) ? getIgnoreCase(rs, 'selectors') : undefined;
        return Array.isArray(list) && list.every((s) => isObject(s) && selectorMatches(s, resource, referenceId) !== false);
      });
    }
    return true;
  });
}

/** An exemption's expiry when there is no clock to compare it with (the member is then unknown). */
export function expiresOnWithoutClock(exemption: JsonObject, now: string | undefined): string | undefined {
  if (now) return undefined;
  const props = isObject(getIgnoreCase(exemption, 'properties')) ? (getIgnoreCase(exemption, 'properties') as JsonObject) : exemption;
  const expires = getIgnoreCase(props, 'expiresOn');
  return typeof expires === 'string' ? expires : undefined;
}
