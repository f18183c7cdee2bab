import type { DeploymentScope } from '#api';
import { parsePolicyDocument, type DefinitionCatalog } from '../../service';
import { asTemplateSendsIt } from '../../service/expressions';
import { isGuid, isTenantDefinitionId } from '../../service/definitionIds';

/**
 * What `deploy` sends is what the repository's layout means (issue 31):
 * - a set read as its template reads it (a template fragment, a file Bicep loads) is sent as the template
 *   would send it: `"[[parameters('x')]"` becomes `"[parameters('x')]"` (the one reading of the escape,
 *   `asTemplateSendsIt`, and the one decision of whether the file is read so, the lint's set model);
 * - a reference of the policy-as-code framework that names its definition by `policyDefinitionName` only gets
 *   the `policyDefinitionId` the spec requires (A2), at the deploy scope or as the built-in it is, or the
 *   deployment is refused with a sentence.
 */
export interface DeployableDocument {
  document: unknown;
  /** What was changed, one sentence each, said before the confirmation. */
  notes: string[];
}

/** The document cannot be deployed as the repository means it: the sentence says why (exit 2). */
export class NotDeployable extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const keyOf = (object: Record<string, unknown>, lower: string) => Object.keys(object).find((k) => k.toLowerCase() === lower);

/** A custom definition's ID at the deploy scope. */
export function customDefinitionIdAt(scope: DeploymentScope, namespace: string, name: string): string {
  const prefix =
    scope.kind === 'subscription'
      ? `/subscriptions/${scope.subscriptionId}`
      : `/providers/${namespace}.Management/managementGroups/${scope.managementGroupId}`;
  return `${prefix}/providers/${namespace}.Authorization/policyDefinitions/${name}`;
}

export function deployableDocument(
  text: string,
  document: unknown,
  options: { scope: DeploymentScope; namespace: string; catalog?: DefinitionCatalog },
): DeployableDocument {
  const notes: string[] = [];
  if (!isObject(document)) return { document, notes };
  let result: Record<string, unknown> = document;
  const propertiesKey = keyOf(document, 'properties');
  const set = parsePolicyDocument(text).sets[0];
  if (set?.inTemplate && propertiesKey && isObject(document[propertiesKey])) {
    const sent = asTemplateSendsIt(document[propertiesKey]);
    if (sent.templateExpressions.length) {
      const n = sent.templateExpressions.length;
      throw new NotDeployable(
        `it is read as its template reads it, and ${n} of its strings ${n === 1 ? 'is a template expression' : 'are template expressions'} that only the template evaluates at deployment (the first: ${JSON.stringify(sent.templateExpressions[0])}): deploy the template, or write the values`,
      );
    }
    if (sent.unescaped) {
      result = { ...document, [propertiesKey]: sent.value };
      notes.push(
        `read as its template reads it: ${sent.unescaped} escaped string${sent.unescaped === 1 ? '' : 's'} sent as the template sends ${sent.unescaped === 1 ? 'it' : 'them'} ("[[parameters('x')]" as "[parameters('x')]")`,
      );
    }
  }
  const properties = propertiesKey ? result[propertiesKey] : undefined;
  const referencesKey = isObject(properties) ? keyOf(properties, 'policydefinitions') : undefined;
  if (!isObject(properties) || !referencesKey || !Array.isArray(properties[referencesKey])) return { document: result, notes };
  let changed = false;
  const resolved = { builtIn: 0, custom: 0, assumedCustom: 0 };
  const references = (properties[referencesKey] as unknown[]).map((reference, index) => {
    if (!isObject(reference)) return reference;
    const idKey = keyOf(reference, 'policydefinitionid');
    if (idKey && typeof reference[idKey] === 'string' && reference[idKey] !== '') return reference;
    const nameKey = keyOf(reference, 'policydefinitionname');
    const name = nameKey ? reference[nameKey] : undefined;
    const label = `reference ${index + 1}${typeof reference.policyDefinitionReferenceId === 'string' ? ` ('${reference.policyDefinitionReferenceId}')` : ''}`;
    if (typeof name !== 'string' || !name)
      throw new NotDeployable(
        `${label} has no policyDefinitionId (the service requires one in every reference) and no policyDefinitionName to find it by`,
      );
    const known = options.catalog?.lookupName(name) ?? [];
    const builtIn = known.find((definition) => isTenantDefinitionId(definition.id));
    let id: string;
    if (builtIn) {
      id = builtIn.id;
      resolved.builtIn++;
    } else if (known.length) {
      id = customDefinitionIdAt(options.scope, options.namespace, name);
      resolved.custom++;
    } else if (isGuid(name)) {
      throw new NotDeployable(
        `${label} names its definition '${name}' by policyDefinitionName only, as built-ins are named, and the definitions loaded do not know it: give -d <the built-in definitions' index> (policyset definitions index) or write its policyDefinitionId`,
      );
    } else {
      id = customDefinitionIdAt(options.scope, options.namespace, name);
      resolved.assumedCustom++;
    }
    changed = true;
    const copy: Record<string, unknown> = { policyDefinitionId: id };
    for (const [key, value] of Object.entries(reference)) if (key !== nameKey && key !== idKey) copy[key] = value;
    return copy;
  });
  if (!changed) return { document: result, notes };
  const parts = [
    resolved.builtIn ? `${resolved.builtIn} as built-in${resolved.builtIn === 1 ? '' : 's'} the definitions loaded know` : '',
    resolved.custom
      ? `${resolved.custom} as custom definition${resolved.custom === 1 ? '' : 's'} the definitions loaded know, at the deploy scope`
      : '',
    resolved.assumedCustom
      ? `${resolved.assumedCustom} as custom definition${resolved.assumedCustom === 1 ? '' : 's'} at the deploy scope (not among the definitions loaded)`
      : '',
  ].filter(Boolean);
  notes.push(`policyDefinitionName resolved to a policyDefinitionId: ${parts.join('; ')}`);
  return { document: { ...result, [propertiesKey as string]: { ...properties, [referencesKey]: references } }, notes };
}
