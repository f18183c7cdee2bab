import type { Range } from 'vscode-languageserver-types';
import { parsePolicyDocument, validateDocument, type PolicyDocument, type ValidateOptions, type ValidationResult } from '../validate';
import { RULES, type Rule } from '../rules';
import type { Edit, Fix, FixKind } from '../rules/types';
import { layoutOf } from '../rules/support/edits';

/**
 * Every fix that is safe to apply without a person's choice (`Fix.safe`), applied in passes until nothing more
 * is fixable, as ESLint's --fix does: text in, fixed text and the fixes applied out. What `policyset lint
 * --fix`, the editor's `source.fixAll.policyset` and "fix all of this rule" share. Pure.
 *
 * In each pass the document is validated, each diagnostic's rule gives its fixes, the first safe one is taken,
 * and the fixes are applied from the start of the text on, skipping any that overlaps or touches one already
 * taken in this pass (it is tried again in the next pass, on the new text). A pass that would leave the
 * document with more syntax errors or more errors than before is not applied (a fix that makes a file worse is
 * a bug: it is reported in `rejected`, never written).
 */

/** ESLint's bound on passes: fixes that keep making work for each other stop here. */
export const MAX_FIX_PASSES = 10;

export interface FixAllOptions extends ValidateOptions {
  /** The kinds of fixes to apply (`--fix-type`); every kind when undefined. */
  kinds?: readonly FixKind[];
  /** Only the fixes of these rules (codes); every rule when undefined. */
  rules?: readonly string[];
  /** At most this many passes (default MAX_FIX_PASSES). */
  maxPasses?: number;
}

/** A fix that was applied. */
export interface AppliedFix {
  code: string;
  rule: string;
  kind: FixKind;
  title: string;
  /** The message of the diagnostic it fixed. */
  message: string;
  /** Where that diagnostic was, in the text as it was given (a later pass's fix: where its text came from). */
  range: Range;
  /** The pass that applied it (1 for the first). */
  pass: number;
}

export interface FixAllResult {
  /** The fixed text (the text given, when nothing was fixed). */
  output: string;
  changed: boolean;
  fixes: AppliedFix[];
  /** The changes that turn the text given into `output`: disjoint, in order, on the given text's offsets. */
  edits: Edit[];
  /** The validation of `output`: the problems left. */
  result: ValidationResult;
  /** Passes that applied fixes. */
  passes: number;
  /** A pass not applied because it would have made the document worse (a bug in a fix): said, never written. */
  rejected?: { pass: number; reason: string; fixes: string[] };
}

const RULE_BY_CODE = new Map<string, Rule>(RULES.map((rule) => [rule.meta.code, rule]));

/** The rules whose fixes `options` asks for. */
function wanted(rule: Rule, options: FixAllOptions): boolean {
  if (!rule.fix || !rule.meta.fixable) return false;
  if (options.kinds && !options.kinds.includes(rule.meta.fixable)) return false;
  return !options.rules || options.rules.includes(rule.meta.code);
}

interface Candidate {
  rule: Rule;
  fix: Fix;
  message: string;
  start: number;
  end: number;
  /** The span of its edits. */
  from: number;
  to: number;
}

