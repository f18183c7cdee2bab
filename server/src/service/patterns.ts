// The one engine for every pattern a user (or a stranger's repository) gives: glob patterns (`ignore` in
// .policysetrc.json, --ignore-pattern, glob inputs) and regular expressions (a parameter schema's
// `pattern`). Nothing here backtracks: globs are matched segment by segment with a leftmost search between
// stars (polynomial in the pattern and the path, never exponential), regular expressions run on RE2
// (re2js, linear in the input) after a bound on the size of the program they compile to (re2js expands a
// counted repetition: `.{0,1000}` forty times takes seconds to compile). Pure: it runs in a browser worker.
/* eslint-disable @typescript-eslint/no-require-imports -- re2js is loaded on first use */
import type { RE2JS as RE2JSType } from 're2js';

/** The longest pattern taken, glob or regular expression: a longer one is an error, never skipped in silence. */
export const MAX_PATTERN_CHARS = 64 * 1024;
/** The largest regular expression program (states, counted repetitions expanded) compiled. */
export const MAX_REGEX_PROGRAM = 1000;
/** The most work (program size × input length) one regular expression test may take (about a third of a second). */
export const MAX_REGEX_WORK = 1_000_000;
/** The most alternatives brace groups in one glob may expand to. */
export const MAX_GLOB_ALTERNATIVES = 1024;
/** The deepest brace groups may nest in one glob (each level is a call: 20,000 of them overflowed the stack). */
export const MAX_GLOB_BRACE_DEPTH = 32;

/** A pattern that cannot be taken: too long, malformed or too costly. The message says why, without the pattern. */
export class PatternError extends Error {}

// ---------------------------------------------------------------------------------------------------------
// Regular expressions

let RE2JS: typeof RE2JSType | undefined;

/** A regular expression that runs in bounded time; `test` is undefined when an input would cost too much. */
export interface BoundedRegExp {
  /** true or false; undefined when the input is too long to test within the bound. */
  test(input: string): boolean | undefined;
  readonly source: string;
}

/**
 * An upper bound of the program a regular expression compiles to: each atom counts 1, a counted repetition
 * multiplies what it repeats by its larger bound, alternatives and sequences add up. Conservative, never
 * below what re2js builds.
 */
export function regexProgramSize(pattern: string): number {
  interface Frame {
    total: number;
    alternatives: number;
    last: number;
  }
  const stack: Frame[] = [{ total: 0, alternatives: 0, last: 0 }];
  const top = () => stack[stack.length - 1];
  const atom = (size: number) => {
    const frame = top();
    frame.total += size;
    frame.last = size;
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      i += 2;
      // \p{...}, \u{...}, \x.. and \u....: one atom.
      if (pattern[i] === '{' && /[pPuk]/.test(pattern[i - 1] ?? '')) {
        const close = pattern.indexOf('}', i);
        i = close < 0 ? pattern.length : close + 1;
      }
      atom(1);
    } else if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
      atom(1);
    } else if (c === '(') {
      stack.push({ total: 0, alternatives: 0, last: 0 });
      i++;
      if (pattern[i] === '?') {
        // (?:, (?<name>, (?=, (?!, (?<=, (?<!, (?i) ...: skip the group's head.
        i++;
        if (pattern[i] === '<' && /[A-Za-z_$]/.test(pattern[i + 1] ?? '')) {
          const close = pattern.indexOf('>', i);
          i = close < 0 ? pattern.length : close + 1;
        } else {
          while (i < pattern.length && /[:=!<a-zA-Z-]/.test(pattern[i])) {
            const end = pattern[i] === ':' || pattern[i] === '=' || pattern[i] === '!';
            i++;
            if (end) break;
          }
        }
      }
    } else if (c === ')') {
      const frame = stack.length > 1 ? stack.pop()! : top();
      atom(frame.alternatives + frame.total + 1);
      i++;
    } else if (c === '|') {
      const frame = top();
      frame.alternatives += frame.total + 1;
      frame.total = 0;
      frame.last = 0;
      i++;
    } else if (c === '*' || c === '+' || c === '?') {
      top().total += 1;
      i++;
      if (pattern[i] === '?') i++;
    } else if (c === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (counted) {
        const low = Number(counted[1]);
        const high = counted[3] ? Number(counted[3]) : low;
        const times = Math.max(low, high, 1);
        const frame = top();
        // The repeated atom is already counted once.
        frame.total += frame.last * (times - 1) + 1;
        frame.last = frame.last * times;
        i += counted[0].length;
        if (pattern[i] === '?') i++;
      } else {
        atom(1);
        i++;
      }
    } else {
      atom(1);
      i++;
    }
    if (top().total + top().alternatives > MAX_REGEX_PROGRAM * 1000) break;
  }
  let size = 0;
  while (stack.length) {
    const frame = stack.pop()!;
    size += frame.total + frame.alternatives;
  }
  return size;
}

