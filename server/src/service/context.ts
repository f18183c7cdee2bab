import type { ErrorObject } from 'ajv';
import type { ConsumerSite } from './consumers/breaks';
import { nodeAtPointer, valueOf, type Node, type ParsedJson } from './json';
import type { DocumentKind } from './model/documentKind';
import type { SetModel, ReferenceModel } from './model/policySet';
import { definitionsNamedBy, type DefinitionCatalog, type DefinitionInfo } from './definitions';
import { validateAgainst } from './schema/schemas';
import type { CapacityTable, SavedUsage } from './quota';
import type { TextEncodingName } from './json/encoding';
import { resolveConsumer, type ConsumerModel, type ResolvedConsumer } from './consumers';
import { libraryAssignmentsByName } from './consumers/libraryDefaults';

export interface SchemaError {
  /** ajv's error (verbose: `data` is the value it is about). */
  error: ErrorObject;
  node: Node;
}

export interface ValidationOptions {
  /** The document's URI (or path), for related information and for what its name says (`.jsonc`). */
  uri?: string;
  /** Known policy definitions, for the checks of referenced definitions. */
  definitions?: DefinitionCatalog;
  /**
   * The cloud whose definitions win when an index holds several variants of one ('AzureCloud',
   * 'AzureUSGovernment'); default AzureCloud. See cloudOfPath.
   */
  cloud?: string;
  /**
   * For deployment plans: the capacity-unit table (built in when absent) and the saved usage of the files the
   * plan or the settings name (read by the host; usage written in the plan itself is read from the plan).
   */
  quota?: { table?: CapacityTable; usages?: SavedUsage[] };
  /** Set when the bytes the text came from were not valid UTF-8 (see decodeUtf8). */
  encodingProblem?: { offset: number; byteOffset: number; byte: number };
  /** Set when the bytes were in another encoding than UTF-8 and decoded from it (see decodeText). */
  encoding?: TextEncodingName;
  /**
   * The set as it was (its committed text, or the file at a git revision): the version check
   * (version-not-bumped) compares the document with it. `label` names it in messages ('HEAD').
   */
  previous?: {
    text: string;
    label: string;
    referenceAdded?: 'minor' | 'major';
    referenceRemoved?: 'minor' | 'major';
    /** The consumers that may assign the set (`lint --against`: the files linted, or --consumers): the check says what the changes break. */
    consumers?: ConsumerSite[];
  };
  /** The time an exemption's `expiresOn` is compared with (milliseconds since 1970); the current time when absent. */
  now?: number;
  /**
   * The text is the policy-as-code framework's CSV parameter file, named by `uri`: the assignment files that
   * may name it (by its file name) are given here, and it is checked against the branches that do.
   */
  parameterFile?: { assignments: Array<{ uri: string; text: string }> };
  /**
   * For the landing-zone library's default values (`alz_policy_default_values.json`): the library's assignment
   * files (`*.alz_policy_assignment.json`), and whether they are all of them (false when the library depends on
   * another whose files are not given: an assignment not found among them is then not reported).
   */
  libraryAssignments?: { files: Array<{ uri: string; text: string }>; complete: boolean };
  /**
   * Assignment files (resources, templates) that the exemption resources and enrollments of the document may
   * name by their `policyAssignmentId` (matched by the assignment's name): their reference IDs are then checked
   * against the assignment's set. One object for a whole run (it is read once).
   */
  assignments?: { files: Array<{ uri: string; text: string }> };
}

/** What the rules see: the parsed document, its model, and analyses shared between rules (computed once). */
export interface ValidationContext {
  text: string;
  parsed: ParsedJson;
  kind: DocumentKind;
  sets: SetModel[];
  options: ValidationOptions;
  /** Schema errors of one set (ajv, all errors) with the node each is about; errors on deployment-time values are dropped. */
  schemaErrors(set: SetModel): SchemaError[];
  /** Variants of the referenced definition, when it is known. */
  definitionsOf(reference: ReferenceModel): DefinitionInfo[];
  /** The consumers of sets the document holds (assignments, exemptions). */
  consumers: ConsumerModel[];
  /** The consumers, each with the sets or definitions it assigns resolved through the catalogue (computed once). */
  resolvedConsumers(): ResolvedConsumer[];
}