/** The first safe fix of each diagnostic a wanted rule can fix, once per rule and key. */
function safeFixes(document: PolicyDocument, result: ValidationResult, options: FixAllOptions): Candidate[] {
  if (!document.parsed.root || document.parsed.tooDeep) return [];
  const text = document.parsed.text;
  const layout = layoutOf(document);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const diagnostic of result.diagnostics) {
    const rule = RULE_BY_CODE.get(diagnostic.code);
    if (!rule || !wanted(rule, options)) continue;
    const start = document.lines.offsetAt(diagnostic.range.start);
    const end = document.lines.offsetAt(diagnostic.range.end);
    let fixes: Fix[];
    try {
      fixes = rule.fix!({ document, text, layout, options, start, end, data: diagnostic.data });
    } catch {
      // A fix that fails is no fix: the problem is left, as reported.
      continue;
    }
    const fix = fixes.find((f) => f.safe && f.edits.length);
    if (!fix) continue;
    const key = `${rule.meta.code}:${fix.key}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const from = Math.min(...fix.edits.map((e) => e.offset));
    const to = Math.max(...fix.edits.map((e) => e.offset + e.length));
    candidates.push({ rule, fix, message: diagnostic.message, start, end, from, to });
  }
  return candidates;
}

/** The candidates that do not overlap or touch one taken before them, from the start of the text on (as ESLint). */
function disjoint(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((a, b) => a.from - b.from || a.to - b.to);
  const taken: Candidate[] = [];
  let last = -Infinity;
  for (const candidate of sorted) {
    if (candidate.from <= last) continue;
    // The edits of one fix must not overlap each other either.
    const edits = [...candidate.fix.edits].sort((a, b) => a.offset - b.offset);
    if (edits.some((e, i) => i > 0 && e.offset < edits[i - 1].offset + edits[i - 1].length)) continue;
    taken.push(candidate);
    last = candidate.to;
  }
  return taken;
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    out += text.slice(at, edit.offset) + edit.content;
    at = edit.offset + edit.length;
  }
  return out + text.slice(at);
}

// ---- The changes since the text given, across passes ---------------------------------------------

/** The current text as pieces: a slice of the text given, or new text. */
type Piece = { start: number; end: number } | { text: string };

const pieceLength = (piece: Piece) => ('text' in piece ? piece.text.length : piece.end - piece.start);

class Changes {
  private pieces: Piece[];

  constructor(length: number) {
    this.pieces = length ? [{ start: 0, end: length }] : [];
  }

  /** Where each piece starts in the current text. */
  private starts(): number[] {
    const starts: number[] = [];
    let at = 0;
    for (const piece of this.pieces) {
      starts.push(at);
      at += pieceLength(piece);
    }
    starts.push(at);
    return starts;
  }

  /** An offset of the current text, in the text given: a new piece's is where it was put. */
  original(offset: number): number {
    const starts = this.starts();
    let before = 0;
    for (let k = 0; k < this.pieces.length; k++) {
      const piece = this.pieces[k];
      if ('text' in piece) {
        if (offset < starts[k + 1]) return before;
        continue;
      }
      if (offset < starts[k + 1] || k === this.pieces.length - 1)
        return piece.start + Math.min(offset - starts[k], piece.end - piece.start);
      before = piece.end;
    }
    return before;
  }

  /** Applies edits (disjoint, on the current text). */
  apply(edits: Edit[]): void {
    const starts = this.starts();
    const slice = (from: number, to: number, out: Piece[]) => {
      for (let k = 0; k < this.pieces.length; k++) {
        const s = Math.max(from, starts[k]);
        const e = Math.min(to, starts[k + 1]);
        if (e <= s) continue;
        const piece = this.pieces[k];
        out.push(
          'text' in piece
            ? { text: piece.text.slice(s - starts[k], e - starts[k]) }
            : { start: piece.start + s - starts[k], end: piece.start + e - starts[k] },
        );
      }
    };
    const next: Piece[] = [];
    let at = 0;
    for (const edit of [...edits].sort((a, b) => a.offset - b.offset)) {
      slice(at, edit.offset, next);
      if (edit.content) next.push({ text: edit.content });
      at = edit.offset + edit.length;
    }
    slice(at, starts[starts.length - 1], next);
    this.pieces = next;
  }

  /** The edits on the text given: each run of new text and left-out slices is one edit. */
  edits(length: number): Edit[] {
    const edits: Edit[] = [];
    let at = 0;
    let content = '';
    const flush = (to: number) => {
      if (to > at || content) edits.push({ offset: at, length: to - at, content });
      content = '';
    };
    for (const piece of this.pieces) {
      if ('text' in piece) {
        content += piece.text;
        continue;
      }
      flush(piece.start);
      at = piece.end;
    }
    flush(length);
    return edits;
  }
}

// ---- The passes --------------------------------------------------------------------------------

function counts(result: ValidationResult) {
  return {
    syntax: result.document.parsed.syntaxErrors.length,
    errors: result.diagnostics.filter((d) => d.severity === 1).length,
    internal: result.internalErrors.length,
  };
}

/** Why a pass's result is worse than the text before it, or undefined. */
function worse(before: ValidationResult, after: ValidationResult): string | undefined {
  const b = counts(before);
  const a = counts(after);
  if (a.syntax > b.syntax) return `it would add ${a.syntax - b.syntax} syntax error(s)`;
  if (after.kind !== before.kind || after.document.sets.length !== before.document.sets.length)
    return 'it would change what the document is';
  if (a.errors > b.errors) return `it would leave more errors (${b.errors} before, ${a.errors} after)`;
  if (a.internal > b.internal) return 'a rule would fail on the result';
  return undefined;
}

/**
 * Applies every safe fix to a parsed document (the parse of the text given, with its set models) in passes.
 * `initial`: its validation with the same options, when the caller has it.
 */
export function fixAllDocument(document: PolicyDocument, options: FixAllOptions = {}, initial?: ValidationResult): FixAllResult {
  const given = document.parsed.text;
  const givenLines = document.lines;
  const changes = new Changes(given.length);
  const fixes: AppliedFix[] = [];
  const maxPasses = Math.max(1, options.maxPasses ?? MAX_FIX_PASSES);
  let result = initial ?? validateDocument(document, options);
  let current = document;
  let passes = 0;
  let rejected: FixAllResult['rejected'];
  for (let pass = 1; pass <= maxPasses; pass++) {
    const taken = disjoint(safeFixes(current, result, options));
    if (!taken.length) break;
    const edits = taken.flatMap((c) => c.fix.edits);
    const text = applyEdits(current.parsed.text, edits);
    if (text === current.parsed.text) break;
    const next = parsePolicyDocument(text);
    const nextResult = validateDocument(next, options);
    const reason = worse(result, nextResult);
    if (reason) {
      rejected = { pass, reason, fixes: taken.map((c) => `${c.rule.meta.code} ${c.fix.title}`) };
      break;
    }
    for (const c of taken) {
      fixes.push({
        code: c.rule.meta.code,
        rule: c.rule.meta.name,
        kind: c.rule.meta.fixable!,
        title: c.fix.title,
        message: c.message,
        range: givenLines.rangeOf(changes.original(c.start), changes.original(c.end)),
        pass,
      });
    }
    changes.apply(edits);
    current = next;
    result = nextResult;
    passes = pass;
  }
  const output = current.parsed.text;
  return {
    output,
    changed: output !== given,
    fixes,
    edits: output === given ? [] : changes.edits(given.length),
    result,
    passes,
    ...(rejected ? { rejected } : {}),
  };
}

/** fixAllDocument over a text. */
export function fixAllText(text: string, options: FixAllOptions = {}): FixAllResult {
  return fixAllDocument(parsePolicyDocument(text), options);
}

/** Whether a rule has fixes `--fix` applies (of a kind asked for). */
export function isFixableRule(code: string, kinds?: readonly FixKind[]): boolean {
  const rule = RULE_BY_CODE.get(code);
  return !!rule && wanted(rule, { kinds });
}
