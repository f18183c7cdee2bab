import { parseTree, getNodeValue, printParseErrorCode, createScanner, SyntaxKind } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { buildTreeOfValidJson, findDuplicateKeys, TapeNode } from './tree';

export type { Node } from 'jsonc-parser';

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
  /** A comma before '}' or ']': an error for the service's reader, not for readers of JSON with comments. */
  trailingComma?: boolean;
}

export interface ParsedJson {
  /** Text as validated: a leading byte order mark is removed. */
  text: string;
  root: Node | undefined;
  syntaxErrors: SyntaxProblem[];
  /** Keys that repeat an earlier key of the same object. */
  duplicateKeys: Node[];
  /** Set for a document over LARGE_DOCUMENT: it is checked for syntax and size only, without a tree. */
  tooLarge?: { length: number };
  /** Set when the document nests deeper than can be walked safely; nothing beyond syntax is checked then. */
  tooDeep?: { offset: number; depth: number };
  /** The plain JavaScript value of the document (last key wins for duplicates), computed on first use. */
  value(): unknown;
  /** JSON.parse took the text: strict JSON, so no comments and no trailing commas. */
  strict: boolean;
}

/**
 * Documents longer than this (in UTF-16 units) are checked for syntax and size only: eight times the
 * service's 1 MiB request limit. A full model of a 50 MB document costs seconds and gigabytes.
 */
export const LARGE_DOCUMENT = 8 * 1024 * 1024;

/** Nesting deeper than this is reported and not walked: real policy documents nest fewer than 20 levels. */
export const MAX_DEPTH = 512;

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'Invalid symbol',
  InvalidNumberFormat: 'Invalid number format',
  PropertyNameExpected: 'Property name expected',
  ValueExpected: 'Value expected',
  ColonExpected: "Colon ':' expected",
  CommaExpected: "Comma ',' expected",
  CloseBraceExpected: "Closing brace '}' expected",
  CloseBracketExpected: "Closing bracket ']' expected",
  EndOfFileExpected: 'End of file expected: only one top-level value is allowed',
  InvalidCommentToken: 'Invalid comment token',
  UnexpectedEndOfComment: 'Unexpected end of comment: close it with */',
  UnexpectedEndOfString: 'Unexpected end of string: close it with a double quote',
  UnexpectedEndOfNumber: 'Unexpected end of number',
  InvalidUnicode: 'Invalid Unicode escape sequence',
  InvalidEscapeCharacter: 'Invalid escape character in string',
  InvalidCharacter: 'Invalid character in string: control characters must be escaped',
};

function describe(error: ParseError): string {
  const name = printParseErrorCode(error.error);
  return SYNTAX_MESSAGES[name] ?? name;
}

/**
 * jsonc-parser reports a trailing comma as one or two errors at the closing bracket ("Property name
 * expected", "Value expected"). Say what it is, once, on the comma.
 */
function reportTrailingCommas(text: string, problems: SyntaxProblem[]): SyntaxProblem[] {
  const result: SyntaxProblem[] = [];
  const seen = new Set<number>();
  for (const problem of problems) {
    const closing = text[problem.offset];
    if ((closing === '}' || closing === ']') && /^(Property name|Value) expected$/.test(problem.message)) {
      let i = problem.offset - 1;
      while (i >= 0 && /\s/.test(text[i])) i--;
      if (text[i] === ',') {
        if (!seen.has(i))
          result.push({ offset: i, length: 1, message: `Trailing comma: remove it before '${closing}'`, trailingComma: true });
        seen.add(i);
        continue;
      }
    }
    result.push(problem);
  }
  return result;
}

/** Finds where nesting first exceeds MAX_DEPTH, with a scanner (no recursion). */
function findExcessiveNesting(text: string): { offset: number; depth: number } | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  let maxDepth = 0;
  let offset = -1;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      depth++;
      if (depth > MAX_DEPTH && offset < 0) offset = scanner.getTokenOffset();
      maxDepth = Math.max(maxDepth, depth);
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
    }
  }
  return offset >= 0 ? { offset, depth: maxDepth } : undefined;
}