/** The context for the document rules, and `forSet` for the set rules: plain objects, built once per validation. */
export function createValidationContext<R>(
  parsed: ParsedJson,
  kind: DocumentKind,
  sets: SetModel[],
  options: ValidationOptions,
  report: R,
  consumers: ConsumerModel[] = [],
): ValidationContext & { report: R; forSet(set: SetModel): ValidationContext & { report: R; set: SetModel } } {
  const schemaCache = new Map<SetModel, SchemaError[]>();
  const definitionCache = new Map<ReferenceModel, DefinitionInfo[]>();
  const schemaErrors = (set: SetModel) => {
    let errors = schemaCache.get(set);
    if (!errors) {
      errors = [];
      const { errors: found, base } = validateSet(set, parsed);
      for (const error of found) {
        if (set.inTemplate) {
          const node = nodeAtPointer(base, error.instancePath);
          if (node && !set.isDynamic(node)) errors.push({ error, node });
        } else {
          // Outside a template nothing is dynamic, and the value validated is the tree's: every error's node
          // exists. It is looked up when a rule reads it (many errors are about casing only a hint reports).
          errors.push(lazySchemaError(error, base));
        }
      }
      schemaCache.set(set, errors);
    }
    return errors;
  };
  const definitionsOf = (reference: ReferenceModel) => {
    let found = definitionCache.get(reference);
    if (!found) {
      const id = reference.idNode?.type === 'string' ? (reference.idNode.value as string) : undefined;
      const name = !reference.idNode && reference.nameNode?.type === 'string' ? (reference.nameNode.value as string) : undefined;
      // An ID that is not a string names nothing.
      found = reference.idNode && !id ? [] : definitionsNamedBy(options.definitions, id, name, reference.idKey);
      definitionCache.set(reference, found);
    }
    return found;
  };
  let resolved: ResolvedConsumer[] | undefined;
  const assignmentsNamed = options.assignments
    ? (name: string) =>
        (libraryAssignmentsByName(options.assignments!, options.definitions).get(name.toLowerCase()) ?? []).map((a) => a.resolved)
    : undefined;
  const resolvedConsumers = () => (resolved ??= consumers.map((c) => resolveConsumer(c, options.definitions, assignmentsNamed)));
  const text = parsed.text;
  return {
    text,
    parsed,
    kind,
    sets,
    options,
    schemaErrors,
    definitionsOf,
    consumers,
    resolvedConsumers,
    report,
    forSet: (set) => ({ text, parsed, kind, sets, options, schemaErrors, definitionsOf, consumers, resolvedConsumers, report, set }),
  };
}

function lazySchemaError(error: ErrorObject, base: Node | undefined): SchemaError {
  let node: Node | undefined;
  return {
    error,
    get node() {
      node ??= nodeAtPointer(base, error.instancePath)!;
      return node;
    },
  };
}

/** The keys of a template resource beside `name`, `type` and `properties` (lowercased). */
const RESOURCE_KEYS = new Set(['apiversion', 'scope', 'location', 'dependson', 'condition', 'comments', 'copy']);

/** Validates a set with its schema; error paths are relative to the node returned with them. */
function validateSet(set: SetModel, parsed: ParsedJson): { errors: ErrorObject[]; base: Node | undefined } {
  if (set.fragment) {
    // A resource outside its template: the whole resource is ours, with the resource keys a template takes.
    const errors = validateAgainst(set.kind, parsed.value()).filter(
      (e) =>
        !(
          e.keyword === 'additionalProperties' &&
          e.instancePath === '' &&
          RESOURCE_KEYS.has((e.params as { additionalProperty: string }).additionalProperty.toLowerCase())
        ),
    );
    return { errors, base: parsed.root };
  }
  if (set.inTemplate) {
    // In a template, only the properties are ours to check; the resource envelope is the template's.
    if (!set.properties) return { errors: [], base: undefined };
    const target = set.kind === 'policySetDefinition' ? 'setProperties' : 'versionProperties';
    return { errors: validateAgainst(target, valueOf(set.properties)), base: set.properties };
  }
  const errors = validateAgainst(set.kind, parsed.value());
  return { errors: set.policyAsCode ? errors.filter((e) => !takenByPolicyAsCode(e, parsed.value())) : errors, base: parsed.root };
}

/**
 * What the policy-as-code framework adds to the set's shape: a reference names its definition by
 * `policyDefinitionName` instead of `policyDefinitionId` (both at once is PS4004), and the set may import
 * groups (`importPolicyDefinitionGroups`). The framework sends the set with the ID it builds.
 */
function takenByPolicyAsCode(error: ErrorObject, value: unknown): boolean {
  const isReference = /^\/properties\/policyDefinitions\/\d+$/.test(error.instancePath);
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    return (
      (isReference && key === 'policyDefinitionName') || (error.instancePath === '/properties' && key === 'importPolicyDefinitionGroups')
    );
  }
  if (
    error.keyword === 'required' &&
    isReference &&
    (error.params as { missingProperty: string }).missingProperty === 'policyDefinitionId'
  ) {
    const index = Number(error.instancePath.slice(error.instancePath.lastIndexOf('/') + 1));
    const references = (value as { properties?: { policyDefinitions?: unknown[] } }).properties?.policyDefinitions;
    const reference = references?.[index] as Record<string, unknown> | undefined;
    return reference?.['policyDefinitionName'] !== undefined;
  }
  return false;
}
