import { entries, propertyIgnoreCase, stringValue, valueOf, type Node } from '../json';
import type { ParameterDecl, ReferenceModel, SetModel } from '../model/policySet';
import { definitionsNamedBy, variantFor, type DefinitionCatalog, type DefinitionInfo } from '../definitions';
import { customDefinitionName } from '../definitionIds';
import { templateOutputOf } from '../expressions';
import { maxBump, bumpRank, checkVersions, type Bump } from './version';
import type { Location, SetSide } from './side';

/**
 * What a change is. Each kind has one bump (see BUMP_OF and docs/versions.md for the reasons), except
 * `reference-added`, whose bump is a setting: the service's documentation says both.
 */
export type ChangeKind =
  // major: existing assignments break, or their compliance results are no longer about the same thing
  | 'parameter-removed'
  | 'parameter-renamed'
  | 'parameter-type-changed'
  | 'parameter-added-without-default'
  | 'allowed-values-narrowed'
  | 'default-value-removed'
  | 'parameter-schema-changed'
  | 'set-removed'
  | 'reference-removed'
  | 'reference-id-changed'
  | 'definition-version-major-changed'
  | 'group-removed-while-named'
  | 'enforcement-default-added'
  // minor: existing assignments keep working; what they enforce may grow
  | 'parameter-added-with-default'
  | 'allowed-values-widened'
  | 'default-value-added'
  | 'default-value-changed'
  | 'reference-added'
  | 'reference-parameters-changed'
  | 'definition-version-changed'
  | 'group-added'
  | 'group-removed'
  | 'definition-id-changed'
  // patch: words and metadata
  | 'display-name-changed'
  | 'description-changed'
  | 'metadata-changed'
  | 'policy-type-changed'
  | 'parameter-metadata-changed'
  | 'group-metadata-changed'
  | 'reference-groups-changed'
  | 'allowed-values-unusable-removed';

export const BUMP_OF: Record<ChangeKind, Bump> = {
  'parameter-removed': 'major',
  'parameter-renamed': 'major',
  'parameter-type-changed': 'major',
  'parameter-added-without-default': 'major',
  'allowed-values-narrowed': 'major',
  'default-value-removed': 'major',
  'parameter-schema-changed': 'major',
  'set-removed': 'major',
  'reference-removed': 'major',
  'reference-id-changed': 'major',
  'definition-version-major-changed': 'major',
  'group-removed-while-named': 'major',
  'enforcement-default-added': 'major',
  'parameter-added-with-default': 'minor',
  'allowed-values-widened': 'minor',
  'default-value-added': 'minor',
  'default-value-changed': 'minor',
  'reference-added': 'minor',
  'reference-parameters-changed': 'minor',
  'definition-version-changed': 'minor',
  'group-added': 'minor',
  'group-removed': 'minor',
  'definition-id-changed': 'minor',
  'display-name-changed': 'patch',
  'description-changed': 'patch',
  'metadata-changed': 'patch',
  'policy-type-changed': 'patch',
  'parameter-metadata-changed': 'patch',
  'group-metadata-changed': 'patch',
  'reference-groups-changed': 'patch',
  'allowed-values-unusable-removed': 'patch',
};

export interface Change {
  kind: ChangeKind;
  bump: Bump;
  message: string;
  /** Where it is: in the new file, or in the old one for what the new one no longer has. */
  side: 'old' | 'new';
  location: Location;
  /** The other end (the old declaration of a renamed or changed thing), when there is one. */
  previous?: Location;
  /**
   * Where the change shows in the new file: its location, or for what the new file no longer has, the
   * place it was taken from (the parameters, references or groups that held it).
   */
  inNew?: Location;
  /** What the old set's consumers name that the change takes away: a parameter (removed, renamed) or a reference ID. */
  subject?: { what: 'parameter' | 'referenceId'; name: string };
  /** The consumers it breaks, when they were looked for (`policyset diff --consumers`): file and 1-based line. */
  breaks?: Array<{ file: string; line: number }>;
}

export interface CompareOptions {
  /**
   * The bump a reference added asks for. The service's documentation lists "adding or moving definitions
   * within an initiative" among minor changes, and "adding an enforcement effect by default" among major
   * ones (docs/versions.md cites both): minor by default.
   */
  referenceAdded?: 'minor' | 'major';
  /**
   * The bump a reference removed asks for: major by default (assignments' overrides, exemptions and
   * non-compliance messages name references by their ID); the documentation lists "moving definitions
   * within or out of an initiative" among minor changes, so a team may say minor.
   */
  referenceRemoved?: 'minor' | 'major';
  /**
   * Known definitions (an index of built-ins, the repository's custom definitions): with them a definition
   * replaced under a kept reference ID is classified by its default effect, and values removed from a
   * parameter's allowedValues that no referenced definition accepted are not a break.
   */
  definitions?: DefinitionCatalog;
  /** The cloud to prefer among an index's variants. */
  cloud?: string;
}

