// The policy-as-code framework's CSV parameter files: a branch of an assignment tree names one with
// `parameterFile`, and its leaves pick the columns `<selector>Effect` and `<selector>Parameters` with
// `parameterSelector`. Each row names a member of the sets the branch assigns (the definition's name, and
// `referencePath` when a set holds it twice). A parameter file is checked against the branches that name it.
import { parseDocumentText } from '../json/documentValue';
import { property, stringValue, items, type Node } from '../json';
import type { DefinitionCatalog } from '../definitions';
import { parseCsv, type CsvCell, type CsvRecord, type ParsedCsv } from './csv';
import type { ConsumerTarget } from './model';
import { resolveTarget, type ResolvedTarget } from './resolve';
import { targetOfId, targetOfName } from './targets';

/** A branch of an assignment tree that names a parameter file. */
export interface ParameterFileUse {
  /** The `parameterFile` value as written (a file name, or a path relative to the assignment file). */
  file: string;
  node: Node;
  /** The definition entries of the branch: of the node that names the file, of the nodes above it and below it. */
  targets: ConsumerTarget[];
  /** The `parameterSelector` values of the branch (the column prefixes its leaves use). */
  selectors: string[];
}

/** The branches of a policy-as-code assignment tree that name a parameter file (none for other documents). */
export function parameterFileUses(root: Node | undefined): ParameterFileUse[] {
  if (root?.type !== 'object' || stringValue(property(root, 'nodeName')) === undefined) return [];
  const uses: ParameterFileUse[] = [];
  const visit = (node: Node, above: ConsumerTarget[], selectorsAbove: string[], depth: number) => {
    if (node.type !== 'object' || depth > 32) return;
    const own = entriesOf(node);
    const selector = stringValue(property(node, 'parameterSelector'));
    const selectors = selector !== undefined ? [...selectorsAbove, selector] : selectorsAbove;
    const fileNode = property(node, 'parameterFile');
    const file = stringValue(fileNode);
    if (fileNode && file !== undefined && /\.csv$/i.test(file.trim())) {
      const below = { targets: [] as ConsumerTarget[], selectors: [] as string[] };
      for (const child of items(property(node, 'children'))) collect(child, below, depth + 1);
      uses.push({
        file: file.trim(),
        node: fileNode,
        targets: [...above, ...own, ...below.targets],
        selectors: [...new Set([...selectors, ...below.selectors])],
      });
      return;
    }
    for (const child of items(property(node, 'children'))) visit(child, [...above, ...own], selectors, depth + 1);
  };
  const collect = (node: Node, into: { targets: ConsumerTarget[]; selectors: string[] }, depth: number) => {
    if (node.type !== 'object' || depth > 32) return;
    into.targets.push(...entriesOf(node));
    const selector = stringValue(property(node, 'parameterSelector'));
    if (selector !== undefined) into.selectors.push(selector);
    for (const child of items(property(node, 'children'))) collect(child, into, depth + 1);
  };
  visit(root, [], [], 0);
  return uses;
}

function entriesOf(node: Node): ConsumerTarget[] {
  const targets: ConsumerTarget[] = [];
  for (const entry of [property(node, 'definitionEntry'), ...items(property(node, 'definitionEntryList'))]) {
    if (entry?.type !== 'object') continue;
    const setId = property(entry, 'policySetId');
    const setName = property(entry, 'policySetName');
    const definitionId = property(entry, 'policyId');
    const definitionName = property(entry, 'policyName');
    if (setId) targets.push(targetOfId(setId, undefined));
    else if (setName) targets.push(targetOfName(setName, 'set'));
    else if (definitionId) targets.push(targetOfId(definitionId, undefined));
    else if (definitionName) targets.push(targetOfName(definitionName, 'definition'));
  }
  return targets;
}

/** One branch naming the file, in the assignment file it is in, with its sets resolved. */
export interface ResolvedParameterFileUse {
  use: ParameterFileUse;
  /** The assignment file's URI or path, for related information. */
  uri: string;
  /** Line and character of the `parameterFile` value in the assignment file. */
  at: { line: number; character: number };
  targets: ResolvedTarget[];
  /** Every target is a known set (the branch assigns no single definition): only then are rows compared with members. */
  resolved: boolean;
}

export function resolveParameterFileUse(
  use: ParameterFileUse,
  uri: string,
  at: { line: number; character: number },
  catalog: DefinitionCatalog | undefined,
): ResolvedParameterFileUse {
  const targets = use.targets.map((t) => resolveTarget(t, catalog));
  return {
    use,
    uri,
    at,
    targets,
    resolved: targets.length > 0 && targets.every((t) => t.target.kind === 'set' && t.candidates.length > 0),
  };
}

/** A parameter file read for its checks: headers (lowercased, as the framework's reader compares them) and rows. */
export interface ParameterFileModel {
  csv: ParsedCsv;
  headers: CsvCell[];
  /** Column index by lowercased header, for headers that appear once. */
  columns: Map<string, number>;
  /** Lowercased headers that appear more than once. */
  duplicated: Set<string>;
  rows: CsvRecord[];
}

export function parameterFileModel(text: string): ParameterFileModel {
  const csv = parseCsv(text);
  const [header, ...rows] = csv.records;
  const headers = header?.cells ?? [];
  const columns = new Map<string, number>();
  const duplicated = new Set<string>();
  headers.forEach((cell, i) => {
    const key = cell.value.trim().toLowerCase();
    if (!key) return;
    if (columns.has(key) || duplicated.has(key)) {
      columns.delete(key);
      duplicated.add(key);
    } else columns.set(key, i);
  });
  return { csv, headers, columns, duplicated, rows };
}

/** A `<selector>Parameters` cell's value: an object of parameter values, or why it is not one. */
export function readParametersCell(value: string): { parameters?: Record<string, unknown>; problem?: string } {
  let parsed: unknown;
  try {
    parsed = parseDocumentText(value);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'not a JSON object of parameter values' };
  return { parameters: parsed as Record<string, unknown> };
}

/** The CSV parameter files an assignment file's branches name (as written), for a host to find them. */
export function parameterFilesNamedBy(root: Node | undefined): string[] {
  return [...new Set(parameterFileUses(root).map((u) => u.file))];
}
