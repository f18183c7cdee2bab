import type { CodeAction, Diagnostic, Range, TextEdit } from 'vscode-languageserver-types';
import type { PolicyDocument } from '../validate';
import { DIAGNOSTIC_SOURCE } from '../diagnostics';
import { RULES, type Rule } from '../rules';
import type { Fix, FixOptions } from '../rules/types';
import { layoutOf } from '../rules/support/edits';

/**
 * Quick fixes for the service's diagnostics: dispatch only. Each fix is carried by its rule (`fix` and
 * `fixAll` beside `check`, in `rules/<name>.ts`); a diagnostic finds it through its code's rule. The
 * diagnostics come back from the client, so a fix relies on the diagnostic's `code`, its `data` and the
 * document model at the diagnostic's range, never on its message. A diagnostic that no longer matches the
 * document (a stale one) gets no fix.
 */
export type CodeActionOptions = FixOptions;

export const QUICK_FIX = 'quickfix';

const RULE_BY_CODE = new Map<string, Rule>(RULES.map((rule) => [rule.meta.code, rule]));

/**
 * The rules that fix all of a kind at once, in the order their actions have always come (the highest code
 * first): after every single fix.
 */
const FIX_ALL_RULES = RULES.filter((rule) => rule.fixAll).sort((a, b) => (a.meta.code < b.meta.code ? 1 : -1));

export function getCodeActions(document: PolicyDocument, uri: string, diagnostics: Diagnostic[], range: Range, options: CodeActionOptions = {}): CodeAction[] {
  if (!document.parsed.root || document.parsed.tooDeep) return [];
  const text = document.parsed.text;
  const layout = layoutOf(document);
  const merged = new Map<string, { fix: Fix; diagnostics: Diagnostic[] }>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== undefined && diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
    if (!overlaps(diagnostic.range, range)) continue;
    const rule = typeof diagnostic.code === 'string' ? RULE_BY_CODE.get(diagnostic.code) : undefined;
    if (!rule?.fix) continue;
    const start = document.lines.offsetAt(diagnostic.range.start);
    const end = document.lines.offsetAt(diagnostic.range.end);
    const data = isRecord(diagnostic.data) ? diagnostic.data : {};
    for (const fix of rule.fix({ document, text, layout, options, start, end, data })) {
      const key = `${rule.meta.code}:${fix.key}`;
      const existing = merged.get(key);
      if (existing) existing.diagnostics.push(diagnostic);
      else merged.set(key, { fix, diagnostics: [diagnostic] });
    }
  }
  // Beside a single fix, one action for all of its kind (casing fixes: single-string replacements that never overlap).
  const fixedCodes = new Set([...merged.keys()].map((key) => key.slice(0, key.indexOf(':'))));
  for (const rule of FIX_ALL_RULES) {
    const code = rule.meta.code;
    if (!fixedCodes.has(code)) continue;
    const asked = diagnostics.filter((d) => d.code === code && overlaps(d.range, range));
    const all = rule.fixAll!({ document, asked: asked.map((d) => ({ start: document.lines.offsetAt(d.range.start), end: document.lines.offsetAt(d.range.end) })) });
    if (all) merged.set(`${code}:all`, { fix: { key: 'all', ...all }, diagnostics: asked });
  }
  const actions: CodeAction[] = [];
  for (const { fix, diagnostics: fixed } of merged.values()) {
    const edits: TextEdit[] = fix.edits.map((e) => ({ range: document.lines.rangeOf(e.offset, e.offset + e.length), newText: e.content }));
    const action: CodeAction = { title: fix.title, kind: QUICK_FIX, diagnostics: fixed, edit: { changes: { [uri]: edits } } };
    if (fix.preferred) action.isPreferred = true;
    actions.push(action);
  }
  return actions;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}
