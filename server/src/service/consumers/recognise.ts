// Consumers recognised by their content, as sets are (model/documentKind.ts): assignment and exemption
// resources (bare, as a library keeps them, or inside ARM templates and their nested deployments), and the
// policy-as-code framework's assignment trees and exemption lists.
import { property, stringValue, entries, items, type Node } from '../json';
import type { ConsumerModel, ConsumerTarget, LibraryDefault, PassedParameter, ReferenceIdUse } from './model';
import { targetOfId, targetOfName } from './targets';

const ASSIGNMENT_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policyAssignments$/i;
const EXEMPTION_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policyExemptions$/i;
const ENROLLMENT_TYPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\.Authorization\/policyEnrollments$/i;
const EPAC_ENROLLMENT_SCHEMA = /policy-enrollment-schema\.json#?$/i;
const TEMPLATE_SCHEMA = /deploymentTemplate\.json#?$/i;
const EPAC_ASSIGNMENT_SCHEMA = /policy-assignment-schema\.json#?$/i;
const EPAC_EXEMPTION_SCHEMA = /policy-exemption-schema\.json#?$/i;
const LIBRARY_DEFAULTS_SCHEMA = /default_policy_values\.json#?$/i;
/** Keys only an assignment's properties have beside `policyDefinitionId` (a set's reference has none of them). */
const ASSIGNMENT_KEYS = ['enforcementMode', 'notScopes', 'nonComplianceMessages', 'overrides', 'resourceSelectors'];

/** The consumers a document holds (none for most documents: a few property lookups say so). */
export function consumersOf(root: Node | undefined): ConsumerModel[] {
  if (!root || root.type !== 'object') return [];
  const schema = stringValue(property(root, '$schema'));
  const resources = property(root, 'resources');
  if ((schema && TEMPLATE_SCHEMA.test(schema)) || (resources && property(root, 'contentVersion'))) {
    const found: ConsumerModel[] = [];
    visitTemplate(root, found, 0);
    return found;
  }
  if (
    (schema && EPAC_ASSIGNMENT_SCHEMA.test(schema)) ||
    (stringValue(property(root, 'nodeName')) !== undefined &&
      (property(root, 'definitionEntry') || property(root, 'definitionEntryList') || property(root, 'children')))
  ) {
    return [epacAssignment(root)];
  }
  if (
    (schema && EPAC_ENROLLMENT_SCHEMA.test(schema)) ||
    (property(root, 'policyAssignmentId') &&
      (property(root, 'scope') || property(root, 'scopes')) &&
      !property(root, 'exemptionCategory') &&
      !property(root, 'properties'))
  ) {
    return [enrollment(root, root)];
  }
  const defaults = property(root, 'defaults');
  if (
    (schema && LIBRARY_DEFAULTS_SCHEMA.test(schema)) ||
    (defaults?.type === 'array' && items(defaults).some((d) => property(d, 'policy_assignments')))
  ) {
    return [libraryDefaults(root, defaults)];
  }
  const exemptions = property(root, 'exemptions');
  if (
    (schema && EPAC_EXEMPTION_SCHEMA.test(schema)) ||
    (exemptions?.type === 'array' && items(exemptions).some((e) => property(e, 'exemptionCategory') || property(e, 'policyAssignmentId')))
  ) {
    return items(exemptions)
      .filter((e) => e.type === 'object')
      .map(epacExemption);
  }
  const resource = resourceConsumer(root, undefined, false);
  return resource ? [resource] : [];
}

function visitTemplate(template: Node, found: ConsumerModel[], depth: number) {
  if (depth > 8) return;
  const variables = property(template, 'variables');
  const visit = (container: Node | undefined, level: number) => {
    if (!container || level > 8) return;
    const members = container.type === 'object' ? entries(container).map((e) => e.valueNode) : items(container);
    for (const resource of members) {
      if (resource?.type !== 'object') continue;
      const consumer = resourceConsumer(resource, variables, true);
      if (consumer) found.push(consumer);
      visit(property(resource, 'resources'), level + 1);
      const inner = property(property(resource, 'properties'), 'template');
      if (inner?.type === 'object') visitTemplate(inner, found, depth + 1);
    }
  };
  visit(property(template, 'resources'), 0);
}