export interface ChangeReport {
  /** The old side; `name`: the set's name (the set part of a template's '<set>/<version>'), which its consumers name. */
  old: { file: string; version: string | undefined; name?: string } | undefined;
  new: { file: string; version: string | undefined } | undefined;
  requiredBump: Bump;
  suggestedVersion: string | undefined;
  versionOk: boolean | null;
  /** Why the version check failed or was not made. */
  versionProblem: string | undefined;
  changes: Change[];
  /** Where the new side's version is written (for a diagnostic and its quick fix). */
  versionLocation: Location | undefined;
  /** What a marker on a version (`-deprecated`, `-preview`) is, when either side has one. */
  versionNote?: string;
}

/** Values compared as JSON: key order and formatting play no part; in a template '[[' is the set's own '['. */
function canonical(value: unknown, inTemplate: boolean): unknown {
  if (typeof value === 'string') return inTemplate ? (templateOutputOf(value) ?? value) : value;
  if (Array.isArray(value)) return value.map((v) => canonical(v, inTemplate));
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) result[key] = canonical((value as Record<string, unknown>)[key], inTemplate);
    return result;
  }
  return value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const SHOWN = 80;

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > SHOWN ? text.slice(0, SHOWN - 3) + '...' : text;
};

/**
 * Two values that differ, each cut to a window around the first character where they differ (a long
 * description changed near its end shows its end on both sides, never the same beginning twice).
 */
export function showPair(a: unknown, b: unknown): [string, string] {
  const left = JSON.stringify(a) ?? 'undefined';
  const right = JSON.stringify(b) ?? 'undefined';
  if (left.length <= SHOWN && right.length <= SHOWN) return [left, right];
  let first = 0;
  while (first < left.length && first < right.length && left[first] === right[first]) first++;
  const start = Math.max(0, first - 30);
  const cut = (text: string) => {
    const window = text.slice(start, start + SHOWN - 6);
    return `${start > 0 ? '...' : ''}${window}${start + SHOWN - 6 < text.length ? '...' : ''}`;
  };
  return [cut(left), cut(right)];
}

/** The effects that enforce (deny, deploy, change or append), against those that only report or do nothing. */
const ENFORCING = new Set(['deny', 'denyaction', 'deployifnotexists', 'modify', 'append']);
const REPORTING = new Set(['audit', 'auditifnotexists', 'disabled', 'manual']);
const effectOf = (value: unknown): 'enforcing' | 'reporting' | undefined =>
  typeof value === 'string'
    ? ENFORCING.has(value.toLowerCase())
      ? 'enforcing'
      : REPORTING.has(value.toLowerCase())
        ? 'reporting'
        : undefined
    : undefined;

/** Property lookups that read the service's case-insensitive keys, canonicalised for the side. */
function field(side: SetSide, node: Node | undefined, key: string): { node: Node | undefined; value: unknown } {
  const found = propertyIgnoreCase(node, key);
  return { node: found, value: found === undefined ? undefined : canonical(valueOf(found), side.set.inTemplate) };
}

/**
 * What a reference names, for matching and comparing: a custom definition by its name alone (its scope is
 * a management group, a subscription, a `${placeholder}`, `{placeholder}` or an expression filled in at
 * deployment: a scope swapped is the same definition), a built-in by its ID, a policy-as-code name by name.
 */
function definitionKey(reference: ReferenceModel): string | undefined {
  const id = stringValue(reference.idNode);
  const custom = id === undefined ? undefined : customDefinitionName(id.startsWith('[[') ? id.slice(1) : id);
  if (custom !== undefined) return `custom:${custom.toLowerCase()}`;
  if (reference.idKey) return reference.idKey;
  const name = stringValue(reference.nameNode);
  return name === undefined ? undefined : `name:${name.toLowerCase()}`;
}

function describeReference(reference: ReferenceModel): string {
  const refId = stringValue(reference.refIdNode);
  if (refId !== undefined) return `'${refId}'`;
  const id = stringValue(reference.idNode) ?? stringValue(reference.nameNode);
  return id ? `of '${id.split('/').pop()}'` : `#${reference.index + 1}`;
}

const PARAMETER_CALL = /parameters\(\s*'([^']*)'\s*\)/gi;