function treeDepthExceeds(root: Node, limit: number): boolean {
  // Iterative walk: the tree can be deep enough to overflow a recursive one.
  const stack: Array<[Node, number]> = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    if (node.children) {
      for (const child of node.children) {
        stack.push([child, child.type === 'property' ? depth : depth + 1]);
      }
    }
  }
  return false;
}

function parseLarge(text: string): ParsedJson {
  let value: unknown;
  const syntaxErrors: SyntaxProblem[] = [];
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The first error only, where JSON.parse says it is: a tolerant parse of this much text takes too long.
    const position = /position (\d+)/.exec((error as Error).message);
    const offset = position ? Number(position[1]) : Math.max(0, text.length - 1);
    syntaxErrors.push({
      offset,
      length: 1,
      message: `Invalid JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/, '')}`,
    });
  }
  return {
    text,
    root: undefined,
    syntaxErrors,
    duplicateKeys: [],
    tooLarge: { length: text.length },
    value: () => value,
    strict: syntaxErrors.length === 0,
  };
}

/** A deployment template's `$schema`, seen in text that may not parse. */
const TEMPLATE_SCHEMA_TEXT = /"\$schema"\s*:\s*"[^"]*deploymentTemplate\.json/i;

/**
 * The text with every line break inside a string made a space (the same length, so every offset holds),
 * or undefined when no string spans lines. The template engine reads strings that span lines (an
 * expression or a description written over several); JSON does not.
 */
export function joinLinesInStrings(text: string): string | undefined {
  let out: string[] | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
        else if (d === 10 || d === 13) {
          (out ??= []).push(text.slice(start, i), ' ');
          start = i + 1;
        }
      }
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i < text.length && text.charCodeAt(i) !== 10) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    }
  }
  if (!out) return undefined;
  out.push(text.slice(start));
  return out.join('');
}

export function parseJson(input: string): ParsedJson {
  const original = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (original.length > LARGE_DOCUMENT) return parseLarge(original);
  const errors: ParseError[] = [];
  let root: Node | undefined;
  let tooDeep: ParsedJson['tooDeep'];
  let duplicateKeys: Node[] = [];
  let value: { value: unknown } | undefined;
  let text = original;
  try {
    value = { value: JSON.parse(text) };
  } catch {
    // Not strict JSON (comments, errors) or nested beyond what JSON.parse takes: parse tolerantly below.
    // A template's strings may span lines (its engine takes them): read them as one line each.
    const joined = TEMPLATE_SCHEMA_TEXT.test(text) ? joinLinesInStrings(text) : undefined;
    if (joined !== undefined) {
      text = joined;
      try {
        value = { value: JSON.parse(text) };
      } catch {
        // Other problems too: the tolerant parse below reports them (not the line breaks).
      }
    }
  }
  // The fast tree is for strict JSON only; a template's joined strings take the tolerant parser's tree.
  const fast = value && text === original ? buildTreeOfValidJson(text, MAX_DEPTH) : undefined;
  if (fast && 'root' in fast) {
    root = fast.root;
    duplicateKeys = fast.duplicateKeys;
  } else if (fast) {
    tooDeep = findExcessiveNesting(text) ?? { offset: fast.tooDeep.offset, depth: MAX_DEPTH + 1 };
  } else {
    // Not well-formed: the tolerant parser recovers and reports every error.
    try {
      root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
      if (root && treeDepthExceeds(root, MAX_DEPTH)) tooDeep = findExcessiveNesting(text);
      else if (root) duplicateKeys = findDuplicateKeys(root);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // Stack overflow inside the recursive parser: report where nesting went too deep.
      errors.length = 0;
      tooDeep = findExcessiveNesting(text) ?? { offset: 0, depth: MAX_DEPTH + 1 };
    }
  }
  if (tooDeep) root = undefined;
  let cached = value;
  return {
    // The text as given: a joined string differs from it in its line breaks only, never in an offset.
    text: original,
    root,
    strict: value !== undefined && text === original,
    tooDeep,
    duplicateKeys: tooDeep ? [] : duplicateKeys,
    syntaxErrors: reportTrailingCommas(
      text,
      errors.map((e) => ({ offset: e.offset, length: e.length, message: describe(e) })),
    ),
    value() {
      // A document with comments or syntax errors: its value as the tolerant parser recovered it.
      cached ??= { value: root ? getNodeValue(root) : undefined };
      return cached.value;
    },
  };
}

