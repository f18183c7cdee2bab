import { canonicalParameterType, type ParameterType } from './model/parameterTypes';
import { customDefinitionName, isTenantDefinitionId, normalizeDefinitionId } from './definitionIds';
import { hashText } from './text';

export { normalizeDefinitionId, customDefinitionName } from './definitionIds';

export interface DefinitionParameter {
  name: string;
  type: ParameterType | undefined;
  allowedValues: unknown[] | undefined;
  hasDefault: boolean;
  defaultValue?: unknown;
  strongType?: string;
}

export interface DefinitionInfo {
  id: string;
  name: string;
  displayName?: string;
  /** The version the parameters describe (the latest one in an index). */
  version?: string;
  versions: string[];
  /** By lowercased name. */
  parameters: Map<string, DefinitionParameter>;
  deprecated?: boolean;
  cloud?: string;
  /** Where it was read from: a file path or URI, for messages. */
  source?: string;
  /** Read from an index file (its `source` is the index, which holds many): not a file of its own. */
  indexed?: boolean;
}

/**
 * A known policy set: what other sets read of it (the groups that `importPolicyDefinitionGroups` imports), and
 * what its consumers are checked against (its parameters and the reference IDs of its members).
 */
export interface SetInfo {
  id?: string;
  name: string;
  displayName?: string;
  groups: string[];
  source?: string;
  /** Its parameters (undefined when the set was not read whole). */
  parameters?: DefinitionParameter[];
  /** The policyDefinitionReferenceIds of its members, as written. */
  referenceIds?: string[];
  /** How many members it has (a set of none is a skeleton to fill in, and its consumers are not checked against it). */
  members?: number;
  /** Its members: the reference ID and the name of the definition each assigns (the last segment of its ID, or the framework's policyDefinitionName). */
  memberDefinitions?: Array<{ referenceId: string | undefined; definition: string }>;
  /** Its `properties.version`, and the versions it says it has (`properties.versions`), when it says them. */
  version?: string;
  versions?: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const DEFAULT_CLOUD = 'AzureCloud';

/**
 * The cloud a document is written for, from its path: the built-in repository keeps the US Government
 * variants under an 'Azure Government' folder. Content does not tell.
 */
export function cloudOfPath(pathOrUri: string): string | undefined {
  return /(^|[/\\])(azure[ _%20-]*government|azureusgovernment)([/\\]|$)/i.test(
    decodeURIComponent(pathOrUri.replace(/%(?![0-9a-f]{2})/gi, '%25')),
  )
    ? 'AzureUSGovernment'
    : undefined;
}

function lastSegment(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1).toLowerCase();
}

function readParameters(raw: unknown): Map<string, DefinitionParameter> {
  const parameters = new Map<string, DefinitionParameter>();
  if (!isObject(raw)) return parameters;
  for (const [name, value] of Object.entries(raw)) {
    if (!isObject(value)) continue;
    const metadata = isObject(value['metadata']) ? value['metadata'] : undefined;
    parameters.set(name.toLowerCase(), {
      name,
      type: canonicalParameterType(asString(value['type'])),
      allowedValues: Array.isArray(value['allowedValues']) ? value['allowedValues'] : undefined,
      hasDefault: 'defaultValue' in value,
      defaultValue: value['defaultValue'],
      strongType: asString(value['strongType']) ?? asString(metadata?.['strongType']),
    });
  }
  return parameters;
}

/**
 * Known policy definitions: from an index file (the shape of the corpus' builtin-policy-definitions-index.json)
 * or from policy definition documents in the workspace.
 */
export class DefinitionCatalog {
  private readonly byId = new Map<string, DefinitionInfo[]>();
  /** Definitions read from documents without a full ID, by name. */
  private readonly byName = new Map<string, DefinitionInfo[]>();
  /** Custom definitions (any scope but the tenant's) by lowercased name: a custom ID is resolved by its name alone. */
  private readonly customByName = new Map<string, DefinitionInfo[]>();
  /** True once an index of built-in definitions is loaded: then an unknown tenant-level ID is suspicious. */
  hasBuiltIns = false;
  /** Every definition by lowercased name: a reference may name its definition by name (`policyDefinitionName`). */
  private readonly allByName = new Map<string, DefinitionInfo[]>();
  /** Known policy sets by lowercased name and by normalised ID. */
  private readonly setsByKey = new Map<string, SetInfo>();
  private readonly setList: SetInfo[] = [];
  /** Known policy sets by lowercased name, every one of each name. */
  private readonly setsByName = new Map<string, SetInfo[]>();
  /** How many custom definitions are loaded: with none, an unknown custom name says nothing. */
  customCount = 0;
  /**
   * Files that look like custom definitions (they hold a `policyRule`) but could not be read, by the names
   * they would go by (their `"name"`, their file name): a reference to one is said to be in a broken file,
   * not missing.
   */
  private readonly unreadableByName = new Map<string, { source: string; problem: string }>();

