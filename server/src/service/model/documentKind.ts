import { property, stringValue, items, entries, type Node } from '../json';
import { ITEM_ONLY_KEYS, knownItemType } from './itemTypes';
import { editDistance } from '../text';

export type DocumentKind =
  | 'policySetDefinition' // A3: as fetched or as in the built-in corpus
  | 'policySetDefinitionVersion' // A1: the deployable version resource
  | 'armTemplate' // a deployment template holding such resources
  | 'policyDefinition' // a policy definition: a source of parameters, not validated here
  | 'workspaceItem' // C: a workspace item such as an eventstream ({ id, workspaceId, displayName, type: ItemType, ... })
  | 'policySetPart' // a part of a set in the cloud CLI's split layout (<base>.definitions.json, .parameters.json, .groups.json)
  | 'policyConsumer' // an assignment or exemption of a set (resource, template of them, the policy-as-code framework's files): see consumers/
  | 'deploymentPlan' // D: a plan of model deployments ({ deployments: [{ subscription, region, account, name, model, sku }] }), or a lone E6 request body ({ sku, properties: { model } })
  | 'unknown';

/** Why a JSON document of kind 'unknown' is not checked: one wording for the CLI's note and the editor's notice. */
export const NOT_A_POLICY_DOCUMENT =
  'JSON, but not a policy set definition, a version of one, an ARM template holding them or a policy definition';

/** A key or type that only policy documents have, found in text that may not even be JSON. */
const POLICY_KEY =
  /"(?:policyRule|policyDefinitions|policyDefinitionId|policyDefinitionGroups|policyDefinitionReferenceId)"|\.Authorization\/policy(?:Set)?Definitions/i;

/** Whether a text shows any sign of being a policy document: a policy key or resource type in it. */
export function mentionsPolicyKeys(text: string): boolean {
  return POLICY_KEY.test(text);
}

/** A generator's placeholder (`##POLICY_NAME##`), as templates of policy files carry until a script fills them in. */
const PLACEHOLDER = /^##[A-Za-z0-9_]+##/;

/**
 * The first generator placeholder that stands where a syntax error is (outside a string, so the text is not
 * JSON until it is filled in), or undefined. Placeholders inside strings are JSON and are not looked at.
 */
export function placeholderAtSyntaxError(text: string, errorOffsets: readonly number[]): string | undefined {
  for (const offset of errorOffsets) {
    const found = PLACEHOLDER.exec(text.slice(offset, offset + 200));
    if (found) return found[0];
  }
  return undefined;
}

/** `<Namespace>.Authorization/policySetDefinitions`, any namespace, any casing. */
const SET_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policySetDefinitions$/i;
const VERSION_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policySetDefinitions\/versions$/i;
const DEFINITION_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policyDefinitions$/i;
const SET_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policySetDefinitions\/[^/]+$/i;
const DEFINITION_ID = /\/providers\/[A-Za-z0-9.]+\.Authorization\/policyDefinitions\/[^/]+$/i;
const VERSION_NAME = /^\d+\.\d+\.\d+$/;
const TEMPLATE_SCHEMA = /deploymentTemplate\.json#?$/i;
/** A JSON Schema's own `$schema` (draft-04 to 2020-12): a schema describing some document, never a policy document. */
const JSON_SCHEMA_SCHEMA = /^https?:\/\/json-schema\.org\//i;

export function isSetType(type: string | undefined): boolean {
  return !!type && SET_TYPE.test(type);
}

export function isVersionType(type: string | undefined): boolean {
  return !!type && VERSION_TYPE.test(type);
}

/** What classification needs to read a JSON document: a tree of nodes, or a plain value. */
interface JsonView<T> {
  get(container: T | undefined, key: string): T | undefined;
  /** Array items, or the values of an object (languageVersion 2.0 resources). */
  members(container: T | undefined): T[];
  string(value: T | undefined): string | undefined;
  isObject(value: T | undefined): boolean;
  isContainer(value: T | undefined): boolean;
  keys(value: T | undefined): string[];
}

const nodeView: JsonView<Node> = {
  get: property,
  members: (node) =>
    node?.type === 'object'
      ? entries(node)
          .map((e) => e.valueNode)
          .filter((n): n is Node => !!n)
      : items(node),
  string: stringValue,
  isObject: (node) => node?.type === 'object',
  isContainer: (node) => node?.type === 'object' || node?.type === 'array',
  keys: (node) => entries(node).map((e) => e.key),
};

