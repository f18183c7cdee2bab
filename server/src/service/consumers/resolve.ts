// Each consumer's target resolved to what is known of it: the workspace's (or the linted files') sets by ID or
// by name at any scope, definitions through the definitions catalogue (an index of built-ins, definition files).
// A target that cannot be resolved is said so (`unresolved`), never guessed.
import { type DefinitionCatalog, type DefinitionParameter, type SetInfo, type DefinitionInfo } from '../definitions';
import type { ConsumerModel, ConsumerTarget } from './model';

/** What a consumer's target is checked against: one known set or definition (of the candidates it may mean). */
export interface TargetDeclaration {
  kind: 'set' | 'definition';
  name: string;
  /** By lowercased name. */
  parameters: Map<string, DefinitionParameter>;
  /** A set's member reference IDs, by lowercased ID; undefined for a definition. */
  referenceIds: Map<string, string> | undefined;
  /** Where it was read from (a path or URI). */
  source: string | undefined;
  /** A set's members: reference ID and the lowercased name of the definition each assigns. */
  members?: Array<{ referenceId: string | undefined; definition: string }>;
  /** Its `properties.version`, and the versions it says it has. */
  version?: string;
  versions?: string[];
}

export interface ResolvedTarget {
  /** The target; for a consumer that names its assignment, the assignment's target (a node of another document). */
  target: ConsumerTarget;
  /** Found through the consumer's assignment (ConsumerModel.assignmentId): its target is not in this document. */
  viaAssignment?: boolean;
  /** Every known declaration the target may mean; empty when it is not known. */
  candidates: TargetDeclaration[];
}

export interface ResolvedConsumer {
  consumer: ConsumerModel;
  targets: ResolvedTarget[];
  /** Every target resolved (and there is at least one): only then may a rule say a name is not declared. */
  resolved: boolean;
}

const declarationCache = new WeakMap<SetInfo | DefinitionInfo, TargetDeclaration>();

function ofSet(info: SetInfo): TargetDeclaration | undefined {
  // A set of no members is a skeleton that its users fill in (a landing zone's "custom" set): not what it will be.
  if (!info.parameters || !info.referenceIds || !info.members) return undefined;
  let found = declarationCache.get(info);
  if (!found) {
    found = {
      kind: 'set',
      name: info.name,
      parameters: new Map(info.parameters.map((p) => [p.name.toLowerCase(), p])),
      referenceIds: new Map(info.referenceIds.map((id) => [id.toLowerCase(), id])),
      source: info.source,
      members: info.memberDefinitions,
      version: info.version,
      versions: info.versions,
    };
    declarationCache.set(info, found);
  }
  return found;
}

function ofDefinition(info: DefinitionInfo): TargetDeclaration {
  let found = declarationCache.get(info);
  if (!found) {
    found = {
      kind: 'definition',
      name: info.name,
      parameters: info.parameters,
      referenceIds: undefined,
      source: info.source,
      version: info.version,
      versions: info.versions,
    };
    declarationCache.set(info, found);
  }
  return found;
}

export function resolveTarget(target: ConsumerTarget, catalog: DefinitionCatalog | undefined): ResolvedTarget {
  if (!catalog || target.text === undefined || target.kind === 'unknown') return { target, candidates: [] };
  if (target.kind === 'set') {
    const candidates = catalog
      .lookupSets(target.text)
      .map(ofSet)
      .filter((d): d is TargetDeclaration => d !== undefined);
    return { target, candidates };
  }
  // A definition by ID (a built-in through the index, a custom one by its name at any scope), or by name.
  const definitions = target.text.includes('/') ? catalog.lookup(target.text) : catalog.lookupName(target.text);
  return { target, candidates: definitions.map(ofDefinition) };
}

/**
 * Resolves a consumer's targets. A consumer that names its assignment (an exemption resource, an enrollment) is
 * resolved through `assignmentsNamed` (the assignments of that name the host knows, already resolved), when
 * given: it then means what every one of them assigns.
 */
export function resolveConsumer(
  consumer: ConsumerModel,
  catalog: DefinitionCatalog | undefined,
  assignmentsNamed?: (name: string) => ResolvedConsumer[],
): ResolvedConsumer {
  if (!consumer.targets.length && consumer.assignmentId && assignmentsNamed) {
    const id = consumer.assignmentId.type === 'string' ? (consumer.assignmentId.value as string).trim() : '';
    const name = id.startsWith('[') ? '' : id.slice(id.lastIndexOf('/') + 1);
    const assignments = name && /\/policyAssignments\/[^/]+$/i.test(id) ? assignmentsNamed(name) : [];
    const targets = assignments.flatMap((a) => a.targets.map((t) => ({ ...t, viaAssignment: true })));
    return { consumer, targets, resolved: assignments.length > 0 && assignments.every((a) => a.resolved) };
  }
  const targets = consumer.targets.map((t) => resolveTarget(t, catalog));
  return { consumer, targets, resolved: targets.length > 0 && targets.every((t) => t.candidates.length > 0) };
}