/** How a set parameter is used: each reference parameter it feeds, with the expression written around it. */
function usesOf(set: SetModel, parameterLower: string): string[] {
  const found: string[] = [];
  for (const use of set.parameterUses) {
    if (use.lower !== parameterLower) continue;
    const key = use.reference.refIdLower ?? definitionKey(use.reference) ?? String(use.reference.index);
    const holder =
      use.node.parent?.parent?.parent?.type === 'property' ? String(use.node.parent.parent.parent.children?.[0]?.value).toLowerCase() : '';
    const expression = String(use.node.value).replace(PARAMETER_CALL, (all, name: string) =>
      name.toLowerCase() === parameterLower ? 'parameters(*)' : all.toLowerCase(),
    );
    found.push(`${key}|${holder}|${expression}`);
  }
  return found.sort();
}

function allowedList(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** Compares two sides of one set. */
export function compareSets(oldSide: SetSide | undefined, newSide: SetSide | undefined, options: CompareOptions = {}): ChangeReport {
  const changes: Change[] = [];
  const anchorOf = (kind: ChangeKind): Location | undefined => {
    if (!newSide) return undefined;
    const n = newSide.set;
    const node =
      kind === 'parameter-removed'
        ? n.parametersNode
        : kind === 'reference-removed'
          ? n.referencesNode
          : kind === 'group-removed' || kind === 'group-removed-while-named'
            ? n.groupsNode
            : undefined;
    return newSide.locate(node ?? n.properties ?? n.resource);
  };
  const add = (
    kind: ChangeKind,
    side: 'old' | 'new',
    location: Location,
    message: string,
    previous?: Location,
    bump?: Bump,
    subject?: Change['subject'],
  ) =>
    changes.push({
      kind,
      bump: bump ?? BUMP_OF[kind],
      message,
      side,
      location,
      ...(previous ? { previous } : {}),
      ...(side === 'new' ? { inNew: location } : anchorOf(kind) ? { inNew: anchorOf(kind) } : {}),
      ...(subject ? { subject } : {}),
    });
  const referenceAddedBump: Bump = options.referenceAdded ?? 'minor';

  if (oldSide && newSide) diffSets(oldSide, newSide, add, referenceAddedBump, options);
  else if (oldSide && !newSide) {
    // A set that is new (no old side) has nothing to break: no change. One that is gone breaks every assignment.
    add('set-removed', 'old', oldSide.locate(oldSide.set.resource), 'The set is removed: every assignment of it breaks');
  }

  changes.sort(
    (a, b) =>
      bumpRank(b.bump) - bumpRank(a.bump) ||
      (a.side === b.side ? a.location.range.start.line - b.location.range.start.line : a.side === 'new' ? -1 : 1),
  );
  const requiredBump = changes.reduce<Bump>((bump, change) => maxBump(bump, change.bump), 'none');
  const check =
    oldSide && newSide
      ? checkVersions(oldSide.version?.text, newSide.version?.text, requiredBump, { markers: true })
      : { ok: null, suggested: undefined, problem: undefined, note: undefined };
  return {
    old: oldSide ? { file: oldSide.file, version: oldSide.version?.text, name: oldSide.name?.split('/')[0] } : undefined,
    new: newSide ? { file: newSide.file, version: newSide.version?.text } : undefined,
    requiredBump,
    suggestedVersion: check.suggested,
    versionOk: check.ok,
    versionProblem: check.problem,
    changes,
    versionLocation: newSide?.version ? newSide.locate(newSide.version.node) : undefined,
    ...(check.note ? { versionNote: check.note } : {}),
  };
}

type Add = (
  kind: ChangeKind,
  side: 'old' | 'new',
  location: Location,
  message: string,
  previous?: Location,
  bump?: Bump,
  subject?: Change['subject'],
) => void;

function diffSets(oldSide: SetSide, newSide: SetSide, add: Add, referenceAddedBump: Bump, options: CompareOptions): void {
  const o = oldSide.set;
  const n = newSide.set;
  const at = (side: SetSide, node: Node | undefined) => side.locate(node ?? side.set.properties ?? side.set.resource);

  // The set's own words and metadata (the version itself is not a change).
  for (const [key, kind] of [
    ['displayName', 'display-name-changed'],
    ['description', 'description-changed'],
    ['policyType', 'policy-type-changed'],
  ] as const) {
    const a = field(oldSide, o.properties, key);
    const b = field(newSide, n.properties, key);
    if (!same(a.value, b.value)) {
      const [before, after] = showPair(a.value, b.value);
      add(kind, 'new', at(newSide, b.node), `The set's ${key} changed from ${before} to ${after}`);
    }
  }
  const metadataOf = (side: SetSide) => {
    const { node, value } = field(side, side.set.properties, 'metadata');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { node, value };
    const copy = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(copy)) if (key.toLowerCase() === 'version') delete copy[key];
    return { node, value: copy };
  };
  const oldMetadata = metadataOf(oldSide);
  const newMetadata = metadataOf(newSide);
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  const oldValue = oldMetadata.value ?? {};
  const newValue = newMetadata.value ?? {};
  if (!isObject(oldValue) || !isObject(newValue)) {
    // Metadata that is no object (a string, a list) has no keys to name: say what it was and is.
    if (!same(oldValue, newValue)) {
      const [before, after] = showPair(oldMetadata.value, newMetadata.value);
      add('metadata-changed', 'new', at(newSide, newMetadata.node), `The set's metadata changed from ${before} to ${after}`);
    }
  } else if (!same(oldValue, newValue)) {
    const before = oldValue as Record<string, unknown>;
    const after = newValue as Record<string, unknown>;
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !same(before[k], after[k]));
    add(
      'metadata-changed',
      'new',
      at(newSide, newMetadata.node),
      `The set's metadata changed (${changed.map((k) => `'${k}'`).join(', ')})`,
    );
  }

  const renames = diffParameters(oldSide, newSide, add, options);
  diffGroups(oldSide, newSide, add);
  diffReferences(oldSide, newSide, add, referenceAddedBump, renames, options);
}