// ---- Tree helpers -------------------------------------------------------------------------

const LARGE_OBJECT = 24;
const keyIndexes = new WeakMap<Node, Map<string, Node | undefined>>();

export function property(node: Node | undefined, key: string): Node | undefined {
  if (!node || node.type !== 'object') return undefined;
  if (node instanceof TapeNode) {
    // A tree over a text JSON.parse accepted: keys are compared in the text, and only the found property is made.
    const found = node.propertyValue(key, false);
    return found === null ? undefined : found;
  }
  if (!node.children) return undefined;
  const children = node.children;
  if (children.length > LARGE_OBJECT) {
    // Large objects (parameter maps of hundreds of entries) get a key index on first lookup.
    let index = keyIndexes.get(node);
    if (!index) {
      index = new Map();
      for (const prop of children) {
        const keyNode = prop.children?.[0];
        // The last occurrence with a value wins, as in JSON.parse and in value(); a key without one (a syntax error) is no property.
        if (keyNode && prop.children?.[1]) index.set(String(keyNode.value), prop.children[1]);
      }
      keyIndexes.set(node, index);
    }
    return index.get(key);
  }
  // The last occurrence with a value wins, as in JSON.parse and in value() (a key left without a value by a
  // syntax error is skipped there too): a schema error's path always leads to a node.
  for (let i = children.length - 1; i >= 0; i--) {
    const prop = children[i];
    const keyNode = prop.children?.[0];
    if (keyNode && keyNode.value === key && prop.children?.[1]) return prop.children[1];
  }
  return undefined;
}

/** The value of a property whose key matches case-insensitively (the service treats property names so). */
export function propertyIgnoreCase(node: Node | undefined, key: string): Node | undefined {
  const exact = property(node, key);
  if (exact || !node || node.type !== 'object') return exact;
  if (node instanceof TapeNode) {
    const found = node.propertyValue(key, true);
    return found === null ? undefined : found;
  }
  if (!node.children) return exact;
  let lower: string | undefined;
  const children = node.children;
  for (let i = children.length - 1; i >= 0; i--) {
    const name = children[i].children?.[0]?.value;
    // Only keys of the same length can match: most misses never lowercase anything.
    if (
      typeof name === 'string' &&
      name.length === key.length &&
      name.toLowerCase() === (lower ??= key.toLowerCase()) &&
      children[i].children?.[1]
    ) {
      return children[i].children?.[1];
    }
  }
  return undefined;
}

/**
 * The values of several properties, matched case-insensitively (`lowerNames` are lowercased names): for
 * each name, the value of the last property that matches it.
 */
export function propertyValuesIgnoreCase(node: Node | undefined, lowerNames: readonly string[]): Array<Node | undefined> {
  if (node instanceof TapeNode) return node.propertyValuesIgnoreCase(lowerNames);
  const found = new Array<Node | undefined>(lowerNames.length).fill(undefined);
  if (!node || node.type !== 'object' || !node.children) return found;
  for (const prop of node.children) {
    const key = prop.children?.[0]?.value;
    if (typeof key !== 'string') continue;
    const slot = lowerNames.indexOf(key.toLowerCase());
    if (slot >= 0) found[slot] = prop.children?.[1];
  }
  return found;
}