/**
 * A regular expression compiled to run in bounded time. Throws PatternError for a pattern too long or
 * too large to compile within the bound, and the re2js error for one RE2 cannot run (lookaround,
 * backreferences): the caller says the pattern was not checked.
 */
export function boundedRegExp(pattern: string): BoundedRegExp {
  if (pattern.length > MAX_PATTERN_CHARS) throw new PatternError(`the pattern is longer than ${MAX_PATTERN_CHARS / 1024} KB`);
  const size = regexProgramSize(pattern);
  if (size > MAX_REGEX_PROGRAM)
    throw new PatternError(
      `the pattern expands to more than ${MAX_REGEX_PROGRAM} states (counted repetitions), too large to run in bounded time`,
    );
  RE2JS ??= (require('re2js') as { RE2JS: typeof RE2JSType }).RE2JS;
  const re = RE2JS.compile(pattern);
  const cost = Math.max(size, 1);
  return {
    source: pattern,
    test: (input: string) => (cost * input.length > MAX_REGEX_WORK ? undefined : re.matcher(input).find()),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Globs

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; ranges: Array<[string, string]> };
type Segment = { globstar: true } | { globstar: false; chunks: Token[][]; literalDot: boolean };

export interface GlobOptions {
  /** Whether `*`, `?` and `**` match names starting with a dot (false: only a pattern segment starting with '.' does). */
  dot: boolean;
}

/** Splits brace groups `{a,b}` (nested, escaped with `\`) into alternatives; `@(a|b)` and `?(a|b)` are read as braces too. */
function expandBraces(glob: string): string[] {
  // Extglobs that are not a choice cannot be matched without backtracking: refused, never misread.
  const extglob = /(^|[^\\])([+*!])\(/.exec(glob);
  if (extglob) {
    throw new PatternError(`the extended glob '${extglob[2]}(...)' is not supported: use *, ?, [...], ** and {a,b}`);
  }
  const text = glob.replace(/(^|[^\\])([@?])\(([^()]*)\)/g, (_m, before: string, kind: string, body: string) =>
    kind === '@' && !body.includes('|') ? `${before}${body}` : `${before}{${kind === '?' ? ',' : ''}${body.split('|').join(',')}}`,
  );
  let results = [''];
  let i = 0;
  const parseAlternatives = (depth: number): string[][] => {
    // At text[i] just after '{': returns the alternatives (each a list of expansions) up to the matching '}'.
    if (depth > MAX_GLOB_BRACE_DEPTH) throw new PatternError(`the pattern's brace groups nest more than ${MAX_GLOB_BRACE_DEPTH} deep`);
    const alternatives: string[][] = [];
    let current = [''];
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        current = current.map((s) => s + text.slice(i, i + 2));
        i += 2;
      } else if (c === '{') {
        i++;
        current = cross(current, groupItems(parseAlternatives(depth + 1)));
      } else if (c === ',') {
        alternatives.push(current);
        current = [''];
        i++;
      } else if (c === '}') {
        alternatives.push(current);
        i++;
        return alternatives;
      } else {
        current = current.map((s) => s + c);
        i++;
      }
    }
    // No closing brace: the '{' was a literal.
    throw new UnclosedBrace();
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      results = results.map((s) => s + text.slice(i, i + 2));
      i += 2;
    } else if (c === '{') {
      const start = i;
      i++;
      try {
        results = cross(results, groupItems(parseAlternatives(1)));
      } catch (error) {
        if (!(error instanceof UnclosedBrace)) throw error;
        results = results.map((s) => s + '\\{');
        i = start + 1;
      }
    } else {
      results = results.map((s) => s + c);
      i++;
    }
  }
  return results;
}

class UnclosedBrace extends Error {}

