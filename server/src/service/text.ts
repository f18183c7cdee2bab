import type { Position, Range } from 'vscode-languageserver-types';

/** Line starts being collected (index 0 is always 0); grown as needed and reused by every LineIndex. */
let lineScratch = new Int32Array(1 << 14);

/** Maps UTF-16 offsets to LSP positions. Line starts are computed on first use only. */
export class LineIndex {
  /** Where each line starts (see lineStartsOf). */
  private lineStarts: Int32Array | undefined;

  constructor(private readonly text: string) {}

  private starts(): Int32Array {
    this.lineStarts ??= lineStartsOf(this.text);
    return this.lineStarts;
  }

  positionAt(offset: number): Position {
    const starts = this.starts();
    offset = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - starts[low] };
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  offsetAt(position: Position): number {
    const starts = this.starts();
    if (position.line >= starts.length) return this.text.length;
    if (position.line < 0) return 0;
    const next = position.line + 1 < starts.length ? starts[position.line + 1] : this.text.length;
    return Math.max(starts[position.line], Math.min(starts[position.line] + position.character, next));
  }
}

/**
 * Where each line of a text starts (\r\n, \r and \n each end a line), collected in one pass into a shared
 * scratch array and then copied to an exact-size one: a plain array grown by push held twice the memory
 * and left garbage behind, and counting first cost a second pass.
 */
function lineStartsOf(text: string): Int32Array {
  let starts = lineScratch;
  let n = 1;
  if (text.indexOf('\r') < 0) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (n === starts.length) starts = growLineScratch();
      starts[n++] = i + 1;
    }
  } else {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */ && text.charCodeAt(i + 1) === 10) i++;
      else if (ch !== 13 && ch !== 10) continue;
      if (n === starts.length) starts = growLineScratch();
      starts[n++] = i + 1;
    }
  }
  return starts.slice(0, n);
}

function growLineScratch(): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(lineScratch.length * 2);
  larger.set(lineScratch);
  return (lineScratch = larger);
}

/**
 * Edit distance, bounded: returns max+1 as soon as the distance is known to exceed max. With `swaps` (the
 * default), a swap of two neighbours counts as one edit (optimal string alignment): typed names go wrong by
 * swaps ('qouta', 'usgae') as often as by a wrong letter. Without it, plain Levenshtein (what classifies
 * documents by their keys).
 */
export function typoDistance(a: string, b: string, max: number, swaps = true): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (swaps && i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        current[j] = Math.min(current[j], beforePrevious[j - 2] + 1);
      rowMin = Math.min(rowMin, current[j]);
    }
    // A swap reaches back two rows: stop only when neither of the last two rows can come in under max.
    if (rowMin > max && (!swaps || Math.min(...previous) > max)) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/** Plain Levenshtein distance, bounded (typoDistance without swaps). */
export const editDistance = (a: string, b: string, max: number): number => typoDistance(a, b, max, false);

/**
 * The closest candidate by case-insensitive edit distance (a swap counts as one edit), if it is close enough to
 * be a likely typo: within a third of the value's length (leading dashes of an option not counted), at least 1.
 * The first of equally close candidates wins. One for the rules' "did you mean" and the CLI's.
 */
export function closestMatch(value: string, candidates: Iterable<string>): string | undefined {
  if (!value.trim()) return undefined;
  const lower = value.toLowerCase();
  const max = typoBound(value);
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    const distance = typoDistance(lower, candidate.toLowerCase(), max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** How far a candidate may be from a value to be a likely typo of it (see closestMatch). */
function typoBound(value: string): number {
  return Math.max(1, Math.floor(value.replace(/^-+/, '').length / 3));
}

/**
 * The one candidate close enough to be a likely typo of `value` (as closestMatch measures it), or undefined
 * when none is, or when several are: then which one was meant is a person's choice (see the rules' `safe`
 * fixes). Candidates that differ only in casing count once.
 */
export function onlyCloseMatch(value: string, candidates: Iterable<string>): string | undefined {
  if (!value.trim()) return undefined;
  const lower = value.toLowerCase();
  const max = typoBound(value);
  let found: string | undefined;
  for (const candidate of candidates) {
    if (typoDistance(lower, candidate.toLowerCase(), max) > max) continue;
    if (found !== undefined && found.toLowerCase() !== candidate.toLowerCase()) return undefined;
    found ??= candidate;
  }
  return found;
}

/**
 * A 53-bit hash of a text, as base-36 (two multiplicative 32-bit lanes mixed at the end): for telling texts
 * apart cheaply where a collision costs only a missed re-check, never for security. Pure JavaScript, so it
 * runs in the browser's server too.
 */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
