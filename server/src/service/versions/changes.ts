import { entries, propertyIgnoreCase, stringValue, valueOf, type Node } from '../json';
import type { ParameterDecl, ReferenceModel, SetModel } from '../model/policySet';
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
  | 'definition-id-changed'
  | 'definition-version-major-changed'
  | 'group-removed'
  // minor: existing assignments keep working; what they enforce may grow
  | 'parameter-added-with-default'
  | 'allowed-values-widened'
  | 'default-value-added'
  | 'default-value-changed'
  | 'reference-added'
  | 'reference-parameters-changed'
  | 'definition-version-changed'
  | 'group-added'
  // patch: words and metadata
  | 'display-name-changed'
  | 'description-changed'
  | 'metadata-changed'
  | 'policy-type-changed'
  | 'parameter-metadata-changed'
  | 'group-metadata-changed'
  | 'reference-groups-changed';

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
  'definition-id-changed': 'major',
  'definition-version-major-changed': 'major',
  'group-removed': 'major',
  'parameter-added-with-default': 'minor',
  'allowed-values-widened': 'minor',
  'default-value-added': 'minor',
  'default-value-changed': 'minor',
  'reference-added': 'minor',
  'reference-parameters-changed': 'minor',
  'definition-version-changed': 'minor',
  'group-added': 'minor',
  'display-name-changed': 'patch',
  'description-changed': 'patch',
  'metadata-changed': 'patch',
  'policy-type-changed': 'patch',
  'parameter-metadata-changed': 'patch',
  'group-metadata-changed': 'patch',
  'reference-groups-changed': 'patch',
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
}

export interface CompareOptions {
  /**
   * The bump a reference added asks for. The service's documentation lists "adding or moving definitions
   * within an initiative" among minor changes, and "adding an enforcement effect by default" among major
   * ones (docs/versions.md cites both): minor by default.
   */
  referenceAdded?: 'minor' | 'major';
}

export interface ChangeReport {
  old: { file: string; version: string | undefined } | undefined;
  new: { file: string; version: string | undefined } | undefined;
  requiredBump: Bump;
  suggestedVersion: string | undefined;
  versionOk: boolean | null;
  /** Why the version check failed or was not made. */
  versionProblem: string | undefined;
  changes: Change[];
  /** Where the new side's version is written (for a diagnostic and its quick fix). */
  versionLocation: Location | undefined;
}

/** Values compared as JSON: key order and formatting play no part; in a template '[[' is the set's own '['. */
function canonical(value: unknown, inTemplate: boolean): unknown {
  if (typeof value === 'string') return inTemplate && value.startsWith('[[') ? value.slice(1) : value;
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

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
};

/** Property lookups that read the service's case-insensitive keys, canonicalised for the side. */
function field(side: SetSide, node: Node | undefined, key: string): { node: Node | undefined; value: unknown } {
  const found = propertyIgnoreCase(node, key);
  return { node: found, value: found === undefined ? undefined : canonical(valueOf(found), side.set.inTemplate) };
}

