import { SymbolKind, type Range, type SymbolInformation } from 'vscode-languageserver-types';
import type { DefinitionInfo, SetInfo } from '../definitions';
import { propertyIgnoreCase, stringValue, type Node } from '../json';
import type { PolicyDocument } from '../validate';

/** A symbol of an open document, compact: its range is made only when it answers a query. */
export interface SymbolEntry {
  name: string;
  kind: SymbolKind;
  start: number;
  end: number;
  containerName: string;
}

/** The workspace symbols of one open document, unfiltered (the server keeps them per document version). */
export interface DocumentWorkspaceSymbols {
  uri: string;
  /** The document holds a policy set: the known set read from its file is not listed again. */
  holdsSet: boolean;
  entries: SymbolEntry[];
  /** The range of offsets in the document (its line index, not its parse). */
  rangeOf(start: number, end: number): Range;
}

/** What the workspace symbols are found in: what the server already keeps, nothing read for them. */
export interface SymbolSources {
  /** The open documents' symbols (see workspaceSymbolsOfDocument). */
  documents: Iterable<DocumentWorkspaceSymbols>;
  /** Known definitions read from files of their own (not indexes), with the file's URI. */
  definitions?: Iterable<{ info: DefinitionInfo; uri: string }>;
  /** Known sets read from files, with the file's URI. */
  sets?: Iterable<{ info: SetInfo; uri: string }>;
}

/** At most this many symbols answer a query (the editor asks again as the query grows). */
export const MAX_WORKSPACE_SYMBOLS = 500;

/**
 * How well a name matches a query, as VS Code's symbol picker filters: the query's characters in order,
 * any case (a subsequence). Lower is better: 0 a prefix, 1 a substring, 2 a subsequence; -1 no match.
 */
export function matchScore(query: string, name: string): number {
  if (!query) return 0;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  const at = n.indexOf(q);
  if (at === 0) return 0;
  if (at > 0) return 1;
  let i = 0;
  for (let j = 0; j < n.length && i < q.length; j++) if (n[j] === q[i]) i++;
  return i === q.length ? 2 : -1;
}

/** The last segment of a URI's path, decoded: how a symbol's file is named beside it. */
function fileName(uri: string): string {
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** An open document's policy sets, their parameters, groups and reference IDs, at their place. */
export function workspaceSymbolsOfDocument(uri: string, document: PolicyDocument): DocumentWorkspaceSymbols {
  const entries: SymbolEntry[] = [];
  const add = (name: string, kind: SymbolKind, node: Node, containerName: string) =>
    entries.push({ name, kind, start: node.offset, end: node.offset + node.length, containerName });
  for (const set of document.sets) {
    const nameNode = propertyIgnoreCase(set.resource, 'name');
    const setName = stringValue(propertyIgnoreCase(set.properties, 'displayName')) ?? stringValue(nameNode) ?? 'policy set';
    add(setName, SymbolKind.Module, nameNode ?? set.resource, fileName(uri));
    for (const parameter of set.parameters) add(parameter.name, SymbolKind.Variable, parameter.keyNode, setName);
    for (const group of set.groups) add(group.name, SymbolKind.EnumMember, group.nameNode, setName);
    for (const reference of set.references) {
      if (reference.refIdNode?.type === 'string' && reference.refIdLower !== undefined)
        add(reference.refIdNode.value as string, SymbolKind.Object, reference.refIdNode, setName);
    }
  }
  // The line index alone outlives this call (not the tree or the models).
  const lines = document.lines;
  return { uri, holdsSet: document.sets.length > 0, entries, rangeOf: (start, end) => lines.rangeOf(start, end) };
}

/**
 * Workspace symbols: the policy sets, their parameters, groups and reference IDs in the open documents (at
 * their place), and the sets and definitions known from the workspace's files (at the file's start: the
 * server keeps what the rules read of a file, not where it is written), with the groups of a set and the
 * parameters of a definition. Filtered by the query (a subsequence of the name, any case), best matches
 * first, at most `limit` of them.
 */
export function getWorkspaceSymbols(query: string, sources: SymbolSources, limit = MAX_WORKSPACE_SYMBOLS): SymbolInformation[] {
  const found: Array<{ score: number; order: number; symbol: () => SymbolInformation }> = [];
  let order = 0;
  /** Stops early once `limit` prefix matches are in hand: nothing can beat them. */
  let prefixes = 0;
  const full = () => prefixes >= limit;
  const consider = (name: string, symbol: () => SymbolInformation) => {
    const score = matchScore(query, name);
    if (score < 0) return;
    if (score === 0) prefixes++;
    found.push({ score, order: order++, symbol });
  };
  /** A symbol of a file the server knows without its text: at the file's start. */
  const add = (name: string, kind: SymbolKind, uri: string, containerName: string) =>
    consider(name, () => ({ name, kind, location: { uri, range: START }, containerName }));
  const open = new Set<string>();
  for (const { uri, holdsSet, entries, rangeOf } of sources.documents) {
    if (holdsSet) open.add(uri);
    for (const e of entries) {
      if (full()) break;
      consider(e.name, () => ({
        name: e.name,
        kind: e.kind,
        location: { uri, range: rangeOf(e.start, e.end) },
        containerName: e.containerName,
      }));
    }
  }
  for (const { info, uri } of sources.sets ?? []) {
    if (full()) break;
    if (open.has(uri)) continue;
    const setName = info.displayName ?? info.name;
    add(setName, SymbolKind.Module, uri, fileName(uri));
    for (const group of info.groups) add(group, SymbolKind.EnumMember, uri, setName);
  }
  for (const { info, uri } of sources.definitions ?? []) {
    if (full()) break;
    if (open.has(uri)) continue;
    const definitionName = info.displayName ?? info.name;
    add(definitionName, SymbolKind.Function, uri, fileName(uri));
    for (const parameter of info.parameters.values()) add(parameter.name, SymbolKind.Variable, uri, definitionName);
  }
  return found
    .sort((a, b) => a.score - b.score || a.order - b.order)
    .slice(0, limit)
    .map((f) => f.symbol());
}