/** An assignment or exemption resource; `inTemplate`: inside a deployment template, which holds every value it deploys. */
function resourceConsumer(resource: Node, variables: Node | undefined, inTemplate: boolean): ConsumerModel | undefined {
  const type = stringValue(property(resource, 'type'));
  const properties = property(resource, 'properties');
  if (properties?.type !== 'object') return undefined;
  const definitionId = property(properties, 'policyDefinitionId');
  const isAssignment = type
    ? ASSIGNMENT_TYPE.test(type)
    : !!definitionId &&
      !property(properties, 'policyDefinitions') &&
      !property(properties, 'policyRule') &&
      ASSIGNMENT_KEYS.some((k) => property(properties, k));
  if (isAssignment) {
    const parametersNode = property(properties, 'parameters');
    const parameters: PassedParameter[] = [];
    for (const entry of entries(parametersNode)) {
      parameters.push({ name: entry.key, keyNode: entry.keyNode, valueNode: property(entry.valueNode, 'value') });
    }
    const referenceIds: ReferenceIdUse[] = [];
    const defaultMessages = messagesOf(property(properties, 'nonComplianceMessages'), referenceIds);
    overrideReferenceIds(property(properties, 'overrides'), referenceIds);
    return {
      shape: 'assignment',
      node: resource,
      targets: definitionId ? [withVersion(targetOfId(definitionId, variables), property(properties, 'definitionVersion'))] : [],
      parameters,
      parametersNode,
      // A template deploys what it holds; a bare resource is a library's file that a tool completes first.
      complete: inTemplate && (parametersNode === undefined || parametersNode.type === 'object'),
      referenceIds,
      defaultMessages: defaultMessages.length ? [defaultMessages] : [],
      expiresOn: undefined,
    };
  }
  if (type && ENROLLMENT_TYPE.test(type)) return enrollment(resource, properties);
  const isExemption = type
    ? EXEMPTION_TYPE.test(type)
    : !!property(properties, 'policyAssignmentId') && !!property(properties, 'exemptionCategory');
  if (!isExemption) return undefined;
  const referenceIds = referenceIdsOf(properties, 'exemption');
  return {
    shape: 'exemption',
    node: resource,
    // The resource names its assignment, not the set: its reference IDs are checked when the host gives the assignments.
    targets: [],
    parameters: [],
    parametersNode: undefined,
    complete: false,
    referenceIds,
    defaultMessages: [],
    expiresOn: property(properties, 'expiresOn'),
    assignmentId: property(properties, 'policyAssignmentId'),
  };
}

function withVersion(target: ConsumerTarget, versionNode: Node | undefined): ConsumerTarget {
  return versionNode ? { ...target, versionNode } : target;
}

/** The reference IDs of a nonComplianceMessages list; returns its entries without one (default messages). */
function messagesOf(list: Node | undefined, referenceIds: ReferenceIdUse[]): Node[] {
  const defaults: Node[] = [];
  for (const message of items(list)) {
    if (message.type !== 'object') continue;
    const idNode = property(message, 'policyDefinitionReferenceId');
    const id = stringValue(idNode);
    if (idNode && id !== undefined) referenceIds.push({ value: id, node: idNode, where: 'nonComplianceMessages' });
    else if (!idNode) defaults.push(message);
  }
  return defaults;
}

/** The selector values of kind policyDefinitionReferenceId in an overrides list. */
function overrideReferenceIds(list: Node | undefined, referenceIds: ReferenceIdUse[]) {
  for (const override of items(list)) {
    for (const selector of items(property(override, 'selectors'))) {
      if (stringValue(property(selector, 'kind'))?.toLowerCase() !== 'policydefinitionreferenceid') continue;
      for (const key of ['in', 'notIn']) {
        for (const value of items(property(selector, key))) {
          const id = stringValue(value);
          if (id !== undefined) referenceIds.push({ value: id, node: value, where: 'overrides' });
        }
      }
    }
  }
}