/** A reference's identity for matching: its reference ID, else what it names (definition ID or policy-as-code name). */
function definitionKey(reference: ReferenceModel): string | undefined {
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
    const holder = use.node.parent?.parent?.parent?.type === 'property' ? String(use.node.parent.parent.parent.children?.[0]?.value).toLowerCase() : '';
    const expression = String(use.node.value).replace(PARAMETER_CALL, (all, name: string) => (name.toLowerCase() === parameterLower ? 'parameters(*)' : all.toLowerCase()));
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
    const node = kind === 'parameter-removed' ? n.parametersNode : kind === 'reference-removed' ? n.referencesNode : kind === 'group-removed' ? n.groupsNode : undefined;
    return newSide.locate(node ?? n.properties ?? n.resource);
  };
  const add = (kind: ChangeKind, side: 'old' | 'new', location: Location, message: string, previous?: Location, bump?: Bump) =>
    changes.push({ kind, bump: bump ?? BUMP_OF[kind], message, side, location, ...(previous ? { previous } : {}), ...(side === 'new' ? { inNew: location } : anchorOf(kind) ? { inNew: anchorOf(kind) } : {}) });
  const referenceAddedBump: Bump = options.referenceAdded ?? 'minor';

  if (oldSide && newSide) diffSets(oldSide, newSide, add, referenceAddedBump);
  else if (oldSide && !newSide) {
    // A set that is new (no old side) has nothing to break: no change. One that is gone breaks every assignment.
    add('set-removed', 'old', oldSide.locate(oldSide.set.resource), 'The set is removed: every assignment of it breaks');
  }

  changes.sort((a, b) => bumpRank(b.bump) - bumpRank(a.bump) || (a.side === b.side ? a.location.range.start.line - b.location.range.start.line : a.side === 'new' ? -1 : 1));
  const requiredBump = changes.reduce<Bump>((bump, change) => maxBump(bump, change.bump), 'none');
  const check = oldSide && newSide ? checkVersions(oldSide.version?.text, newSide.version?.text, requiredBump) : { ok: null, suggested: undefined, problem: undefined };
  return {
    old: oldSide ? { file: oldSide.file, version: oldSide.version?.text } : undefined,
    new: newSide ? { file: newSide.file, version: newSide.version?.text } : undefined,
    requiredBump,
    suggestedVersion: check.suggested,
    versionOk: check.ok,
    versionProblem: check.problem,
    changes,
    versionLocation: newSide?.version ? newSide.locate(newSide.version.node) : undefined,
  };
}

type Add = (kind: ChangeKind, side: 'old' | 'new', location: Location, message: string, previous?: Location, bump?: Bump) => void;

function diffSets(oldSide: SetSide, newSide: SetSide, add: Add, referenceAddedBump: Bump): void {
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
    if (!same(a.value, b.value)) add(kind, 'new', at(newSide, b.node), `The set's ${key} changed from ${show(a.value)} to ${show(b.value)}`);
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
  if (!same(oldMetadata.value ?? {}, newMetadata.value ?? {})) {
    const keys = new Set([...Object.keys((oldMetadata.value as object) ?? {}), ...Object.keys((newMetadata.value as object) ?? {})]);
    const changed = [...keys].filter((k) => !same((oldMetadata.value as Record<string, unknown>)?.[k], (newMetadata.value as Record<string, unknown>)?.[k]));
    add('metadata-changed', 'new', at(newSide, newMetadata.node), `The set's metadata changed (${changed.map((k) => `'${k}'`).join(', ')})`);
  }

  const renames = diffParameters(oldSide, newSide, add);
  diffGroups(oldSide, newSide, add);
  diffReferences(oldSide, newSide, add, referenceAddedBump, renames);
}

/** Returns the renames found (old lowercased name -> new name). */
function diffParameters(oldSide: SetSide, newSide: SetSide, add: Add): Map<string, string> {
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
    );
    compareParameter(oldSide, newSide, old, match, add);
  }
  for (const parameter of removed) {
    add('parameter-removed', 'old', oldSide.locate(parameter.node ?? parameter.keyNode), `Parameter '${parameter.name}' is removed: assignments that pass it fail`);
  }
  for (const parameter of added) {
    const hasDefault = propertyIgnoreCase(parameter.node, 'defaultValue') !== undefined;
    if (hasDefault) add('parameter-added-with-default', 'new', newSide.locate(parameter.node ?? parameter.keyNode), `Parameter '${parameter.name}' is added with a defaultValue: existing assignments get the default`);
    else add('parameter-added-without-default', 'new', newSide.locate(parameter.node ?? parameter.keyNode), `Parameter '${parameter.name}' is added without a defaultValue: existing assignments do not pass it and fail`);
  }
  for (const parameter of n.parameters) {
    const old = o.parametersByLower.get(parameter.name.toLowerCase());
    if (old && n.parametersByLower.get(parameter.name.toLowerCase()) === parameter) compareParameter(oldSide, newSide, old, parameter, add);
  }
  return renames;
}