type Value = unknown;
const isPlainObject = (v: Value): v is Record<string, Value> => typeof v === 'object' && v !== null && !Array.isArray(v);
const valueView: JsonView<Value> = {
  get: (v, key) => (isPlainObject(v) && Object.prototype.hasOwnProperty.call(v, key) ? v[key] : undefined),
  members: (v) => (Array.isArray(v) ? v : isPlainObject(v) ? Object.values(v) : []),
  string: (v) => (typeof v === 'string' ? v : undefined),
  isObject: isPlainObject,
  isContainer: (v) => typeof v === 'object' && v !== null,
  keys: (v) => (isPlainObject(v) ? Object.keys(v) : []),
};

export interface Resource<T> {
  kind: 'policySetDefinition' | 'policySetDefinitionVersion';
  node: T;
  /** In a template: a child in its parent's `resources`, named by its own name alone (not '<parent>/<child>'). */
  nested?: boolean;
  /**
   * A resource outside its template (a template fragment): the file's top level is the resource, with an
   * `apiVersion`, as landing-zone repositories keep sets to load into templates. Its strings are read as
   * inside a template ('[[' escapes a policy expression), and the template's parameters are not in sight.
   */
  fragment?: boolean;
}

export type PolicyResource = Resource<Node>;

export interface Classification<T = Node> {
  kind: DocumentKind;
  /** The resources to validate: one for A1/A3 documents, any number in a template. */
  resources: Array<Resource<T>>;
}

function classifyWith<T>(root: T | undefined, view: JsonView<T>): Classification<T> {
  if (!view.isObject(root)) return { kind: 'unknown', resources: [] };
  const schema = view.string(view.get(root, '$schema'));
  // A JSON Schema (a landing-zone library's schema of its own files, say) has `properties` too.
  if (schema && JSON_SCHEMA_SCHEMA.test(schema)) return { kind: 'unknown', resources: [] };
  const isTemplate =
    (schema && TEMPLATE_SCHEMA.test(schema)) ||
    (view.isContainer(view.get(root, 'resources')) && view.get(root, 'contentVersion') !== undefined);
  if (isTemplate) {
    const found: Array<Resource<T>> = [];
    const visit = (container: T | undefined, parentIsSet: boolean, depth: number) => {
      if (!container || depth > 8) return;
      for (const resource of view.members(container)) {
        if (!view.isObject(resource)) continue;
        const type = view.string(view.get(resource, 'type'));
        if (isSetType(type)) found.push({ kind: 'policySetDefinition', node: resource });
        else if (isVersionType(type) || (parentIsSet && type?.toLowerCase() === 'versions')) {
          found.push({ kind: 'policySetDefinitionVersion', node: resource, nested: parentIsSet });
        }
        visit(view.get(resource, 'resources'), isSetType(type), depth + 1);
        // Nested deployments carry a template of their own.
        const inner = view.get(view.get(resource, 'properties'), 'template');
        if (view.isObject(inner)) visit(view.get(inner, 'resources'), false, depth + 1);
      }
    };
    visit(view.get(root, 'resources'), false, 0);
    return { kind: found.length ? 'armTemplate' : 'unknown', resources: found };
  }
  const type = view.string(view.get(root, 'type'));
  if (isVersionType(type)) return { kind: 'policySetDefinitionVersion', resources: [{ kind: 'policySetDefinitionVersion', node: root! }] };
  // The spec's set (A3) has no apiVersion; its version resource (A1) does, and is sent as it is.
  const fragment = view.get(root, 'apiVersion') !== undefined;
  if (isSetType(type)) return { kind: 'policySetDefinition', resources: [{ kind: 'policySetDefinition', node: root!, fragment }] };
  const properties = view.get(root, 'properties');
  if (properties === undefined && isWorkspaceItem(root, type, view)) return { kind: 'workspaceItem', resources: [] };
  if (isDeploymentPlan(root, schema, view)) return { kind: 'deploymentPlan', resources: [] };
  const id = view.string(view.get(root, 'id'));
  if (DEFINITION_TYPE.test(type ?? '') || (id && DEFINITION_ID.test(id)) || view.get(properties, 'policyRule') !== undefined) {
    return { kind: 'policyDefinition', resources: [] };
  }
  const looksLikeSet = (id && SET_ID.test(id)) || view.get(properties, 'policyDefinitions') !== undefined || almostASet(root!, view);
  if (!looksLikeSet) return { kind: 'unknown', resources: [] };
  // Without a type or id, an apiVersion or a version-shaped name marks the deployable version resource.
  const name = view.string(view.get(root, 'name'));
  if (!type && !id && (view.get(root, 'apiVersion') !== undefined || (name !== undefined && VERSION_NAME.test(name)))) {
    return { kind: 'policySetDefinitionVersion', resources: [{ kind: 'policySetDefinitionVersion', node: root! }] };
  }
  return { kind: 'policySetDefinition', resources: [{ kind: 'policySetDefinition', node: root! }] };
}

