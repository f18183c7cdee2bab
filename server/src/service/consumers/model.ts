// What the consumer rules read of a consumer of a set: an assignment or an exemption, kept lightly (nodes of
// the few fields the rules and features look at, never a copy of the document).
import type { Node } from '../json';

/**
 * The shapes consumers are kept in. `assignment`: the resource (bare, a library's file such as
 * `*.alz_policy_assignment.json`, or inside an ARM template); `epacAssignment`: a node of the policy-as-code
 * framework's assignment tree; `exemption`: the exemption resource; `epacExemption`: an entry of the framework's
 * `exemptions` list.
 */
export type ConsumerShape = 'assignment' | 'epacAssignment' | 'exemption' | 'epacExemption' | 'enrollment' | 'libraryDefaults';

/** A default value of the landing-zone library (`alz_policy_default_values.json`): the assignments and parameters it fills in. */
export interface LibraryDefault {
  /** `policy_assignment_name` (the `name` of an `*.alz_policy_assignment.json` of the library). */
  assignment: string;
  assignmentNode: Node;
  /** `parameter_names`: parameters of the set (or definition) that assignment assigns. */
  parameters: Array<{ name: string; node: Node }>;
}

/** What a consumer assigns: a set or a definition, named by ID or by name. */
export interface ConsumerTarget {
  /** The ID or name as it was read (an expression resolved where it could be), or undefined when it could not be read. */
  text: string | undefined;
  /** The value node naming it. */
  node: Node;
  /** What the ID or key says it is; 'unknown' for an ID of neither kind (an expression left unresolved). */
  kind: 'set' | 'definition' | 'unknown';
  /** Why the target could not be read, when it could not (an expression, a parameter of the template). */
  unresolved?: string;
  /** The `definitionVersion` the consumer asks of it (`1.*.*`), when it asks one. */
  versionNode?: Node;
}

/** A parameter value the consumer passes. */
export interface PassedParameter {
  name: string;
  keyNode: Node;
  /** The value itself (inside `{ "value": ... }` for the resource shapes); undefined when there is none. */
  valueNode: Node | undefined;
}

/** A policyDefinitionReferenceId a consumer names: a member of the set it assigns, or it means nothing. */
export interface ReferenceIdUse {
  value: string;
  node: Node;
  where: 'nonComplianceMessages' | 'overrides' | 'exemption' | 'enrollment';
}

export interface ConsumerModel {
  shape: ConsumerShape;
  /** The resource or tree node the consumer is. */
  node: Node;
  /**
   * What it assigns: one target for a resource; for a policy-as-code tree, every definition entry of the file
   * (a node's parameters go to each entry of the leaves below it that declares them).
   */
  targets: ConsumerTarget[];
  /** The parameters it passes. */
  parameters: PassedParameter[];
  /** The `parameters` object, when there is one. */
  parametersNode: Node | undefined;
  /**
   * Whether every value the assignment will pass is in sight: false for files that a tool completes before it
   * deploys them (a library's assignment, a template fragment, a tree with a parameter file), whose missing
   * parameters are not reported.
   */
  complete: boolean;
  referenceIds: ReferenceIdUse[];
  /**
   * Per nonComplianceMessages list, its entries without a policyDefinitionReferenceId: each is the default
   * message of the assignment (or of the tree node) the list belongs to.
   */
  defaultMessages: Node[][];
  /** An exemption's `expiresOn`. */
  expiresOn: Node | undefined;
  /**
   * The `policyAssignmentId` of a consumer that names its assignment, not its set (an exemption resource, an
   * enrollment): resolved through the assignments the host gives (ValidationOptions.assignments), when it gives them.
   */
  assignmentId?: Node;
  /** The landing-zone library's default values (shape `libraryDefaults`), checked against the library's assignments. */
  defaults?: LibraryDefault[];
}

/** A value that something else fills in before it reaches the service: an ARM expression, `${...}`, `{name}`, `##NAME##`. */
export function isPlaceholderValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  return trimmed.startsWith('[') || /\$\{[^}]*\}|^\{[A-Za-z_][\w.-]*\}$|##[A-Za-z0-9_]+##|<[A-Za-z_][\w -]*>/.test(trimmed);
}

/**
 * Whether a value or anything inside it is such a placeholder. A `null` value is one too: libraries (the
 * Terraform landing zone's) write it for a value their module fills in before it deploys the assignment.
 */
export function holdsPlaceholder(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return isPlaceholderValue(value);
  if (Array.isArray(value)) return value.some(holdsPlaceholder);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsPlaceholder);
  return false;
}