function compareParameter(oldSide: SetSide, newSide: SetSide, old: ParameterDecl, next: ParameterDecl, add: Add): void {
  const a = (key: string) => field(oldSide, old.node, key);
  const b = (key: string) => field(newSide, next.node, key);
  const here = (node: Node | undefined) => newSide.locate(node ?? next.node ?? next.keyNode);
  const name = next.name;

  const oldType = a('type');
  const newType = b('type');
  if (String(oldType.value ?? '').toLowerCase() !== String(newType.value ?? '').toLowerCase()) {
    add('parameter-type-changed', 'new', here(newType.node), `Parameter '${name}' changes type from ${show(oldType.value)} to ${show(newType.value)}: values assignments pass may no longer fit`);
  }

  const oldAllowed = allowedList(a('allowedValues').value);
  const newAllowedField = b('allowedValues');
  const newAllowed = allowedList(newAllowedField.value);
  if (oldAllowed || newAllowed) {
    const removedValues = oldAllowed ? oldAllowed.filter((v) => !(newAllowed ?? oldAllowed).some((w) => same(v, w))) : [];
    const addedValues = newAllowed ? newAllowed.filter((v) => !(oldAllowed ?? []).some((w) => same(v, w))) : [];
    if (!oldAllowed && newAllowed) {
      add('allowed-values-narrowed', 'new', here(newAllowedField.node), `Parameter '${name}' now restricts its values to ${show(newAllowed)}: assignments that pass other values fail`);
    } else if (removedValues.length) {
      add('allowed-values-narrowed', 'new', here(newAllowedField.node), `Parameter '${name}' no longer allows ${removedValues.map(show).join(', ')}: assignments that pass ${removedValues.length === 1 ? 'it' : 'them'} fail`);
    } else if (oldAllowed && !newAllowed) {
      add('allowed-values-widened', 'new', here(undefined), `Parameter '${name}' no longer restricts its values`);
    } else if (addedValues.length) {
      add('allowed-values-widened', 'new', here(newAllowedField.node), `Parameter '${name}' now also allows ${addedValues.map(show).join(', ')}`);
    }
  }

  const oldDefault = a('defaultValue');
  const newDefault = b('defaultValue');
  if (oldDefault.node && !newDefault.node) {
    add('default-value-removed', 'new', here(undefined), `Parameter '${name}' loses its defaultValue ${show(oldDefault.value)}: assignments that relied on it do not pass a value and fail`, oldSide.locate(oldDefault.node));
  } else if (!oldDefault.node && newDefault.node) {
    add('default-value-added', 'new', here(newDefault.node), `Parameter '${name}' gains the defaultValue ${show(newDefault.value)}`);
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
    add('parameter-schema-changed', 'new', here(newSchema.node), `Parameter '${name}' changes its schema: objects assignments pass may no longer validate`);
  }

  const oldMetadata = a('metadata');
  const newMetadata = b('metadata');
  if (!same(oldMetadata.value, newMetadata.value)) {
    add('parameter-metadata-changed', 'new', here(newMetadata.node), `Parameter '${name}' changes its metadata (display name, description, strongType and the like)`);
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
      const stillNamed = named(n, lower) || named(o, lower);
      if (n.groupsDynamic) continue;
      add(
        'group-removed',
        'old',
        oldSide.locate(group.node),
        stillNamed
          ? `Group '${group.name}' is removed while references name it: compliance views and assignments that read it lose it`
          : `Group '${group.name}' is removed: compliance views and assignments that name it lose it`,
      );
      continue;
    }
    const fields = ['displayName', 'description', 'category', 'additionalMetadataId'].filter((key) => !same(field(oldSide, group.node, key).value, field(newSide, next.node, key).value));
    if (fields.length) add('group-metadata-changed', 'new', newSide.locate(next.node), `Group '${next.name}' changes its ${fields.join(', ')}`);
  }
  for (const group of n.groups) {
    const lower = group.name.toLowerCase();
    if (n.groupsByLower.get(lower) === group && !o.groupsByLower.has(lower) && !o.groupsDynamic) add('group-added', 'new', newSide.locate(group.node), `Group '${group.name}' is added`);
  }
}

