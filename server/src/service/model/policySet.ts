import { entries, items, property, propertyIgnoreCase, stringValue, type Node } from '../json';
import { analyzeExpression, isTemplateExpression, type ExpressionInfo } from '../expressions';
import type { PolicyResource } from './documentKind';

export const PARAMETER_TYPES = ['String', 'Array', 'Object', 'Boolean', 'Integer', 'Float', 'DateTime'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

const TYPE_BY_LOWER = new Map<string, ParameterType>(PARAMETER_TYPES.map((t) => [t.toLowerCase(), t]));

export function canonicalParameterType(value: string | undefined): ParameterType | undefined {
  return value === undefined ? undefined : TYPE_BY_LOWER.get(value.toLowerCase());
}

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

export interface ReferenceModel {
  index: number;
  node: Node;
  idNode: Node | undefined;
  refIdNode: Node | undefined;
  definitionVersionNode: Node | undefined;
  groupNamesNode: Node | undefined;
  parametersNode: Node | undefined;
  parameterValues: ParameterValue[];
}

/** One `parameters('x')` call that refers to a parameter of the set. */
export interface ParameterUse {
  name: string;
  start: number;
  end: number;
  node: Node;
  reference: ReferenceModel;
}

export interface ExpressionProblem {
  node: Node;
  message: string;
  start: number;
  end: number;
}

export interface SetModel {
  kind: PolicyResource['kind'];
  /** In an ARM template: '[...]' strings are evaluated at deployment, '[[...]' are policy expressions. */
  inTemplate: boolean;
  resource: Node;
  properties: Node | undefined;
  parametersNode: Node | undefined;
  parameters: ParameterDecl[];
  groupsNode: Node | undefined;
  groups: GroupDecl[];
  referencesNode: Node | undefined;
  references: ReferenceModel[];
  parameterUses: ParameterUse[];
  expressionProblems: ExpressionProblem[];
  /** Whether a string node holds a value only known at deployment (a template expression). */
  isDynamic(node: Node | undefined): boolean;
}

function objectOrUndefined(node: Node | undefined): Node | undefined {
  return node && node.type === 'object' ? node : undefined;
}

export function buildSetModel(text: string, resource: PolicyResource, inTemplate: boolean): SetModel {
  const isDynamic = (node: Node | undefined) => isTemplateExpression(node, inTemplate);
  const properties = objectOrUndefined(property(resource.node, 'properties'));

  const parametersNode = property(properties, 'parameters');
  const parameters: ParameterDecl[] = entries(objectOrUndefined(parametersNode)).map(({ key, keyNode, valueNode }) => {
    const typeNode = valueNode?.type === 'object' ? propertyIgnoreCase(valueNode, 'type') : undefined;
    return { name: key, keyNode, node: valueNode, typeNode, type: canonicalParameterType(stringValue(typeNode)) };
  });

  const groupsNode = property(properties, 'policyDefinitionGroups');
  const groups: GroupDecl[] = [];
  for (const group of items(groupsNode)) {
    const nameNode = property(group, 'name');
    if (nameNode && nameNode.type === 'string' && !isDynamic(nameNode)) {
      groups.push({ name: nameNode.value as string, nameNode, node: group });
    }
  }

  const referencesNode = property(properties, 'policyDefinitions');
  const references: ReferenceModel[] = [];
  const parameterUses: ParameterUse[] = [];
  const expressionProblems: ExpressionProblem[] = [];
  items(referencesNode).forEach((node, index) => {
    if (node.type !== 'object') return;
    const parametersOfReference = property(node, 'parameters');
    const reference: ReferenceModel = {
      index,
      node,
      idNode: property(node, 'policyDefinitionId'),
      refIdNode: property(node, 'policyDefinitionReferenceId'),
      definitionVersionNode: property(node, 'definitionVersion'),
      groupNamesNode: property(node, 'groupNames'),
      parametersNode: parametersOfReference,
      parameterValues: entries(objectOrUndefined(parametersOfReference)).map(({ key, keyNode, valueNode }) => ({
        name: key,
        keyNode,
        node: valueNode,
        valueNode: valueNode?.type === 'object' ? property(valueNode, 'value') : undefined,
      })),
    };
    references.push(reference);
    collectParameterUses(text, parametersOfReference, inTemplate, reference, parameterUses, expressionProblems);
  });

  return {
    kind: resource.kind,
    inTemplate,
    resource: resource.node,
    properties,
    parametersNode,
    parameters,
    groupsNode,
    groups,
    referencesNode,
    references,
    parameterUses,
    expressionProblems,
    isDynamic,
  };
}

/** Finds every set-parameter reference in a reference's parameter values (iteratively: values can nest). */
function collectParameterUses(
  text: string,
  start: Node | undefined,
  inTemplate: boolean,
  reference: ReferenceModel,
  uses: ParameterUse[],
  problems: ExpressionProblem[],
) {
  if (!start) return;
  const stack: Node[] = [start];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'string') {
      const info: ExpressionInfo | undefined = analyzeExpression(text, node, inTemplate);
      if (!info || info.level !== 'policy') continue;
      for (const call of info.calls) {
        uses.push({ name: call.name, start: call.start, end: call.end, node, reference });
      }
      if (info.error) problems.push({ node, ...info.error });
    } else if (node.children) {
      for (let i = node.children.length - 1; i >= 0; i--) {
        const child = node.children[i];
        // Keys are not values.
        if (node.type === 'property' && i === 0) continue;
        stack.push(child);
      }
    }
  }
}