/** A misspelling (edit distance 1 or 2, any casing) of `word` among the keys of `container`. */
function misspelt<T>(container: T | undefined, word: string, view: JsonView<T>): string | undefined {
  return view.keys(container).find((key) => key !== word && editDistance(key.toLowerCase(), word.toLowerCase(), 2) <= 2);
}

/**
 * Almost a policy set, so checked as one (and the misspelling reported with "did you mean"), rather than
 * passed over as "other JSON": `properties` holds a misspelling of `policyDefinitions`, or the set-only
 * key `policyDefinitionGroups`; or a misspelling of `properties` holds `policyDefinitions` (or a
 * misspelling of it). Assignments (`policyDefinitionId`, `enforcementMode`) and definitions stay apart.
 */
function almostASet<T>(root: T, view: JsonView<T>): boolean {
  const setLike = (properties: T | undefined) =>
    view.isObject(properties) &&
    view.get(properties, 'policyDefinitionId') === undefined &&
    view.get(properties, 'enforcementMode') === undefined &&
    view.get(properties, 'policyRule') === undefined &&
    (view.get(properties, 'policyDefinitions') !== undefined ||
      view.get(properties, 'policyDefinitionGroups') !== undefined ||
      misspelt(properties, 'policyDefinitions', view) !== undefined);
  const properties = view.get(root, 'properties');
  if (properties !== undefined) return setLike(properties);
  const near = misspelt(root, 'properties', view);
  return near !== undefined && setLike(view.get(root, near));
}

/**
 * A workspace item (section C): it has no `properties`; a key only items have (workspaceId, folderId,
 * sensitivityLabel), or a listed ItemType with an id or displayName.
 */
function isWorkspaceItem<T>(root: T, type: string | undefined, view: JsonView<T>): boolean {
  // A parameters object (a definition's `azurepolicy.parameters.json`) may declare a parameter named
  // workspaceId: its value is a declaration ({ "type": ... }), not an item's ID.
  const isDeclaration = (value: T | undefined) => view.isObject(value) && view.get(value, 'type') !== undefined;
  if (ITEM_ONLY_KEYS.some((key) => view.get(root, key) !== undefined && !isDeclaration(view.get(root, key)))) return true;
  return (
    type !== undefined &&
    knownItemType(type) !== undefined &&
    (view.get(root, 'id') !== undefined || view.get(root, 'displayName') !== undefined)
  );
}

const PLAN_SCHEMA = /deploymentPlan\.schema\.json#?$/i;
const PLAN_ENTRY_KEYS = ['sku', 'model', 'capacity'];

/**
 * A deployment plan (its $schema, or a `deployments` array whose objects carry a sku or a model, and no
 * `properties` beside it), or a lone E6 request body: `sku` and `properties.model`, objects both, and no
 * policy keys in `properties`.
 */
function isDeploymentPlan<T>(root: T, schema: string | undefined, view: JsonView<T>): boolean {
  if (schema && PLAN_SCHEMA.test(schema)) return true;
  const properties = view.get(root, 'properties');
  const deployments = view.get(root, 'deployments');
  if (properties === undefined && view.isContainer(deployments) && !view.isObject(deployments)) {
    const first = view.members(deployments).find((d) => view.isObject(d));
    return (
      first !== undefined &&
      PLAN_ENTRY_KEYS.some(
        (key) => view.get(first, key) !== undefined || (key === 'model' && view.get(view.get(first, 'properties'), 'model') !== undefined),
      )
    );
  }
  return (
    view.isObject(view.get(root, 'sku')) &&
    view.isObject(properties) &&
    view.isObject(view.get(properties, 'model')) &&
    view.get(properties, 'policyDefinitions') === undefined &&
    view.get(properties, 'policyRule') === undefined
  );
}

/** Recognises a document by its content, whatever its file name or language id. */
export function classify(root: Node | undefined): Classification {
  return classifyWith(root, nodeView);
}

/** The same, from a plain value (for documents too large to build a tree of). */
export function classifyValue(value: unknown): DocumentKind {
  return classifyWith(value, valueView).kind;
}

/** A policy definition document (a plain value, as parseDocumentText reads it): `properties.policyRule` is an object. */
export function isPolicyDefinition(value: unknown): boolean {
  const properties = (value as { properties?: { policyRule?: unknown } } | null)?.properties;
  return typeof properties === 'object' && properties !== null && typeof properties.policyRule === 'object';
}

/** A policy set document: `properties.policyDefinitions` is an array. */
export function isPolicySet(value: unknown): boolean {
  const properties = (value as { properties?: { policyDefinitions?: unknown } } | null)?.properties;
  return typeof properties === 'object' && properties !== null && Array.isArray(properties.policyDefinitions);
}