/**
 * Whether an object may have two keys that are one name in two casings: false only when it surely has
 * none (a tree over strict JSON reads its keys in the text; other trees answer for objects of two keys or
 * more that they may).
 */
export function mayHaveCaseVariantKeys(node: Node | undefined): boolean {
  if (node instanceof TapeNode) return node.mayHaveCaseVariantKeys();
  return !!node && node.type === 'object' && (node.children?.length ?? 0) > 1;
}

/** The string values (not keys) in a subtree whose content starts with `first`, in document order. */
export function stringValuesStartingWith(node: Node | undefined, first: string): Node[] {
  if (!node) return [];
  if (node instanceof TapeNode) return node.stringValuesStartingWith(first);
  const found: Node[] = [];
  // Iteratively: values can nest deeply.
  const stack: Node[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.type === 'string') {
      if ((current.value as string)[0] === first) found.push(current);
    } else if (current.children) {
      for (let i = current.children.length - 1; i >= 0; i--) {
        // Keys are not values.
        if (current.type !== 'property' || i !== 0) stack.push(current.children[i]);
      }
    }
  }
  return found;
}

/**
 * Where a string node's content lies, without its quotes: [start, end). A string the parser cut off at a line
 * end or at the end of the text has no closing quote, so its content runs to the node's end (taking the last
 * character for a quote would give an end before the start, or lose a character).
 */
export function stringContent(text: string, node: Node): { start: number; end: number } {
  const start = node.offset + 1;
  const end = node.offset + node.length;
  if (end - start < 1 || text.charCodeAt(end - 1) !== 0x22) return { start, end: Math.max(start, end) };
  // The last character is a quote: it closes the string unless a backslash escapes it.
  let backslashes = 0;
  for (let i = end - 2; i >= start && text.charCodeAt(i) === 0x5c; i--) backslashes++;
  return { start, end: backslashes % 2 === 0 ? end - 1 : end };
}

export function keyNodeOf(valueNode: Node): Node | undefined {
  const parent = valueNode.parent;
  return parent?.type === 'property' ? parent.children?.[0] : undefined;
}

export interface PropertyEntry {
  key: string;
  keyNode: Node;
  valueNode: Node | undefined;
}

export function entries(node: Node | undefined): PropertyEntry[] {
  if (!node || node.type !== 'object' || !node.children) return [];
  const result: PropertyEntry[] = [];
  for (const prop of node.children) {
    const keyNode = prop.children?.[0];
    if (!keyNode) continue;
    result.push({ key: String(keyNode.value), keyNode, valueNode: prop.children?.[1] });
  }
  return result;
}

export function items(node: Node | undefined): Node[] {
  return node && node.type === 'array' && node.children ? node.children : [];
}

/** Each string item of an array, with its index among all the items (over strict JSON, no node is made). */
export function forEachStringItem(node: Node | undefined, callback: (value: string, index: number) => void): void {
  if (node instanceof TapeNode) return node.forEachStringItem(callback);
  items(node).forEach((item, index) => {
    if (item.type === 'string') callback(item.value as string, index);
  });
}

/** An array's items that are not strings (in a tree over strict JSON, the strings' nodes are not made). */
export function nonStringItems(node: Node | undefined): Node[] {
  if (node instanceof TapeNode) return node.nonStringItems();
  return items(node).filter((item) => item.type !== 'string');
}

export function stringValue(node: Node | undefined): string | undefined {
  return node && node.type === 'string' ? (node.value as string) : undefined;
}

export function valueOf(node: Node | undefined): unknown {
  return node ? getNodeValue(node) : undefined;
}

/** Decodes a JSON pointer (as in ajv's instancePath) and walks the tree to that node. */
export function nodeAtPointer(root: Node | undefined, pointer: string): Node | undefined {
  if (!pointer) return root;
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node.type === 'array') node = node.children?.[Number(segment)];
    else node = property(node, segment);
  }
  return node;
}

/** JSON type name as the service's parameter types see it. */
export function jsonTypeOf(value: unknown): 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean' | 'object';
}
