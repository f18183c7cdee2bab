import type { Node } from '../../json';
import type { Edit, FixContext, FixDocument, Layout } from '../types';

/**
 * Edits for quick fixes, built from the tree's offsets, that keep the document's own layout (its line
 * ending, indentation unit, one-line or one-per-line lists); nothing around an edit is reformatted. Pure.
 */

const layouts = new WeakMap<FixDocument, Layout>();

/** The line ending and indentation unit the document uses (its first line ending; the commonest indent step). */
export function layoutOf(document: FixDocument): Layout {
  let layout = layouts.get(document);
  if (layout) return layout;
  const text = document.parsed.text;
  const newline = text.indexOf('\n');
  const eol = newline > 0 && text[newline - 1] === '\r' ? '\r\n' : newline < 0 && text.includes('\r') ? '\r' : '\n';
  let tabs = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  // The first 2,000 lines tell enough.
  const lines = text.split(/\r\n|\r|\n/, 2000);
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.length === line.length) continue;
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length) spaced++;
    if (!indent.includes('\t')) {
      const step = indent.length - previous;
      if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = indent.length;
    }
  }
  let unit = '  ';
  if (tabs > spaced) unit = '\t';
  else if (steps.size) unit = ' '.repeat([...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0]);
  layout = { eol, unit };
  layouts.set(document, layout);
  return layout;
}

function endOf(node: Node): number {
  return node.offset + node.length;
}

/** The whitespace that starts the line holding an offset. */
function indentOfLine(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** Whether a node is the first thing on its line. */
function startsLine(text: string, offset: number): boolean {
  return indentOfLine(text, offset).length === offset - lineStart(text, offset);
}

function lineStart(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return start;
}

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text[i] === '\n' || text[i] === '\r') return true;
  return false;
}

export function replaceNode(node: Node, value: string): Edit {
  return { offset: node.offset, length: node.length, content: JSON.stringify(value) };
}

/** Replaces a parameter name inside `parameters('…')`: quoted for the expression, then for JSON. */
export function replaceExpressionName(start: number, end: number, name: string): Edit {
  return { offset: start, length: end - start, content: JSON.stringify(name.replace(/'/g, "''")).slice(1, -1) };
}

/** Removes a property (or array element) and the comma that separates it from its neighbours. */
export function removeChild(container: Node, child: Node): Edit {
  const children = container.children ?? [];
  const index = children.indexOf(child);
  if (children.length === 1) {
    // The only child: the container becomes empty, `{}` or `[]`.
    return { offset: container.offset + 1, length: container.length - 2, content: '' };
  }
  if (index > 0) {
    // From the end of the previous child: its comma goes with it.
    const previous = children[index - 1];
    return { offset: endOf(previous), length: endOf(child) - endOf(previous), content: '' };
  }
  // The first of several: up to the next child, which takes its place (and its indentation).
  return { offset: child.offset, length: children[1].offset - child.offset, content: '' };
}

/**
 * Adds `value` (under `key` in an object) to a container at `index` (default: the end), written as its
 * neighbours are: one per line with their indentation, or on one line.
 */
export function insertInto(
  ctx: Pick<FixContext, 'text' | 'layout'>,
  container: Node | undefined,
  type: 'object' | 'array',
  key: string | undefined,
  value: unknown,
  index: number | undefined,
): Edit | undefined {
  if (!container || container.type !== type) return undefined;
  const { text, layout } = ctx;
  const children = container.children ?? [];
  const entry = (indent: string, compact: boolean) =>
    (key === undefined ? '' : `${JSON.stringify(key)}: `) + serialize(value, indent, layout, compact);
  if (!children.length) {
    const inner = text.slice(container.offset + 1, endOf(container) - 1);
    const outer = indentOfLine(text, container.offset);
    const indent = outer + layout.unit;
    const content = `${layout.eol}${indent}${entry(indent, false)}${layout.eol}${outer}`;
    // Whitespace inside is replaced; anything else (a comment) is kept.
    return inner.trim()
      ? { offset: container.offset + 1, length: 0, content }
      : { offset: container.offset + 1, length: inner.length, content };
  }
  const at = index === undefined || index >= children.length ? children.length : index;
  const neighbour = children[Math.min(at, children.length - 1)];
  const onePerLine =
    hasLineBreak(text, container.offset, children[0].offset) ||
    (children.length > 1 && hasLineBreak(text, endOf(children[0]), children[1].offset));
  const neighbourValue = type === 'object' ? neighbour.children?.[1] : neighbour;
  const compact =
    !onePerLine ||
    (!!neighbourValue &&
      (neighbourValue.type === 'object' || neighbourValue.type === 'array') &&
      !hasLineBreak(text, neighbourValue.offset, endOf(neighbourValue)));
  if (onePerLine) {
    const indent = startsLine(text, neighbour.offset)
      ? indentOfLine(text, neighbour.offset)
      : indentOfLine(text, container.offset) + layout.unit;
    if (at < children.length) return { offset: neighbour.offset, length: 0, content: `${entry(indent, compact)},${layout.eol}${indent}` };
    return { offset: endOf(neighbour), length: 0, content: `,${layout.eol}${indent}${entry(indent, compact)}` };
  }
  if (at < children.length) return { offset: neighbour.offset, length: 0, content: `${entry('', true)}, ` };
  return { offset: endOf(neighbour), length: 0, content: `, ${entry('', true)}` };
}

/**
 * Adds several `key: value` members at the end of an object, written as its members are (one per line with
 * their indentation, or on one line); in an empty object, one per line. One edit, so that the members of one
 * fix never overlap.
 */
export function insertMembers(
  ctx: Pick<FixContext, 'text' | 'layout'>,
  container: Node | undefined,
  members: Array<[string, unknown]>,
): Edit | undefined {
  if (!container || container.type !== 'object' || !members.length) return undefined;
  const { text, layout } = ctx;
  if (container.children?.length) {
    const edits = members.map(([key, value]) => insertInto(ctx, container, 'object', key, value, undefined)!);
    return { offset: edits[0].offset, length: 0, content: edits.map((e) => e.content).join('') };
  }
  const inner = text.slice(container.offset + 1, endOf(container) - 1);
  const outer = indentOfLine(text, container.offset);
  const indent = outer + layout.unit;
  const body = members.map(([key, value]) => `${indent}${JSON.stringify(key)}: ${serialize(value, indent, layout, false)}`);
  const content = `${layout.eol}${body.join(`,${layout.eol}`)}${layout.eol}${outer}`;
  // Whitespace inside is replaced; anything else (a comment) is kept.
  return { offset: container.offset + 1, length: inner.trim() ? 0 : inner.length, content };
}

/** JSON text of a value: on one line (`{ "name": "x" }`), or one member per line indented from `indent`. */
function serialize(value: unknown, indent: string, layout: Layout, compact: boolean): string {
  if (compact) return compactJson(value);
  return JSON.stringify(value, null, layout.unit).replace(/\n/g, layout.eol + indent);
}

function compactJson(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[${value.map(compactJson).join(', ')}]` : '[]';
  if (isRecord(value)) {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`);
    return members.length ? `{ ${members.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