function diffReferences(oldSide: SetSide, newSide: SetSide, add: Add, referenceAddedBump: Bump, renames: Map<string, string>): void {
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
          ? `The reference to '${key.split('/').pop()}' gains the reference ID '${newRefId}': the ID the service generated, which assignments' overrides, exemptions and non-compliance messages name, is replaced`
          : newRefId === undefined
            ? `Reference ID '${oldRefId}' is removed: the service generates another one, and assignments' overrides, exemptions and non-compliance messages that name '${oldRefId}' lose it`
            : `Reference ID '${oldRefId}' is renamed to '${newRefId}': assignments' overrides, exemptions and non-compliance messages that name '${oldRefId}' lose it`;
      add('reference-id-changed', 'new', newSide.locate(next.refIdNode ?? next.node), message, oldSide.locate(old.refIdNode ?? old.node));
    }
    pairs.push([old, next]);
  }
  for (const old of unmatchedOld) {
    add('reference-removed', 'old', oldSide.locate(old.node), `Reference ${describeReference(old)} is removed: assignments' overrides, exemptions and non-compliance messages that name it lose it`);
  }
  for (const next of unmatchedNew) {
    add(
      'reference-added',
      'new',
      newSide.locate(next.node),
      `Reference ${describeReference(next)} is added: every assignment of the set now evaluates it${referenceAddedBump === 'major' ? ' (a major change by this project\'s setting)' : ''}`,
      undefined,
      referenceAddedBump,
    );
  }

  for (const [old, next] of pairs) {
    const name = describeReference(next);
    if (old.idKey && next.idKey && old.idKey !== next.idKey) {
      add('definition-id-changed', 'new', newSide.locate(next.idNode ?? next.node), `Reference ${name} now points at '${stringValue(next.idNode)}' instead of '${stringValue(old.idNode)}': its compliance results are about another definition`, oldSide.locate(old.idNode ?? old.node));
    }
    const oldVersion = stringValue(old.definitionVersionNode);
    const newVersion = stringValue(next.definitionVersionNode);
    if (oldVersion !== newVersion) {
      const majorOf = (v: string | undefined) => (v === undefined ? undefined : /^(\d+)\./.exec(v)?.[1]);
      const oldMajor = majorOf(oldVersion);
      const newMajor = majorOf(newVersion);
      if (oldMajor !== undefined && newMajor !== undefined && oldMajor !== newMajor) {
        add('definition-version-major-changed', 'new', newSide.locate(next.definitionVersionNode ?? next.node), `Reference ${name} moves from definitionVersion '${oldVersion}' to '${newVersion}', another major version of the definition`);
      } else {
        add('definition-version-changed', 'new', newSide.locate(next.definitionVersionNode ?? next.node), `Reference ${name} changes its definitionVersion from ${show(oldVersion ?? null)} to ${show(newVersion ?? null)}`);
      }
    }
    const rename = (value: unknown): unknown =>
      typeof value === 'string' ? value.replace(PARAMETER_CALL, (all, p: string) => (renames.has(p.toLowerCase()) ? `parameters('${renames.get(p.toLowerCase())}')` : all)) : Array.isArray(value) ? value.map(rename) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)])) : value;
    const valuesOf = (side: SetSide, reference: ReferenceModel, renamed: boolean) => {
      const map: Record<string, unknown> = {};
      for (const entry of entries(reference.parametersNode)) {
        const value = canonical(valueOf(entry.valueNode), side.set.inTemplate);
        map[entry.key.toLowerCase()] = renamed ? rename(value) : value;
      }
      return canonical(map, false);
    };
    if (!same(valuesOf(oldSide, old, true), valuesOf(newSide, next, false))) {
      add('reference-parameters-changed', 'new', newSide.locate(next.parametersNode ?? next.node), `Reference ${name} passes other parameter values to its definition`);
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