/**
 * What one brace group stands for, at any depth: the expansions of each alternative; a range's items; or, for a
 * group of one alternative that is no range, that alternative with its braces, a literal (`{a}` is `{a}`, and
 * `{a{b,c}}` is `{ab}` or `{ac}`, as bash and picomatch read them).
 */
function groupItems(alternatives: string[][]): string[] {
  if (alternatives.length > 1) return alternatives.flat();
  const [only] = alternatives;
  return (only.length === 1 ? braceRange(only[0]) : undefined) ?? only.map((s) => `{${s}}`);
}

/**
 * The items of a brace range as bash and picomatch expand it: `1..3` (either way round, zero-padded to the
 * wider bound when a bound is written with leading zeros) or `a..e` (letters of one case); undefined for any
 * other text. Ranges count towards MAX_GLOB_ALTERNATIVES like any other alternatives.
 */
function braceRange(body: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  const letters = /^([a-z])\.\.([a-z])$/.exec(body) ?? /^([A-Z])\.\.([A-Z])$/.exec(body);
  if (!numbers && !letters) return undefined;
  const [, from, to] = (numbers ?? letters)!;
  const low = numbers ? Number(from) : from.charCodeAt(0);
  const high = numbers ? Number(to) : to.charCodeAt(0);
  const count = Math.abs(high - low) + 1;
  if (count > MAX_GLOB_ALTERNATIVES)
    throw new PatternError(`the pattern's brace groups expand to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
  const width = numbers && (/^-?0\d/.test(from) || /^-?0\d/.test(to)) ? Math.max(from.length, to.length) : 0;
  const step = high >= low ? 1 : -1;
  const items: string[] = [];
  for (let n = low; items.length < count; n += step) {
    if (!numbers) items.push(String.fromCharCode(n));
    else items.push(n < 0 ? `-${String(-n).padStart(width - 1, '0')}` : String(n).padStart(width, '0'));
  }
  return items;
}

function cross(left: string[], right: string[]): string[] {
  if (left.length * right.length > MAX_GLOB_ALTERNATIVES)
    throw new PatternError(`the pattern's brace groups expand to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
  const out: string[] = [];
  for (const a of left) for (const b of right) out.push(a + b);
  return out;
}

function tokenize(segment: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\' && i + 1 < segment.length) {
      tokens.push({ kind: 'char', char: segment[++i] });
    } else if (c === '*') {
      // Consecutive stars inside a segment are one star.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[') {
      const parsed = parseClass(segment, i);
      if (parsed) {
        tokens.push(parsed.token);
        i = parsed.end;
      } else tokens.push({ kind: 'char', char: c });
    } else {
      tokens.push({ kind: 'char', char: c });
    }
  }
  return tokens;
}

const POSIX_CLASSES: Record<string, Array<[string, string]>> = {
  alnum: [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
  ],
  alpha: [
    ['a', 'z'],
    ['A', 'Z'],
  ],
  digit: [['0', '9']],
  lower: [['a', 'z']],
  upper: [['A', 'Z']],
  space: [
    [' ', ' '],
    ['\t', '\r'],
  ],
  xdigit: [
    ['a', 'f'],
    ['A', 'F'],
    ['0', '9'],
  ],
  word: [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
    ['_', '_'],
  ],
};

function parseClass(segment: string, start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (segment[i] === '!' || segment[i] === '^') {
    negated = true;
    i++;
  }
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (i < segment.length && (segment[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:([a-z]+):\]/.exec(segment.slice(i, i + 12));
    if (posix && POSIX_CLASSES[posix[1]]) {
      ranges.push(...POSIX_CLASSES[posix[1]]);
      i += posix[0].length;
      continue;
    }
    let low = segment[i];
    if (low === '\\' && i + 1 < segment.length) low = segment[++i];
    i++;
    if (segment[i] === '-' && i + 1 < segment.length && segment[i + 1] !== ']') {
      let high = segment[i + 1];
      i += 2;
      if (high === '\\' && i < segment.length) high = segment[i++];
      ranges.push([low, high]);
    } else ranges.push([low, low]);
  }
  if (segment[i] !== ']') return undefined;
  return { token: { kind: 'class', negated, ranges }, end: i };
}

function tokenMatches(token: Token, c: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.char === c;
    case 'any':
      return true;
    case 'class': {
      const inside = token.ranges.some(([low, high]) => c >= low && c <= high);
      return inside !== token.negated;
    }
    default:
      return false;
  }
}