  get size(): number {
    return this.byId.size + this.byName.size;
  }

  add(info: DefinitionInfo, key: 'id' | 'name' = 'id') {
    push(key === 'id' ? this.byId : this.byName, key === 'id' ? normalizeDefinitionId(info.id) : info.name.toLowerCase(), info);
    push(this.allByName, info.name.toLowerCase(), info);
    if (key === 'name' || !isTenantDefinitionId(info.id)) {
      push(this.customByName, info.name.toLowerCase(), info);
      this.customCount++;
    }
  }

  /** Adds the entries of an index file; returns how many were read. */
  addIndex(index: unknown, source?: string): number {
    const list = Array.isArray(index) ? index : isObject(index) && Array.isArray(index['definitions']) ? index['definitions'] : undefined;
    if (!list) throw new Error('an index file must be a JSON array of definitions (or an object with a "definitions" array)');
    let count = 0;
    for (const entry of list) {
      if (!isObject(entry)) continue;
      const id = asString(entry['id']);
      const name = asString(entry['name']) ?? (id ? lastSegment(id) : undefined);
      if (!id || !name) continue;
      const version = asString(entry['version']);
      const versions = Array.isArray(entry['versions']) ? entry['versions'].filter((v): v is string => typeof v === 'string') : [];
      this.add({
        id,
        name,
        displayName: asString(entry['displayName']),
        version,
        versions: versions.length ? versions : version ? [version] : [],
        parameters: readParameters(entry['parameters']),
        deprecated: entry['deprecated'] === true,
        cloud: asString(entry['cloud']),
        source,
        indexed: true,
      });
      if (/^\/providers\/[^/]+\/policydefinitions\//i.test(id)) this.hasBuiltIns = true;
      count++;
    }
    return count;
  }

  /** Adds a policy definition document (`{ id?, name?, properties: { policyRule, parameters, version } }`). */
  addDefinitionDocument(document: unknown, source?: string): boolean {
    const read = DefinitionCatalog.definitionOf(document, source);
    if (read) this.add(read.info, read.key);
    return !!read;
  }

  /** What a policy definition document adds (what the rules read of it), without adding it. */
  static definitionOf(document: unknown, source?: string): { info: DefinitionInfo; key: 'id' | 'name' } | undefined {
    if (!isObject(document) || !isObject(document['properties'])) return undefined;
    const properties = document['properties'];
    const id = asString(document['id']);
    const name = asString(document['name']) ?? (id ? lastSegment(id) : undefined);
    if (!name) return undefined;
    const metadata = isObject(properties['metadata']) ? properties['metadata'] : undefined;
    const version = asString(properties['version']) ?? asString(properties['Version']) ?? asString(metadata?.['version']);
    const versions = Array.isArray(properties['versions']) ? properties['versions'].filter((v): v is string => typeof v === 'string') : [];
    const info: DefinitionInfo = {
      id: id ?? name,
      name,
      displayName: asString(properties['displayName']),
      version,
      // A file holds one version; which others exist it says only in `properties.versions`. Without that
      // list the definition's versions are not known (and a definitionVersion is not checked against them).
      versions,
      parameters: readParameters(properties['parameters']),
      deprecated: metadata?.['deprecated'] === true,
      source,
    };
    return { info, key: id ? 'id' : 'name' };
  }

  /** Adds a policy set document (`{ id?, name?, properties: { policyDefinitions, policyDefinitionGroups } }`). */
  addSetDocument(document: unknown, source?: string): boolean {
    const info = DefinitionCatalog.setOf(document, source);
    if (info) this.addSet(info);
    return !!info;
  }

  /** What a policy set document adds (its name, ID and groups), without adding it. */
  static setOf(document: unknown, source?: string): SetInfo | undefined {
    if (!isObject(document) || !isObject(document['properties']) || !Array.isArray(document['properties']['policyDefinitions']))
      return undefined;
    const properties = document['properties'];
    const id = asString(document['id']);
    const name = asString(document['name']) ?? (id ? lastSegment(id) : undefined);
    if (!name) return undefined;
    const groups = Array.isArray(properties['policyDefinitionGroups'])
      ? properties['policyDefinitionGroups']
          .map((g) => (isObject(g) ? asString(g['name']) : undefined))
          .filter((g): g is string => g !== undefined)
      : [];
    const references = properties['policyDefinitions'] as unknown[];
    const referenceIds = references
      .map((r) => (isObject(r) ? asString(r['policyDefinitionReferenceId']) : undefined))
      .filter((r): r is string => r !== undefined);
    return {
      id,
      name,
      displayName: asString(properties['displayName']),
      groups,
      source,
      parameters: [...readParameters(properties['parameters']).values()],
      referenceIds,
      members: references.length,
      memberDefinitions: references.filter(isObject).map((r) => ({
        referenceId: asString(r['policyDefinitionReferenceId']),
        definition: lastSegment(asString(r['policyDefinitionId']) ?? asString(r['policyDefinitionName']) ?? ''),
      })),
      version: asString(properties['version']),
      versions: Array.isArray(properties['versions'])
        ? properties['versions'].filter((v): v is string => typeof v === 'string')
        : undefined,
    };
  }

  addSet(info: SetInfo) {
    this.setList.push(info);
    push(this.setsByName, info.name.toLowerCase(), info);
    if (info.id) this.setsByKey.set(normalizeDefinitionId(info.id), info);
    if (!this.setsByKey.has(info.name.toLowerCase())) this.setsByKey.set(info.name.toLowerCase(), info);
  }

  /** A known set, by ID or by name (the last segment of an ID). */
  lookupSet(nameOrId: string): SetInfo | undefined {
    return this.setsByKey.get(normalizeDefinitionId(nameOrId)) ?? this.setsByKey.get(lastSegment(nameOrId));
  }

  /**
   * Every known set an ID or a name may mean: the set of that ID, else every set of that name (the last segment
   * of the ID; custom sets are found by name at any scope, as a scope is often a placeholder). Several sets of
   * one name (copies of a set kept for several landing zones) are all returned: their consumers are checked
   * against what they have in common.
   */
  lookupSets(nameOrId: string): SetInfo[] {
    const exact = this.setsByKey.get(normalizeDefinitionId(nameOrId));
    if (exact?.id && normalizeDefinitionId(exact.id) === normalizeDefinitionId(nameOrId)) return [exact];
    return this.setsByName.get(lastSegment(nameOrId)) ?? [];
  }

  /** Every known set, in the order they were added. */
  sets(): readonly SetInfo[] {
    return this.setList;
  }

  get setCount(): number {
    return this.setList.length;
  }

  /** One definition of each known name: what a `policyDefinitionName` can be. */
  *named(): IterableIterator<DefinitionInfo> {
    for (const list of this.allByName.values()) yield list[0];
  }

  /** Whether a definition is custom (read from a file or index entry at another scope than the tenant's). */
  isCustom(info: DefinitionInfo): boolean {
    return this.customByName.get(info.name.toLowerCase())?.includes(info) ?? false;
  }

  /** Every definition of this name (a built-in's GUID name or a custom definition's name), any casing. */
  lookupName(name: string): DefinitionInfo[] {
    return this.allByName.get(name.toLowerCase()) ?? [];
  }

  /** Adds every definition and set of another catalogue (an index loaded on its own, say) but those `drop` and `dropSet` match. */
  /** Records a definition file that could not be read, under the names it would go by. */
  addUnreadable(names: string[], source: string, problem: string): void {
    for (const name of names)
      if (name && !this.unreadableByName.has(name.toLowerCase())) this.unreadableByName.set(name.toLowerCase(), { source, problem });
  }

  /** The file a custom definition of this name would be in, when that file could not be read. */
  unreadable(name: string): { source: string; problem: string } | undefined {
    return this.unreadableByName.get(name.toLowerCase());
  }

  /** How many definition files could not be read. */
  get unreadableCount(): number {
    return new Set([...this.unreadableByName.values()].map((u) => u.source)).size;
  }

  addAll(other: DefinitionCatalog, drop?: (info: DefinitionInfo) => boolean, dropSet?: (info: SetInfo) => boolean): void {
    this.hasBuiltIns ||= other.hasBuiltIns;
    for (const [name, entry] of other.unreadableByName) if (!this.unreadableByName.has(name)) this.unreadableByName.set(name, entry);
    for (const set of other.setList) if (!dropSet?.(set)) this.addSet(set);
    for (const [map, key] of [
      [other.byId, 'id'],
      [other.byName, 'name'],
    ] as const) {
      for (const list of map.values()) for (const info of list) if (!drop?.(info)) this.add(info, key);
    }
  }

  /**
   * A hash of everything the rules and features read of the catalogue, in its order: equal hashes, equal
   * answers (but for a collision, about one in 2^53). The server compares it before and after reading
   * definitions again, and checks the open documents again only when it changed.
   */
  fingerprint(): string {
    const lists = (map: Map<string, DefinitionInfo[]>) => [...map].map(([key, list]) => [key, list.map(definitionHash)]);
    return hashText(
      JSON.stringify([
        this.hasBuiltIns,
        this.customCount,
        [...this.unreadableByName],
        this.setList.map(setHash),
        lists(this.byId),
        lists(this.byName),
        [...this.allByName].map(([key, list]) => [key, list.map((i) => i.id)]),
        [...this.customByName].map(([key, list]) => [key, list.map((i) => i.id)]),
      ]),
    );
  }

  /** A copy without the definitions that `drop` matches (e.g. ones read from a file now open with other text). */
  clone(drop?: (info: DefinitionInfo) => boolean, dropSet?: (info: SetInfo) => boolean): DefinitionCatalog {
    const copy = new DefinitionCatalog();
    copy.addAll(this, drop, dropSet);
    return copy;
  }

  /** Every known variant of a definition (an index can hold one per cloud). */
  lookup(policyDefinitionId: string, normalized = normalizeDefinitionId(policyDefinitionId)): DefinitionInfo[] {
    const exact = this.byId.get(normalized);
    if (exact) return exact;
    const custom = customDefinitionName(policyDefinitionId);
    if (custom !== undefined) return this.customByName.get(custom.toLowerCase()) ?? [];
    return this.byName.get(lastSegment(policyDefinitionId)) ?? [];
  }
}

function push<T>(map: Map<string, T[]>, key: string, info: T) {
  const list = map.get(key);
  if (list) list.push(info);
  else map.set(key, [info]);
}

/**
 * The definitions a reference names: by `policyDefinitionId` (a literal ID, or an expression that ends with
 * a custom definition's name), or, without one, by `policyDefinitionName` (the policy-as-code framework).
 */
export function definitionsNamedBy(
  catalog: DefinitionCatalog | undefined,
  id: string | undefined,
  name: string | undefined,
  idKey?: string,
): DefinitionInfo[] {
  if (!catalog) return [];
  if (id === undefined) return name ? catalog.lookupName(name) : [];
  if (idKey || id[0] !== '[') return catalog.lookup(id, idKey);
  return customDefinitionName(id) !== undefined ? catalog.lookup(id) : [];
}

/**
 * Orders definition versions newest first, by their numbers (`2.0.0` before `1.10.0` before `1.2.0`); a
 * suffix (`1.0.0-preview`) is not ranked against the numbers alone.
 */
export function newestVersionFirst(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((s) => (/^\d+$/.test(s) ? Number(s) : -1));
  const pb = b.split(/[.-]/).map((s) => (/^\d+$/.test(s) ? Number(s) : -1));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? -1) - (pa[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** The variant of a definition for a cloud: that cloud's, else one of no cloud, else the first. */
export function variantFor(variants: DefinitionInfo[], cloud: string | undefined): DefinitionInfo | undefined {
  const want = (cloud ?? DEFAULT_CLOUD).toLowerCase();
  return variants.find((v) => v.cloud?.toLowerCase() === want) ?? variants.find((v) => !v.cloud) ?? variants[0];
}

/**
 * Each definition's and set's part of a catalogue's fingerprint, hashed once per object (they are not changed
 * once made, and catalogues share them): a catalogue of 3,000 sets was written out whole, 100 MB of JSON, for
 * each fingerprint, and a set changed on disk took seconds to be seen.
 */
const infoHashes = new WeakMap<object, string>();

function definitionHash(info: DefinitionInfo): string {
  let hash = infoHashes.get(info);
  if (hash === undefined) {
    const described = [
      info.id,
      info.name,
      info.displayName,
      info.version,
      info.versions,
      [...info.parameters.entries()],
      info.deprecated,
      info.cloud,
      info.source,
    ];
    infoHashes.set(info, (hash = hashText(JSON.stringify(described))));
  }
  return hash;
}

function setHash(info: SetInfo): string {
  let hash = infoHashes.get(info);
  if (hash === undefined) infoHashes.set(info, (hash = hashText(JSON.stringify(info))));
  return hash;
}
