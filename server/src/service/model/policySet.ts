import {
  entries,
  forEachStringItem,
  items,
  propertyIgnoreCase,
  propertyValuesIgnoreCase,
  stringValue,
  stringValuesStartingWith,
  type Node,
} from '../json';
import { analyzeExpression, isTemplateExpression, isTemplateExpressionValue, type ExpressionInfo } from '../expressions';
import type { PolicyResource } from './documentKind';
import { normalizeDefinitionId } from '../definitionIds';
import { canonicalParameterType, type ParameterType } from './parameterTypes';

export { PARAMETER_TYPES, canonicalParameterType, type ParameterType } from './parameterTypes';

export interface ParameterDecl {
  name: string;
  keyNode: Node;
  node: Node | undefined;
  typeNode: Node | undefined;
  /** Canonical type, when the declared type is known (any casing). */
  type: ParameterType | undefined;
}

export interface GroupDecl {
  name: string;
  nameNode: Node;
  node: Node;
}

export interface ParameterValue {
  name: string;
  keyNode: Node;
  /** The `{ "value": ... }` object. */
  node: Node | undefined;
  /** The node under `value`, when present. */
  valueNode: Node | undefined;
}

/** A `groupNames` entry. */
export interface GroupUse {
  name: string;
  lower: string;
  node: Node;
  reference: ReferenceModel;
  /** The declared group it names (case-insensitively), if any. */
  declared: GroupDecl | undefined;
}

export interface ReferenceModel {
  index: number;
  node: Node;
  idNode: Node | undefined;
  /** `policyDefinitionName` (the policy-as-code framework's way to name a definition: its `name`). */
  nameNode: Node | undefined;
  /** The policyDefinitionId as definitions are looked up by (see normalizeDefinitionId), when it is a literal string. */
  idKey: string | undefined;
  /** The policyDefinitionReferenceId, lowercased, when it is a literal string. */
  refIdLower: string | undefined;
  refIdNode: Node | undefined;
  definitionVersionNode: Node | undefined;
  groupNamesNode: Node | undefined;
  parametersNode: Node | undefined;
  readonly parameterValues: ParameterValue[];
}

/** One `parameters('x')` call that refers to a parameter of the set. */
export interface ParameterUse {
  name: string;
  lower: string;
  start: number;
  end: number;
  node: Node;
  reference: ReferenceModel;
}

/** A `parameters('x')` evaluated by the template at deployment (in a template's `[...]` string). */
export interface TemplateParameterUse {
  name: string;
  start: number;
  end: number;
  node: Node;
}

export interface ExpressionProblem {
  node: Node;
  message: string;
  start: number;
  end: number;
}

export interface SetModel {
  kind: PolicyResource['kind'];
  /** A child resource nested in its parent's `resources` in a template. */
  nested: boolean;
  /** In an ARM template: '[...]' strings are evaluated at deployment, '[[...]' are policy expressions. */
  inTemplate: boolean;
  /** A resource outside its template (a template fragment): read as in a template, but the template is not in sight. */
  fragment: boolean;
  /**
   * A set in the service's shape (no `apiVersion`) whose `"[[...]"` strings name its own parameters and
   * that has no unescaped expression: read as the template that loads it reads it (Bicep's
   * loadJsonContent() hands such a file to a template). PS7006 still says what the escapes would be if it
   * were sent as it is.
   */
  loadedByTemplate?: boolean;
  /**
   * A file of the policy-as-code framework (its `$schema` names policy-set-definition-schema.json): references
   * may name definitions by `policyDefinitionName`, and groups may be imported (`importPolicyDefinitionGroups`).
   */
  policyAsCode: boolean;
  /** The `importPolicyDefinitionGroups` entries: names or IDs of the sets whose groups are declared here too. */
  importedGroupSets: Array<{ value: string; node: Node }>;
  resource: Node;
  properties: Node | undefined;
  parametersNode: Node | undefined;
  parameters: ParameterDecl[];
  groupsNode: Node | undefined;
  groups: GroupDecl[];
  /** Declared groups by lowercased name (the first declaration of each). */
  groupsByLower: Map<string, GroupDecl>;
  /** Declared parameters by lowercased name. */
  parametersByLower: Map<string, ParameterDecl>;
  /** Every literal `groupNames` entry of every reference. */
  groupUses: GroupUse[];
  /** A `groupNames` list or entry, or the references, is a deployment-time expression: which groups are used is not known. */
  groupUsesDynamic: boolean;
  /** The groups, or a group's name, is a deployment-time expression: which groups exist is not known. */
  groupsDynamic: boolean;
  /** The references or a reference's parameters is a deployment-time expression: which parameters are used is not known. */
  parameterUsesDynamic: boolean;
  referencesNode: Node | undefined;
  references: ReferenceModel[];
  parameterUses: ParameterUse[];
  /** In a template: `parameters('x')` calls evaluated at deployment, in the references' parameter values. */
  templateParameterUses: TemplateParameterUse[];
  expressionProblems: ExpressionProblem[];
  /** Whether a string node holds a value only known at deployment (a template expression). */
  isDynamic(node: Node | undefined): boolean;
}