/** Returns the renames found (old lowercased name -> new name). */
function diffParameters(oldSide: SetSide, newSide: SetSide, add: Add, options: CompareOptions): Map<string, string> {
  const o = oldSide.set;
  const n = newSide.set;
  const removed: ParameterDecl[] = [];
  const added: ParameterDecl[] = [];
  for (const parameter of o.parameters) if (n.parametersByLower.get(parameter.name.toLowerCase()) === undefined) removed.push(parameter);
  for (const parameter of n.parameters) if (o.parametersByLower.get(parameter.name.toLowerCase()) === undefined) added.push(parameter);

  // A rename: one removed and one added of the same type, used in the same places in the same way.
  const renames = new Map<string, string>();
  for (const old of [...removed]) {
    const uses = usesOf(o, old.name.toLowerCase());
    if (!uses.length) continue;
    const match = added.find((candidate) => candidate.type === old.type && same(usesOf(n, candidate.name.toLowerCase()), uses));
    if (!match) continue;
    removed.splice(removed.indexOf(old), 1);
    added.splice(added.indexOf(match), 1);
    renames.set(old.name.toLowerCase(), match.name);
    add(
      'parameter-renamed',
      'new',
      newSide.locate(match.node ?? match.keyNode),
      `Parameter '${old.name}' is renamed to '${match.name}': assignments that pass '${old.name}' fail until they pass '${match.name}' instead`,
      oldSide.locate(old.node ?? old.keyNode),
      undefined,
      { what: 'parameter', name: old.name },
    );
    compareParameter(oldSide, newSide, old, match, add, options);
  }
  for (const parameter of removed) {
    add(
      'parameter-removed',
      'old',
      oldSide.locate(parameter.node ?? parameter.keyNode),
      `Parameter '${parameter.name}' is removed: assignments that pass it fail`,
      undefined,
      undefined,
      { what: 'parameter', name: parameter.name },
    );
  }
  for (const parameter of added) {
    const hasDefault = propertyIgnoreCase(parameter.node, 'defaultValue') !== undefined;
    if (hasDefault)
      add(
        'parameter-added-with-default',
        'new',
        newSide.locate(parameter.node ?? parameter.keyNode),
        `Parameter '${parameter.name}' is added with a defaultValue: existing assignments get the default`,
      );
    else
      add(
        'parameter-added-without-default',
        'new',
        newSide.locate(parameter.node ?? parameter.keyNode),
        `Parameter '${parameter.name}' is added without a defaultValue: existing assignments do not pass it and fail`,
      );
  }
  for (const parameter of n.parameters) {
    const old = o.parametersByLower.get(parameter.name.toLowerCase());
    if (old && n.parametersByLower.get(parameter.name.toLowerCase()) === parameter)
      compareParameter(oldSide, newSide, old, parameter, add, options);
  }
  return renames;
}

/**
 * The allowed values of the definition parameters a set parameter feeds (`[parameters('x')]` as a
 * reference parameter's whole value), on one side: undefined when any use is not known that way (no
 * definitions, a definition not found, a parameter without allowedValues, an expression around the call).
 */
