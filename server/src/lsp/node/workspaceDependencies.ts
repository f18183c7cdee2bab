// What a workspace check keeps of each file and what it depends on: the definition and set keys a file's check
// looked up, and what a file adds to its folder's known definitions, so that a change re-checks only the files
// that read what changed (see workspaceLint.ts).
import { DefinitionCatalog, decodeText, type DefinitionInfo, type SetInfo } from '../../service';
import { parseDocumentText } from '../../node/definitions';
import { bytesHash, definedBy } from './sharedInfos';
import { scanForDefinitions } from '../../cli/lint/engine';
import type { FolderState } from './workspaceFolders';
import { hashText } from '../../service/text';
import { customDefinitionName } from '../../service/definitions';

/** What one file adds to its folder's known definitions (DefinitionCatalog.definitionOf / setOf). */
export interface Contribution {
  definition?: { info: DefinitionInfo; key: 'id' | 'name' };
  set?: SetInfo;
  /** It holds a policy rule: known whatever else is in the folder (else a set, known when a file imports groups). */
  fromRule: boolean;
}

/** Per file, what the next check needs (not the text, not the tree). */
export interface FileState {
  folder: FolderState;
  size: number;
  mtimeMs: number;
  /** Of the bytes last read: a change event for the same bytes (a save without edits, a touch) re-checks nothing. */
  hash: string;
  contribution?: Contribution;
  /** It imports the groups of other sets, or assigns a set (scanForDefinitions): the folder's sets are then known. */
  importsGroups: boolean;
  /** What it is to the checks made with other files (workspacePasses.ts: ROLE_*); 0 for most files. */
  roles?: number;
  /** Its diagnostics as JSON text (a fraction of the objects' memory); undefined until checked. */
  diagnostics?: string;
  resultId?: string;
  /** The definition and set keys its last check looked up (lowercased names, see keysOfLookup; interned). */
  reads?: string[];
  /** Its last check read something of the whole catalogue (how many custom definitions, whether built-ins are known). */
  readsShape: boolean;
}

const lastSegment = (id: string) => id.slice(id.lastIndexOf('/') + 1).toLowerCase();

/** The keys a lookup depends on: the last segment of what it names (an ID's name), and a custom ID's name. */
function keysOfLookup(nameOrId: string): string[] {
  const keys = [lastSegment(nameOrId)];
  const custom = customDefinitionName(nameOrId);
  if (custom !== undefined) keys.push(custom.toLowerCase());
  return keys;
}

/** The keys a contribution answers lookups for: a change to it affects the checks that read them. */
export function keysOfContribution(c: Contribution | undefined): string[] {
  const keys: string[] = [];
  for (const info of [c?.definition?.info, c?.set]) {
    if (!info) continue;
    keys.push(info.name.toLowerCase());
    if (info.id) keys.push(lastSegment(info.id));
  }
  return keys;
}

export const contributionJson = (c: Contribution | undefined) =>
  JSON.stringify([c?.definition, c?.set, c?.fromRule], (_key, value: unknown) => (value instanceof Map ? [...value] : value));

/**
 * The catalogue as the rules see it, recording what they look up (the dependency map): lookups by ID or
 * name record the names asked for; reading how many custom definitions there are, or whether built-ins are
 * known, records a dependency on the catalogue's shape.
 */
export function recordingCatalog(catalog: DefinitionCatalog, reads: Set<string>, shape: () => void): DefinitionCatalog {
  return new Proxy(catalog, {
    get(target, property) {
      switch (property) {
        case 'lookup':
          return (id: string, normalized?: string) => {
            for (const key of keysOfLookup(id)) reads.add(key);
            return normalized === undefined ? target.lookup(id) : target.lookup(id, normalized);
          };
        case 'lookupName':
          return (name: string) => {
            reads.add(name.toLowerCase());
            return target.lookupName(name);
          };
        case 'lookupSet':
        case 'lookupSets':
          return (nameOrId: string) => {
            for (const key of keysOfLookup(nameOrId)) reads.add(key);
            return property === 'lookupSet' ? target.lookupSet(nameOrId) : target.lookupSets(nameOrId);
          };
        case 'customCount':
        case 'hasBuiltIns':
        case 'size':
        case 'setCount':
        case 'named':
        case 'fingerprint':
          shape();
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** What answers catalogue-wide questions: checks that read it depend on every change to it. */
export function shapeOf(catalog: DefinitionCatalog | undefined): string {
  if (!catalog) return 'none';
  return hashText(
    JSON.stringify([
      catalog.hasBuiltIns,
      catalog.customCount,
      catalog.size,
      catalog.setCount,
      [...catalog.named()].map((d) => d.name.toLowerCase()).sort(),
    ]),
  );
}

/**
 * What a file's bytes add to its folder's known definitions (as the lint engine's scan sorts them out), and
 * whether it imports the groups of other sets or assigns a set (a consumer): the folder's sets are then known.
 */
export function contributionOf(
  bytes: Uint8Array,
  file: string,
  hash: string = bytesHash(bytes),
): { contribution?: Contribution; importsGroups: boolean; consumer: boolean } {
  const scan = scanForDefinitions(bytes);
  const importsGroups = scan.importsGroups || scan.consumer;
  const consumer = scan.consumer;
  if (scan.ruleText === undefined && !scan.policyDefinitions) return { importsGroups, consumer };
  const fromRule = scan.ruleText !== undefined;
  try {
    // What the workspace's known definitions made of the same bytes, when they have (sharedInfos.ts).
    const defined = definedBy(file, hash, () => parseDocumentText(scan.ruleText ?? decodeText(bytes).text));
    if ('definition' in defined) return { contribution: { definition: defined.definition, fromRule }, importsGroups, consumer };
    if ('set' in defined) return { contribution: { set: defined.set, fromRule }, importsGroups, consumer };
  } catch {
    // Not JSON: no definition (the check reports it).
  }
  return { importsGroups, consumer };
}