/** A policy-as-code assignment tree: every node's definition entries, parameters, messages and overrides. */
function epacAssignment(root: Node): ConsumerModel {
  const model: ConsumerModel = {
    shape: 'epacAssignment',
    node: root,
    targets: [],
    parameters: [],
    parametersNode: property(root, 'parameters'),
    complete: false,
    referenceIds: [],
    defaultMessages: [],
    expiresOn: undefined,
  };
  const visit = (node: Node, depth: number, versionAbove: Node | undefined) => {
    if (node.type !== 'object' || depth > 32) return;
    // A node's definitionVersion is the version of the entries of its branch that do not ask their own.
    const nodeVersion = property(node, 'definitionVersion') ?? versionAbove;
    const entryList = [property(node, 'definitionEntry'), ...items(property(node, 'definitionEntryList'))];
    for (const entry of entryList) {
      if (entry?.type !== 'object') continue;
      const setId = property(entry, 'policySetId');
      const setName = property(entry, 'policySetName');
      const definitionId = property(entry, 'policyId');
      const definitionName = property(entry, 'policyName');
      const version = property(entry, 'definitionVersion') ?? nodeVersion;
      if (setId) model.targets.push(withVersion(targetOfId(setId, undefined), version));
      else if (setName) model.targets.push(withVersion(targetOfName(setName, 'set'), version));
      else if (definitionId) model.targets.push(withVersion(targetOfId(definitionId, undefined), version));
      else if (definitionName) model.targets.push(withVersion(targetOfName(definitionName, 'definition'), version));
      const defaults = messagesOf(property(entry, 'nonComplianceMessages'), model.referenceIds);
      if (defaults.length) model.defaultMessages.push(defaults);
    }
    // The framework passes a node's values as they are (no `{ "value": ... }`), to each entry that declares them.
    for (const entry of entries(property(node, 'parameters')))
      model.parameters.push({ name: entry.key, keyNode: entry.keyNode, valueNode: entry.valueNode });
    const defaults = messagesOf(property(node, 'nonComplianceMessages'), model.referenceIds);
    if (defaults.length) model.defaultMessages.push(defaults);
    overrideReferenceIds(property(node, 'overrides'), model.referenceIds);
    for (const child of items(property(node, 'children'))) visit(child, depth + 1, nodeVersion);
  };
  visit(root, 0, undefined);
  return model;
}

/** An entry of the policy-as-code framework's exemption list, which may name the set it exempts from. */
function epacExemption(entry: Node): ConsumerModel {
  const referenceIds: ReferenceIdUse[] = [];
  for (const value of items(property(entry, 'policyDefinitionReferenceIds'))) {
    const id = stringValue(value);
    if (id !== undefined) referenceIds.push({ value: id, node: value, where: 'exemption' });
  }
  const setId = property(entry, 'policySetDefinitionId');
  const setName = property(entry, 'policySetDefinitionName');
  const definitionId = property(entry, 'policyDefinitionId');
  const definitionName = property(entry, 'policyDefinitionName');
  const target = setId
    ? targetOfId(setId, undefined)
    : setName
      ? targetOfName(setName, 'set')
      : definitionId
        ? targetOfId(definitionId, undefined)
        : definitionName
          ? targetOfName(definitionName, 'definition')
          : undefined;
  return {
    shape: 'epacExemption',
    node: entry,
    targets: target ? [target] : [],
    parameters: [],
    parametersNode: undefined,
    complete: false,
    referenceIds,
    defaultMessages: [],
    expiresOn: property(entry, 'expiresOn'),
  };
}

/** The landing-zone library's default values: each names assignments of the library and parameters of their sets. */
function libraryDefaults(root: Node, list: Node | undefined): ConsumerModel {
  const defaults: LibraryDefault[] = [];
  for (const entry of items(list)) {
    for (const use of items(property(entry, 'policy_assignments'))) {
      const assignmentNode = property(use, 'policy_assignment_name');
      const assignment = stringValue(assignmentNode);
      if (!assignmentNode || assignment === undefined) continue;
      const parameters: LibraryDefault['parameters'] = [];
      for (const node of items(property(use, 'parameter_names'))) {
        const name = stringValue(node);
        if (name !== undefined) parameters.push({ name, node });
      }
      defaults.push({ assignment, assignmentNode, parameters });
    }
  }
  return {
    shape: 'libraryDefaults',
    node: root,
    targets: [],
    parameters: [],
    parametersNode: undefined,
    complete: false,
    referenceIds: [],
    defaultMessages: [],
    expiresOn: undefined,
    defaults,
  };
}

/** The `policyDefinitionReferenceIds` an exemption or an enrollment lists. */
function referenceIdsOf(fields: Node | undefined, where: 'exemption' | 'enrollment'): ReferenceIdUse[] {
  const referenceIds: ReferenceIdUse[] = [];
  for (const value of items(property(fields, 'policyDefinitionReferenceIds'))) {
    const id = stringValue(value);
    if (id !== undefined) referenceIds.push({ value: id, node: value, where });
  }
  return referenceIds;
}

/** An enrollment (the resource, or the policy-as-code framework's file): it names its assignment and members of its set. */
function enrollment(node: Node, fields: Node): ConsumerModel {
  const referenceIds = referenceIdsOf(fields, 'enrollment');
  return {
    shape: 'enrollment',
    node,
    targets: [],
    parameters: [],
    parametersNode: undefined,
    complete: false,
    referenceIds,
    defaultMessages: [],
    expiresOn: undefined,
    assignmentId: property(fields, 'policyAssignmentId'),
  };
}