function acceptedByDefinitions(side: SetSide, parameter: ParameterDecl, options: CompareOptions): unknown[][] | undefined {
  if (!options.definitions) return undefined;
  const lower = parameter.name.toLowerCase();
  const lists: unknown[][] = [];
  for (const use of side.set.parameterUses) {
    if (use.lower !== lower) continue;
    const value = String(use.node.value).replace(/^\[\[/, '[');
    if (!/^\[\s*parameters\(\s*'[^']*'\s*\)\s*\]$/i.test(value)) return undefined;
    const holder =
      use.node.parent?.parent?.parent?.type === 'property' ? String(use.node.parent.parent.parent.children?.[0]?.value) : undefined;
    const definition = definitionOf(use.reference, options);
    const accepted = holder === undefined ? undefined : definition?.parameters.get(holder.toLowerCase())?.allowedValues;
    if (!accepted) return undefined;
    lists.push(accepted);
  }
  return lists.length ? lists : undefined;
}

function definitionOf(reference: ReferenceModel, options: CompareOptions): DefinitionInfo | undefined {
  if (!options.definitions) return undefined;
  const id = stringValue(reference.idNode);
  return variantFor(
    definitionsNamedBy(options.definitions, id?.startsWith('[[') ? id.slice(1) : id, stringValue(reference.nameNode), reference.idKey),
    options.cloud,
  );
}

const sameValue = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : same(a, b);

function compareParameter(
  oldSide: SetSide,
  newSide: SetSide,
  old: ParameterDecl,
  next: ParameterDecl,
  add: Add,
  options: CompareOptions,
): void {
  const a = (key: string) => field(oldSide, old.node, key);
  const b = (key: string) => field(newSide, next.node, key);
  const here = (node: Node | undefined) => newSide.locate(node ?? next.node ?? next.keyNode);
  const name = next.name;

  const oldType = a('type');
  const newType = b('type');
  if (String(oldType.value ?? '').toLowerCase() !== String(newType.value ?? '').toLowerCase()) {
    add(
      'parameter-type-changed',
      'new',
      here(newType.node),
      `Parameter '${name}' changes type from ${show(oldType.value)} to ${show(newType.value)}: values assignments pass may no longer fit`,
    );
  }

  const oldAllowed = allowedList(a('allowedValues').value);
  const newAllowedField = b('allowedValues');
  const newAllowed = allowedList(newAllowedField.value);
  if (oldAllowed || newAllowed) {
    const removedValues = oldAllowed ? oldAllowed.filter((v) => !(newAllowed ?? oldAllowed).some((w) => same(v, w))) : [];
    const addedValues = newAllowed ? newAllowed.filter((v) => !(oldAllowed ?? []).some((w) => same(v, w))) : [];
    // Values no definition the parameter feeds ever accepted: no assignment could pass them and work.
    const accepted =
      (oldAllowed && removedValues.length) || (!oldAllowed && newAllowed) ? acceptedByDefinitions(oldSide, old, options) : undefined;
    const neverAccepted = (values: unknown[]) =>
      !!accepted && values.every((v) => accepted.every((list) => !list.some((w) => sameValue(v, w))));
    const narrowedTo =
      !oldAllowed && newAllowed && accepted ? accepted.every((list) => list.every((w) => newAllowed.some((v) => sameValue(v, w)))) : false;
    if (!oldAllowed && newAllowed && narrowedTo) {
      add(
        'allowed-values-unusable-removed',
        'new',
        here(newAllowedField.node),
        `Parameter '${name}' now restricts its values to ${show(newAllowed)}, every value the definitions it feeds accept: no assignment could pass another and work`,
      );
    } else if (!oldAllowed && newAllowed) {
      add(
        'allowed-values-narrowed',
        'new',
        here(newAllowedField.node),
        `Parameter '${name}' now restricts its values to ${show(newAllowed)}: assignments that pass other values fail`,
      );
    } else if (removedValues.length && neverAccepted(removedValues)) {
      add(
        'allowed-values-unusable-removed',
        'new',
        here(newAllowedField.node),
        `Parameter '${name}' no longer allows ${removedValues.map(show).join(', ')}, which no definition it feeds accepts: no assignment could pass ${removedValues.length === 1 ? 'it' : 'them'} and work`,
      );
    } else if (removedValues.length) {
      add(
        'allowed-values-narrowed',
        'new',
        here(newAllowedField.node),
        `Parameter '${name}' no longer allows ${removedValues.map(show).join(', ')}: assignments that pass ${removedValues.length === 1 ? 'it' : 'them'} fail`,
      );
    } else if (oldAllowed && !newAllowed) {
      add('allowed-values-widened', 'new', here(undefined), `Parameter '${name}' no longer restricts its values`);
    } else if (addedValues.length) {
      add(
        'allowed-values-widened',
        'new',
        here(newAllowedField.node),
        `Parameter '${name}' now also allows ${addedValues.map(show).join(', ')}`,
      );
    }
  }

  const oldDefault = a('defaultValue');
  const newDefault = b('defaultValue');
  if (oldDefault.node && !newDefault.node) {
    add(
      'default-value-removed',
      'new',
      here(undefined),
      `Parameter '${name}' loses its defaultValue ${show(oldDefault.value)}: assignments that relied on it do not pass a value and fail`,
      oldSide.locate(oldDefault.node),
    );
  } else if (!oldDefault.node && newDefault.node) {
    add('default-value-added', 'new', here(newDefault.node), `Parameter '${name}' gains the defaultValue ${show(newDefault.value)}`);
  } else if (
    oldDefault.node &&
    newDefault.node &&
    effectOf(oldDefault.value) === 'reporting' &&
    effectOf(newDefault.value) === 'enforcing'
  ) {
    // The versioning documentation lists "adding an enforcement effect by default" as major.
    add(
      'enforcement-default-added',
      'new',
      here(newDefault.node),
      `Parameter '${name}' changes its defaultValue from ${show(oldDefault.value)} to ${show(newDefault.value)}: assignments that do not pass '${name}' start to enforce ${show(newDefault.value)} (an enforcement effect added by default)`,
      oldSide.locate(oldDefault.node),
    );
  } else if (oldDefault.node && newDefault.node && !same(oldDefault.value, newDefault.value)) {
    add(
      'default-value-changed',
      'new',
      here(newDefault.node),
      `Parameter '${name}' changes its defaultValue from ${show(oldDefault.value)} to ${show(newDefault.value)}: assignments that do not pass '${name}' now get ${show(newDefault.value)}`,
      oldSide.locate(oldDefault.node),
    );
  }

  const oldSchema = a('schema');
  const newSchema = b('schema');
  if (!same(oldSchema.value, newSchema.value)) {
    add(
      'parameter-schema-changed',
      'new',
      here(newSchema.node),
      `Parameter '${name}' changes its schema: objects assignments pass may no longer validate`,
    );
  }

  const oldMetadata = a('metadata');
  const newMetadata = b('metadata');
  if (!same(oldMetadata.value, newMetadata.value)) {
    add(
      'parameter-metadata-changed',
      'new',
      here(newMetadata.node),
      `Parameter '${name}' changes its metadata (display name, description, strongType and the like)`,
    );
  }
}

function diffGroups(oldSide: SetSide, newSide: SetSide, add: Add): void {
  const o = oldSide.set;
  const n = newSide.set;
  const named = (set: SetModel, lower: string) => set.groupUses.some((use) => use.lower === lower);
  for (const group of o.groups) {
    const lower = group.name.toLowerCase();
    if (o.groupsByLower.get(lower) !== group) continue;
    const next = n.groupsByLower.get(lower);
    if (!next) {
      if (n.groupsDynamic) continue;
      // Assignments, exemptions and overrides name references, never groups: a group removed (or renamed)
      // changes how compliance is grouped. A group the new set's references still name is another matter:
      // the set no longer holds together.
      if (named(n, lower)) {
        add(
          'group-removed-while-named',
          'old',
          oldSide.locate(group.node),
          `Group '${group.name}' is removed while references of the new set still name it: the set refers to a group it does not declare`,
        );
      } else {
        add(
          'group-removed',
          'old',
          oldSide.locate(group.node),
          `Group '${group.name}' is removed: compliance grouped by it is grouped otherwise (no assignment names a group)`,
        );
      }
      continue;
    }
    const fields = ['displayName', 'description', 'category', 'additionalMetadataId'].filter(
      (key) => !same(field(oldSide, group.node, key).value, field(newSide, next.node, key).value),
    );
    if (fields.length)
      add('group-metadata-changed', 'new', newSide.locate(next.node), `Group '${next.name}' changes its ${fields.join(', ')}`);
  }
  for (const group of n.groups) {
    const lower = group.name.toLowerCase();
    if (n.groupsByLower.get(lower) === group && !o.groupsByLower.has(lower) && !o.groupsDynamic)
      add('group-added', 'new', newSide.locate(group.node), `Group '${group.name}' is added`);
  }
}

function diffReferences(
  oldSide: SetSide,
  newSide: SetSide,
  add: Add,
  referenceAddedBump: Bump,
  renames: Map<string, string>,
  options: CompareOptions,
): void {
  const o = oldSide.set;
  const n = newSide.set;
  if (o.referencesNode && o.isDynamic(o.referencesNode)) return;
  const unmatchedOld = new Set(o.references);
  const unmatchedNew = new Set(n.references);
  const pairs: Array<[ReferenceModel, ReferenceModel]> = [];
  /** The old references by a key, in order, for matching (sets hold up to about a thousand references). */
  const byKey = (key: (r: ReferenceModel) => string | undefined) => {
    const map = new Map<string, ReferenceModel[]>();
    for (const r of o.references) {
      const k = key(r);
      if (k !== undefined) map.set(k, [...(map.get(k) ?? []), r]);
    }
    return (k: string) => map.get(k)?.find((r) => unmatchedOld.has(r));
  };
  // First by policyDefinitionReferenceId (what assignments name), then by what the reference names.
  const byRefId = byKey((r) => r.refIdLower);
  const referenceRemovedBump: Bump = options.referenceRemoved ?? 'major';
  for (const next of n.references) {
    if (!next.refIdLower) continue;
    const old = byRefId(next.refIdLower);
    if (old) {
      pairs.push([old, next]);
      unmatchedOld.delete(old);
      unmatchedNew.delete(next);
    }
  }
  const byDefinition = byKey(definitionKey);
  for (const next of [...unmatchedNew]) {
    const key = definitionKey(next);
    if (!key) continue;
    const old = byDefinition(key);
    if (!old) continue;
    unmatchedOld.delete(old);
    unmatchedNew.delete(next);
    const oldRefId = stringValue(old.refIdNode);
    const newRefId = stringValue(next.refIdNode);
    if (oldRefId !== newRefId) {
      const message =
        oldRefId === undefined
          ? `The reference to '${key
              .replace(/^(custom|name):/, '')
              .split('/')
              .pop()}' gains the reference ID '${newRefId}': the ID the service generated, which assignments' overrides, exemptions and non-compliance messages name, is replaced`
          : newRefId === undefined
            ? `Reference ID '${oldRefId}' is removed: the service generates another one, and assignments' overrides, exemptions and non-compliance messages that name '${oldRefId}' lose it`
            : `Reference ID '${oldRefId}' is renamed to '${newRefId}': assignments' overrides, exemptions and non-compliance messages that name '${oldRefId}' lose it`;
      add(
        'reference-id-changed',
        'new',
        newSide.locate(next.refIdNode ?? next.node),
        message,
        oldSide.locate(old.refIdNode ?? old.node),
        undefined,
        oldRefId === undefined ? undefined : { what: 'referenceId', name: oldRefId },
      );
    }
    pairs.push([old, next]);
  }
  for (const old of unmatchedOld) {
    add(
      'reference-removed',
      'old',
      oldSide.locate(old.node),
      `Reference ${describeReference(old)} is removed: assignments' overrides, exemptions and non-compliance messages that name it lose it${referenceRemovedBump === 'minor' ? " (a minor change by this project's setting)" : ''}`,
      undefined,
      referenceRemovedBump,
      stringValue(old.refIdNode) === undefined ? undefined : { what: 'referenceId', name: stringValue(old.refIdNode)! },
    );
  }
  for (const next of unmatchedNew) {
    add(
      'reference-added',
      'new',
      newSide.locate(next.node),
      `Reference ${describeReference(next)} is added: every assignment of the set now evaluates it${referenceAddedBump === 'major' ? " (a major change by this project's setting)" : ''}`,
      undefined,
      referenceAddedBump,
    );
  }

  for (const [old, next] of pairs) {
    const name = describeReference(next);
    const oldKey = definitionKey(old);
    const newKey = definitionKey(next);
    if (oldKey && newKey && oldKey !== newKey && !oldKey.startsWith('name:') && !newKey.startsWith('name:')) {
      replacedDefinition(oldSide, newSide, old, next, name, add, options);
    }
    const oldVersion = stringValue(old.definitionVersionNode);
    const newVersion = stringValue(next.definitionVersionNode);
    if (oldVersion !== newVersion) {
      const majorOf = (v: string | undefined) => (v === undefined ? undefined : /^(\d+)\./.exec(v)?.[1]);
      const oldMajor = majorOf(oldVersion);
      const newMajor = majorOf(newVersion);
      if (oldMajor !== undefined && newMajor !== undefined && oldMajor !== newMajor) {
        add(
          'definition-version-major-changed',
          'new',
          newSide.locate(next.definitionVersionNode ?? next.node),
          `Reference ${name} moves from definitionVersion '${oldVersion}' to '${newVersion}', another major version of the definition`,
        );
      } else {
        add(
          'definition-version-changed',
          'new',
          newSide.locate(next.definitionVersionNode ?? next.node),
          `Reference ${name} changes its definitionVersion from ${show(oldVersion ?? null)} to ${show(newVersion ?? null)}`,
        );
      }
    }
    // Each parameter call is compared as `parameters('<name>')`, lowercased (names are case-insensitive), and the old
    // set's calls of a renamed parameter as calls of its new name: spacing, casing and a rename alone pass the same values.
    const calls = (value: unknown, renamed: boolean): unknown =>
      typeof value === 'string'
        ? value.replace(PARAMETER_CALL, (_all, p: string) => {
            const name = p.toLowerCase();
            return `parameters('${((renamed ? renames.get(name) : undefined) ?? name).toLowerCase()}')`;
          })
        : Array.isArray(value)
          ? value.map((v) => calls(v, renamed))
          : value && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, calls(v, renamed)]))
            : value;
    const valuesOf = (side: SetSide, reference: ReferenceModel, renamed: boolean) => {
      const map: Record<string, unknown> = {};
      for (const entry of entries(reference.parametersNode)) {
        map[entry.key.toLowerCase()] = calls(canonical(valueOf(entry.valueNode), side.set.inTemplate), renamed);
      }
      return canonical(map, false);
    };
    if (!same(valuesOf(oldSide, old, true), valuesOf(newSide, next, false))) {
      add(
        'reference-parameters-changed',
        'new',
        newSide.locate(next.parametersNode ?? next.node),
        `Reference ${name} passes other parameter values to its definition`,
      );
    }
    const groupsOf = (side: SetSide, reference: ReferenceModel) => {
      const value = canonical(valueOf(reference.groupNamesNode), side.set.inTemplate);
      return Array.isArray(value) ? value.map((v) => String(v).toLowerCase()).sort() : value;
    };
    if (!same(groupsOf(oldSide, old), groupsOf(newSide, next))) {
      add('reference-groups-changed', 'new', newSide.locate(next.groupNamesNode ?? next.node), `Reference ${name} changes its groupNames`);
    }
  }
}

/**
 * A reference that keeps its reference ID but names another definition. The versioning documentation
 * lists "adding or moving definitions within or out of an initiative" as minor and "adding an enforcement
 * effect by default" as major: with the definitions known, the default effect each side evaluates is
 * compared (the value the reference passes to `effect`, else the definition's own default); without them,
 * minor, and the message says what was not compared.
 */
function replacedDefinition(
  oldSide: SetSide,
  newSide: SetSide,
  old: ReferenceModel,
  next: ReferenceModel,
  name: string,
  add: Add,
  options: CompareOptions,
): void {
  const where = newSide.locate(next.idNode ?? next.node);
  const previous = oldSide.locate(old.idNode ?? old.node);
  const [before, after] = showPair(stringValue(old.idNode) ?? '', stringValue(next.idNode) ?? '');
  const base = `Reference ${name} now points at ${after} instead of ${before}: its compliance results are about another definition`;
  const oldDefinition = definitionOf(old, options);
  const newDefinition = definitionOf(next, options);
  if (!oldDefinition || !newDefinition) {
    const missing = !options.definitions
      ? 'no definitions were given'
      : `${!oldDefinition ? 'the old' : 'the new'} definition is not among those given`;
    add(
      'definition-id-changed',
      'new',
      where,
      `${base} (a definition moved within the set; ${missing}, so its default effect was not compared)`,
      previous,
    );
    return;
  }
  const effectively = (side: SetSide, reference: ReferenceModel, definition: DefinitionInfo): unknown => {
    const passed = entries(reference.parametersNode).find((e) => e.key.toLowerCase() === 'effect');
    if (passed) {
      const value = canonical(valueOf(propertyIgnoreCase(passed.valueNode, 'value')), side.set.inTemplate);
      const call = typeof value === 'string' ? /^\[\s*parameters\(\s*'([^']*)'\s*\)\s*\]$/i.exec(value) : null;
      if (!call) return value;
      const parameter = side.set.parametersByLower.get(call[1].toLowerCase());
      return parameter ? canonical(valueOf(propertyIgnoreCase(parameter.node, 'defaultValue')), side.set.inTemplate) : undefined;
    }
    return definition.parameters.get('effect')?.defaultValue;
  };
  const oldEffect = effectively(oldSide, old, oldDefinition);
  const newEffect = effectively(newSide, next, newDefinition);
  if (effectOf(newEffect) === 'enforcing' && effectOf(oldEffect) !== 'enforcing') {
    add(
      'enforcement-default-added',
      'new',
      where,
      `${base}, whose default effect is ${show(newEffect)} where it was ${show(oldEffect ?? null)}: assignments start to enforce it (an enforcement effect added by default)`,
      previous,
    );
    return;
  }
  add(
    'definition-id-changed',
    'new',
    where,
    `${base} (a definition moved within the set; its default effect ${show(newEffect ?? null)} adds no enforcement)`,
    previous,
  );
}
