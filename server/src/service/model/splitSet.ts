import { parseTree, type Node as JsoncNode } from 'jsonc-parser';
import type { Range } from 'vscode-languageserver-types';

/**
 * The command-line split layout: a set kept as `<base>.definitions.json` (the references, an array),
 * `<base>.parameters.json` (the parameters object) and `<base>.groups.json` (the groups, an array), the
 * files the cloud's CLI takes for `policy set-definition create --definitions --params --definition-groups`.
 * The parts are assembled into one set (here, and only here: validation and version comparison both read
 * the assembled set), checked as a set, and every diagnostic or change goes back to its part.
 */
export type SplitPart = 'definitions' | 'parameters' | 'groups';

export const SPLIT_PARTS: readonly SplitPart[] = ['definitions', 'parameters', 'groups'];
const PART_FILE = /^(.*)\.(definitions|parameters|groups)\.(jsonc?)$/i;

/** The part a file name (a path or a URI) names, and the base its siblings share. */
export function splitPartOf(fileName: string): { base: string; part: SplitPart; extension: string } | undefined {
  const match = PART_FILE.exec(fileName);
  return match ? { base: match[1], part: match[2].toLowerCase() as SplitPart, extension: match[3] } : undefined;
}

/** Where the siblings of a part may be: `<base>.<part>.json` and `.jsonc`. */
export function siblingNames(base: string): Record<SplitPart, string[]> {
  const names = (part: SplitPart) => [`${base}.${part}.json`, `${base}.${part}.jsonc`];
  return { definitions: names('definitions'), parameters: names('parameters'), groups: names('groups') };
}

export interface PartText {
  /** The part's URI or path, as diagnostics should name it. */
  uri: string;
  text: string;
}

/** The names (URIs or paths) of the other parts beside a part; empty when the name is no part's. */
export function siblingsOf(fileName: string): string[] {
  const part = splitPartOf(fileName);
  if (!part) return [];
  const siblings = siblingNames(part.base);
  return SPLIT_PARTS.flatMap((name) => siblings[name]).filter((s) => s !== fileName);
}

/**
 * The split set a file is a part of: for each part, the first of its names whose text `textOf` gives (the
 * host decides where text comes from: an editor's unsaved text, the files named on a command line, the
 * disk). Undefined when the file is no part, or the parts make no set (see isSplitSet).
 */
export function splitSetOf(
  fileName: string,
  textOf: (name: string) => string | undefined,
): Partial<Record<SplitPart, PartText>> | undefined {
  const part = splitPartOf(fileName);
  if (!part) return undefined;
  const siblings = siblingNames(part.base);
  const parts: Partial<Record<SplitPart, PartText>> = {};
  for (const name of SPLIT_PARTS) {
    for (const sibling of siblings[name]) {
      const text = textOf(sibling);
      if (text !== undefined) {
        parts[name] = { uri: sibling, text };
        break;
      }
    }
  }
  return isSplitSet(parts) ? parts : undefined;
}

const rootOf = (text: string): JsoncNode | undefined => parseTree(text, [], { allowTrailingComma: true, disallowComments: false });

/**
 * Whether the parts make a split set: the definitions part is a JSON array (of references). A
 * `<base>.parameters.json` alone is not one: that is also the name of a template's parameter file.
 */
export function isSplitSet(parts: Partial<Record<SplitPart, PartText>>): boolean {
  const definitions = parts.definitions && rootOf(parts.definitions.text);
  if (definitions?.type !== 'array') return false;
  // Parts of other shapes (a template's parameter file beside the definitions) are left out by validation (see usablePart).
  return definitions.children?.every((c) => c.type === 'object') ?? true;
}

/** A parameters part is the set's parameters object (not a template's parameter file, which has `$schema` or `contentVersion`). */
export function usablePart(part: SplitPart, text: string): boolean {
  const root = rootOf(text);
  if (part === 'parameters')
    return root?.type === 'object' && !root.children?.some((p) => ['$schema', 'contentVersion'].includes(p.children?.[0]?.value as string));
  return root?.type === 'array';
}

/** Where one part sits in the assembled text: from `firstLine`, `lineCount` lines, the last `lastLineLength` long. */
export interface SplitSegment {
  uri: string;
  part: SplitPart;
  firstLine: number;
  lineCount: number;
  lastLineLength: number;
}

/** The property of the assembled set that holds each part. */
export const SPLIT_PART_KEYS: Readonly<Record<SplitPart, string>> = {
  definitions: 'policyDefinitions',
  parameters: 'parameters',
  groups: 'policyDefinitionGroups',
};

export interface AssembledSplitSet {
  /** `{ "properties": { "policyDefinitions": ..., "parameters": ..., "policyDefinitionGroups": ... } }`, each part on lines of its own. */
  text: string;
  /** The definitions part: what the set as a whole is named by. */
  definitions: PartText;
  /** The parts assembled, in SPLIT_PARTS order. */
  segments: SplitSegment[];
  /**
   * A range of the assembled text in its part: the part's URI and the range inside the part's text (the
   * end held to the part's last line). Undefined for a range that starts outside every part (on the lines
   * the assembly adds).
   */
  locate(range: Range): { segment: SplitSegment; range: Range } | undefined;
}

/**
 * Assembles the parts into one set. Each part starts on a line of its own, so a position in the assembled
 * text maps back by its line alone; a byte order mark is left out. `include` leaves parts out (validation
 * leaves out a part of another shape, see usablePart); the definitions part is always in. Undefined without
 * a definitions part.
 */
export function assembleSplitSet(
  parts: Partial<Record<SplitPart, PartText>>,
  include: (part: SplitPart, text: string) => boolean = () => true,
): AssembledSplitSet | undefined {
  const definitions = parts.definitions;
  if (!definitions) return undefined;
  const lines: string[] = ['{ "properties": {'];
  const segments: SplitSegment[] = [];
  let first = true;
  for (const part of SPLIT_PARTS) {
    const given = parts[part];
    if (!given) continue;
    if (part !== 'definitions' && !include(part, given.text)) continue;
    const text = given.text.charCodeAt(0) === 0xfeff ? given.text.slice(1) : given.text;
    lines.push(`${first ? '' : ','}"${SPLIT_PART_KEYS[part]}":`);
    first = false;
    const partLines = text.split(/\r\n|\r|\n/);
    segments.push({
      uri: given.uri,
      part,
      firstLine: lines.length,
      lineCount: partLines.length,
      lastLineLength: partLines[partLines.length - 1].length,
    });
    lines.push(...partLines);
  }
  lines.push('} }');
  const locate = (range: Range): { segment: SplitSegment; range: Range } | undefined => {
    const segment = segments.find((s) => range.start.line >= s.firstLine && range.start.line < s.firstLine + s.lineCount);
    if (!segment) return undefined;
    const last = segment.firstLine + segment.lineCount - 1;
    const end = range.end.line > last ? { line: last, character: segment.lastLineLength } : range.end;
    return {
      segment,
      range: {
        start: { line: range.start.line - segment.firstLine, character: range.start.character },
        end: { line: end.line - segment.firstLine, character: end.character },
      },
    };
  };
  return { text: lines.join('\n'), definitions, segments, locate };
}