/** Whether `chunk` (no star) matches `text` at `at`. */
function chunkAt(chunk: Token[], text: string, at: number): boolean {
  if (at + chunk.length > text.length) return false;
  for (let k = 0; k < chunk.length; k++) if (!tokenMatches(chunk[k], text[at + k])) return false;
  return true;
}

/**
 * One path segment against one pattern segment: the pattern split at its stars into chunks; the first is
 * anchored at the start, the last at the end, and each one between is taken at its leftmost place (which
 * is always right for stars that match any run of characters): no backtracking.
 */
function segmentMatches(chunks: Token[][], text: string): boolean {
  if (chunks.length === 1) return chunks[0].length === text.length && chunkAt(chunks[0], text, 0);
  const head = chunks[0];
  const tail = chunks[chunks.length - 1];
  if (head.length + tail.length > text.length) return false;
  if (!chunkAt(head, text, 0) || !chunkAt(tail, text, text.length - tail.length)) return false;
  let at = head.length;
  const end = text.length - tail.length;
  for (let c = 1; c < chunks.length - 1; c++) {
    const chunk = chunks[c];
    let found = -1;
    for (let p = at; p + chunk.length <= end; p++) {
      if (chunkAt(chunk, text, p)) {
        found = p;
        break;
      }
    }
    if (found < 0) return false;
    at = found + chunk.length;
  }
  return true;
}

/** A name's tokens split at its stars. */
function chunksOf(tokens: Token[]): Token[][] {
  const chunks: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'star') chunks.push([]);
    else chunks[chunks.length - 1].push(token);
  }
  return chunks;
}

function compileAlternative(glob: string): Segment[] {
  return glob
    .split('/')
    .map((part): Segment =>
      part === '**'
        ? { globstar: true }
        : { globstar: false, chunks: chunksOf(tokenize(part)), literalDot: part.startsWith('.') || part.startsWith('\\.') },
    );
}

function pathMatches(segments: Segment[], parts: string[], dot: boolean): boolean {
  const P = segments.length;
  const S = parts.length;
  // memo[p * (S + 1) + s]: 0 unknown, 1 no, 2 yes. Iterative from the end: no recursion, O(P × S) segment matches.
  const memo = new Uint8Array((P + 1) * (S + 1));
  const at = (p: number, s: number) => memo[p * (S + 1) + s] === 2;
  memo[P * (S + 1) + S] = 2;
  for (let p = P - 1; p >= 0; p--) {
    const segment = segments[p];
    for (let s = S; s >= 0; s--) {
      let ok: boolean;
      if (segment.globstar) {
        // Zero folders, or this one (not a dot name unless `dot`) and more.
        ok = at(p + 1, s) || (s < S && (dot || !parts[s].startsWith('.')) && at(p, s + 1));
      } else {
        ok =
          s < S && (dot || segment.literalDot || !parts[s].startsWith('.')) && segmentMatches(segment.chunks, parts[s]) && at(p + 1, s + 1);
      }
      memo[p * (S + 1) + s] = ok ? 2 : 1;
    }
  }
  return at(0, 0);
}

/**
 * A glob pattern compiled to a matcher of '/'-separated relative paths: `*` and `?` within a name, `[...]`
 * (with `!` or `^` to negate), `**` for any number of folders, `{a,b}` alternatives and `{1..3}`, `{a..c}` ranges, `\` escapes, a leading
 * `!` negates. Throws PatternError for a pattern over 64 KB, an unsupported extended glob, or brace groups
 * with too many alternatives.
 */
export function globMatcher(glob: string, options: GlobOptions): (path: string) => boolean {
  if (glob.length > MAX_PATTERN_CHARS) throw new PatternError(`the pattern is longer than ${MAX_PATTERN_CHARS / 1024} KB`);
  let negated = false;
  let body = glob;
  while (body.startsWith('!') && !body.startsWith('!(')) {
    negated = !negated;
    body = body.slice(1);
  }
  const alternatives = expandBraces(body).map(compileAlternative);
  return (path: string) => {
    const parts = path.split('/');
    const matched = alternatives.some((segments) => pathMatches(segments, parts, options.dot));
    return matched !== negated;
  };
}