class Reference implements ReferenceModel {
  private values: ParameterValue[] | undefined;

  constructor(
    readonly index: number,
    readonly node: Node,
    readonly idNode: Node | undefined,
    readonly nameNode: Node | undefined,
    readonly idKey: string | undefined,
    readonly refIdNode: Node | undefined,
    readonly refIdLower: string | undefined,
    readonly definitionVersionNode: Node | undefined,
    readonly groupNamesNode: Node | undefined,
    readonly parametersNode: Node | undefined,
  ) {}

  /** Computed on first use: most documents are checked without known definitions. */
  get parameterValues(): ParameterValue[] {
    this.values ??= entries(objectOrUndefined(this.parametersNode)).map(({ key, keyNode, valueNode }) => ({
      name: key,
      keyNode,
      node: valueNode,
      valueNode: valueNode?.type === 'object' ? propertyIgnoreCase(valueNode, 'value') : undefined,
    }));
    return this.values;
  }
}

/** A `groupNames` entry, whose node is made on first read (the model reads the names in the text). */
class GroupNameUse implements GroupUse {
  constructor(
    readonly name: string,
    readonly lower: string,
    readonly reference: ReferenceModel,
    readonly declared: GroupDecl | undefined,
    private readonly list: Node,
    private readonly index: number,
  ) {}

  get node(): Node {
    return items(this.list)[this.index];
  }
}

/** The keys of a reference that the model reads, lowercased. */
const REFERENCE_KEYS = [
  'parameters',
  'policydefinitionid',
  'policydefinitionreferenceid',
  'definitionversion',
  'groupnames',
  'policydefinitionname',
];

/** The `$schema` of the policy-as-code framework's set files. */
const POLICY_AS_CODE_SET_SCHEMA = /policy-set-definition-schema\.json/i;

function objectOrUndefined(node: Node | undefined): Node | undefined {
  return node && node.type === 'object' ? node : undefined;
}

/**
 * The model of a set as its file is read. A set resource outside its template (a fragment) is read as a
 * template reads it ('[[' escapes the set's own expressions) when it holds an escaped expression, or when
 * none of its '[...]' expressions names a parameter the set declares. Otherwise its '[...]' expressions
 * are the set's own: Terraform's templatefile() and jsondecode() hand the file to the service with no
 * template between, so its sets write "[parameters('effect')]" unescaped.
 */
export function modelOfResource(text: string, resource: PolicyResource, inTemplate: boolean): SetModel {
  const model = buildSetModel(text, resource, inTemplate);
  if (!inTemplate && !resource.fragment && !resource.node.parent && text.includes('"[[')) {
    // A set file loaded by a template (Bicep's loadJsonContent) keeps its escapes and needs no apiVersion.
    const loaded = buildSetModel(text, resource, true);
    const ownOnly =
      loaded.parameterUses.length > 0 &&
      loaded.parameterUses.every((use) => loaded.parametersByLower.has(use.lower)) &&
      loaded.templateParameterUses.length === 0;
    if (ownOnly && !model.parameterUses.length) {
      loaded.loadedByTemplate = true;
      return loaded;
    }
  }
  if (!resource.fragment || text.includes('"[[')) return model;
  const usesOwnParameters = model.templateParameterUses.some((use) => model.parametersByLower.has(use.name.toLowerCase()));
  return usesOwnParameters ? buildSetModel(text, resource, false) : model;
}

