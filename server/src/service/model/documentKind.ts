import { property, stringValue, items, entries, type Node } from '../json';

export type DocumentKind =
  | 'policySetDefinition' // A3: as fetched or as in the built-in corpus
  | 'policySetDefinitionVersion' // A1: the deployable version resource
  | 'armTemplate' // a deployment template holding such resources
  | 'policyDefinition' // a policy definition: a source of parameters, not validated here
  | 'unknown';

/** `<Namespace>.Authorization/policySetDefinitions`, any namespace, any casing. */
const SET_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policySetDefinitions$/i;
const VERSION_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policySetDefinitions\/versions$/i;
const DEFINITION_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policyDefinitions$/i;
const SET_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policySetDefinitions\/[^/]+$/i;
const DEFINITION_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policyDefinitions\/[^/]+$/i;
const VERSION_NAME = /^\d+\.\d+\.\d+$/;
const TEMPLATE_SCHEMA = /deploymentTemplate\.json#?$/i;

export function isSetType(type: string | undefined): boolean {
  return !!type && SET_TYPE.test(type);
}

export function isVersionType(type: string | undefined): boolean {
  return !!type && VERSION_TYPE.test(type);
}

export interface PolicyResource {
  kind: 'policySetDefinition' | 'policySetDefinitionVersion';
  node: Node;
  /** In a template: a child in its parent's `resources`, named by its own name alone (not '<parent>/<child>'). */
  nested?: boolean;
}

export interface Classification {
  kind: DocumentKind;
  /** The resources to validate: one for A1/A3 documents, any number in a template. */
  resources: PolicyResource[];
}

function isTemplate(root: Node): boolean {
  const schema = stringValue(property(root, '$schema'));
  if (schema && TEMPLATE_SCHEMA.test(schema)) return true;
  const resources = property(root, 'resources');
  return !!resources && (resources.type === 'array' || resources.type === 'object') && !!property(root, 'contentVersion');
}

function templateResources(root: Node): PolicyResource[] {
  const found: PolicyResource[] = [];
  const visit = (container: Node | undefined, parentIsSet: boolean, depth: number) => {
    if (!container || depth > 8) return;
    // languageVersion 2.0 templates keep resources in an object keyed by symbolic name.
    const list = container.type === 'object' ? entries(container).map((e) => e.valueNode) : items(container);
    for (const resource of list) {
      if (!resource || resource.type !== 'object') continue;
      const type = stringValue(property(resource, 'type'));
      if (isSetType(type)) found.push({ kind: 'policySetDefinition', node: resource });
      else if (isVersionType(type) || (parentIsSet && type?.toLowerCase() === 'versions')) {
        found.push({ kind: 'policySetDefinitionVersion', node: resource, nested: parentIsSet });
      }
      visit(property(resource, 'resources'), isSetType(type), depth + 1);
      // Nested deployments carry a template of their own.
      const inner = property(property(resource, 'properties'), 'template');
      if (inner && inner.type === 'object') visit(property(inner, 'resources'), false, depth + 1);
    }
  };
  visit(property(root, 'resources'), false, 0);
  return found;
}

/** Recognises a document by its content, whatever its file name or language id. */
export function classify(root: Node | undefined): Classification {
  if (!root || root.type !== 'object') return { kind: 'unknown', resources: [] };
  if (isTemplate(root)) {
    const resources = templateResources(root);
    return { kind: resources.length ? 'armTemplate' : 'unknown', resources };
  }
  const type = stringValue(property(root, 'type'));
  if (isVersionType(type)) return { kind: 'policySetDefinitionVersion', resources: [{ kind: 'policySetDefinitionVersion', node: root }] };
  if (isSetType(type)) return { kind: 'policySetDefinition', resources: [{ kind: 'policySetDefinition', node: root }] };
  const properties = property(root, 'properties');
  const id = stringValue(property(root, 'id'));
  if (DEFINITION_TYPE.test(type ?? '') || (id && DEFINITION_ID.test(id)) || property(properties, 'policyRule')) {
    return { kind: 'policyDefinition', resources: [] };
  }
  const looksLikeSet = (id && SET_ID.test(id)) || property(properties, 'policyDefinitions') !== undefined;
  if (!looksLikeSet) return { kind: 'unknown', resources: [] };
  // Without a type or id, a version-shaped name marks the deployable version resource.
  const name = stringValue(property(root, 'name'));
  if (!type && !id && name !== undefined && VERSION_NAME.test(name)) {
    return { kind: 'policySetDefinitionVersion', resources: [{ kind: 'policySetDefinitionVersion', node: root }] };
  }
  return { kind: 'policySetDefinition', resources: [{ kind: 'policySetDefinition', node: root }] };
}