export function buildSetModel(text: string, resource: PolicyResource, inTemplate: boolean): SetModel {
  const isDynamic = (node: Node | undefined) => isTemplateExpression(node, inTemplate);
  const properties = objectOrUndefined(propertyIgnoreCase(resource.node, 'properties'));
  const schema = resource.node.parent ? undefined : stringValue(propertyIgnoreCase(resource.node, '$schema'));
  const importsNode = resource.node.parent ? undefined : propertyIgnoreCase(properties, 'importPolicyDefinitionGroups');
  const importedGroupSets = items(importsNode).flatMap((node) => (node.type === 'string' ? [{ value: node.value as string, node }] : []));

  // The service reads property names case-insensitively; so does the model (the casing is a hint of its own).
  const parametersNode = propertyIgnoreCase(properties, 'parameters');
  const parameters: ParameterDecl[] = entries(objectOrUndefined(parametersNode)).map(({ key, keyNode, valueNode }) => {
    const typeNode = valueNode?.type === 'object' ? propertyIgnoreCase(valueNode, 'type') : undefined;
    return { name: key, keyNode, node: valueNode, typeNode, type: canonicalParameterType(stringValue(typeNode)) };
  });

  const groupsNode = propertyIgnoreCase(properties, 'policyDefinitionGroups');
  const groups: GroupDecl[] = [];
  let groupsDynamic = isDynamic(groupsNode);
  for (const group of items(groupsNode)) {
    const nameNode = propertyIgnoreCase(group, 'name');
    if (isDynamic(group) || isDynamic(nameNode)) groupsDynamic = true;
    else if (nameNode && nameNode.type === 'string') groups.push({ name: nameNode.value as string, nameNode, node: group });
  }

  const groupsByLower = new Map<string, GroupDecl>();
  for (const group of groups) {
    const lower = group.name.toLowerCase();
    if (!groupsByLower.has(lower)) groupsByLower.set(lower, group);
  }
  const referencesNode = propertyIgnoreCase(properties, 'policyDefinitions');
  const references: ReferenceModel[] = [];
  const groupUses: GroupUse[] = [];
  let groupUsesDynamic = isDynamic(referencesNode);
  let parameterUsesDynamic = isDynamic(referencesNode);
  const lowerOf = (node: Node | undefined) =>
    node && node.type === 'string' && !isDynamic(node) ? (node.value as string).toLowerCase() : undefined;
  const parameterUses: ParameterUse[] = [];
  const templateParameterUses: TemplateParameterUse[] = [];
  const expressionProblems: ExpressionProblem[] = [];
  items(referencesNode).forEach((node, index) => {
    if (isDynamic(node)) {
      groupUsesDynamic = parameterUsesDynamic = true;
      return;
    }
    if (node.type !== 'object') return;
    // One pass over the reference's keys (the service reads them case-insensitively).
    const [parametersOfReference, idNode, refIdNode, definitionVersionNode, groupNamesNode, nameNode] = propertyValuesIgnoreCase(
      node,
      REFERENCE_KEYS,
    );
    if (isDynamic(parametersOfReference)) parameterUsesDynamic = true;
    const idLiteral = idNode && idNode.type === 'string' && !isDynamic(idNode) ? (idNode.value as string) : undefined;
    // An empty definitionVersion is no version: the landing-zone libraries write "" and deploy it.
    const versionNode = definitionVersionNode?.type === 'string' && definitionVersionNode.value === '' ? undefined : definitionVersionNode;
    const reference = new Reference(
      index,
      node,
      idNode,
      nameNode,
      idLiteral === undefined ? undefined : normalizeDefinitionId(idLiteral),
      refIdNode,
      lowerOf(refIdNode),
      versionNode,
      groupNamesNode,
      parametersOfReference,
    );
    references.push(reference);
    const groupNames = reference.groupNamesNode;
    if (groupNames) {
      if (isDynamic(groupNames)) groupUsesDynamic = true;
      // Read without making the entries' nodes: a use's node is made when something reports on it.
      forEachStringItem(groupNames, (name, index) => {
        if (isTemplateExpressionValue(name, inTemplate)) groupUsesDynamic = true;
        else {
          const lower = name.toLowerCase();
          groupUses.push(new GroupNameUse(name, lower, reference, groupsByLower.get(lower), groupNames, index));
        }
      });
    }
    const dynamic = { value: false };
    collectParameterUses(
      text,
      parametersOfReference,
      inTemplate,
      reference,
      parameterUses,
      expressionProblems,
      dynamic,
      templateParameterUses,
    );
    if (dynamic.value) parameterUsesDynamic = true;
  });

  // The framework's files are known by their $schema, or by what only they hold (the service's own shape
  // has neither policyDefinitionName nor importPolicyDefinitionGroups): many carry no $schema.
  const policyAsCode =
    !resource.node.parent &&
    ((schema !== undefined && POLICY_AS_CODE_SET_SCHEMA.test(schema)) ||
      importsNode !== undefined ||
      references.some((r) => r.nameNode !== undefined));

  const parametersByLower = new Map<string, ParameterDecl>();
  for (const parameter of parameters) {
    const lower = parameter.name.toLowerCase();
    if (!parametersByLower.has(lower)) parametersByLower.set(lower, parameter);
  }

  return {
    kind: resource.kind,
    nested: !!resource.nested,
    inTemplate,
    fragment: !!resource.fragment,
    policyAsCode,
    importedGroupSets,
    resource: resource.node,
    properties,
    parametersNode,
    parameters,
    parametersByLower,
    groupsNode,
    groups,
    groupsByLower,
    groupUses,
    groupUsesDynamic,
    groupsDynamic,
    parameterUsesDynamic,
    referencesNode,
    references,
    parameterUses,
    templateParameterUses,
    expressionProblems,
    isDynamic,
  };
}

/** Finds every set-parameter reference in a reference's parameter values. */
function collectParameterUses(
  text: string,
  start: Node | undefined,
  inTemplate: boolean,
  reference: ReferenceModel,
  uses: ParameterUse[],
  problems: ExpressionProblem[],
  dynamic: { value: boolean },
  templateUses: TemplateParameterUse[],
) {
  // Only strings that start with '[' can be expressions.
  for (const node of stringValuesStartingWith(start, '[')) {
    const info: ExpressionInfo | undefined = analyzeExpression(text, node, inTemplate);
    if (!info) continue;
    if (info.level === 'template') {
      for (const call of info.calls) templateUses.push({ name: call.name, start: call.start, end: call.end, node });
      continue;
    }
    // parameters() of a computed name could be any parameter.
    if (info.dynamicParameterCall) dynamic.value = true;
    for (const call of info.calls) {
      uses.push({ name: call.name, lower: call.name.toLowerCase(), start: call.start, end: call.end, node, reference });
    }
    if (info.error) problems.push({ node, ...info.error });
  }
}
