import type { CodeAction, Diagnostic, Range, TextEdit } from 'vscode-languageserver-types';
import { severityOf, type PolicyDocument, type ValidateOptions } from '../validate';
import { DIAGNOSTIC_SOURCE } from '../diagnostics';
import { RULES, type Rule } from '../rules';
import type { Fix, FixOptions } from '../rules/types';
import { layoutOf } from '../rules/support/edits';
import { fixAllDocument, type FixAllOptions } from './fixAll';

/**
 * Quick fixes for the service's diagnostics: dispatch only. Each fix is carried by its rule (`fix` and
 * `fixAll` beside `check`, in `rules/<name>.ts`); a diagnostic finds it through its code's rule. The
 * diagnostics come back from the client, so a fix relies on the diagnostic's `code`, its `data` and the
 * document model at the diagnostic's range, never on its message. A diagnostic that no longer matches the
 * document (a stale one) gets no fix.
 */
export interface CodeActionOptions extends FixOptions {
  /**
   * The options the document is checked with (the language server's): with them, a rule with several
   * diagnostics that --fix would fix gets "Fix all <rule> problems in this file" beside its single fix. Asked
   * for only when such a rule is among the diagnostics; undefined: none of those actions.
   */
  validation?: () => ValidateOptions | undefined;
}

export const QUICK_FIX = 'quickfix';
/** The code action kind of every safe fix at once (`editor.codeActionsOnSave`: `"source.fixAll.policyset": "explicit"`). */
export const SOURCE_FIX_ALL = 'source.fixAll.policyset';

const RULE_BY_CODE = new Map<string, Rule>(RULES.map((rule) => [rule.meta.code, rule]));

/**
 * The rules that fix all of a kind at once, in the order their actions have always come (the highest code
 * first): after every single fix.
 */
const FIX_ALL_RULES = RULES.filter((rule) => rule.fixAll).sort((a, b) => (a.meta.code < b.meta.code ? 1 : -1));

export function getCodeActions(
  document: PolicyDocument,
  uri: string,
  diagnostics: Diagnostic[],
  range: Range,
  options: CodeActionOptions = {},
): CodeAction[] {
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
    const all = rule.fixAll!({
      document,
      asked: asked.map((d) => ({ start: document.lines.offsetAt(d.range.start), end: document.lines.offsetAt(d.range.end) })),
    });
    if (all) merged.set(`${code}:all`, { fix: { key: 'all', ...all }, diagnostics: asked });
  }
  if (options.validation) addRuleFixAll(document, diagnostics, range, options.validation, merged, fixedCodes);
  const actions: CodeAction[] = [];
  for (const { fix, diagnostics: fixed } of merged.values()) {
    const edits: TextEdit[] = fix.edits.map((e) => ({ range: document.lines.rangeOf(e.offset, e.offset + e.length), newText: e.content }));
    const action: CodeAction = { title: fix.title, kind: QUICK_FIX, diagnostics: fixed, edit: { changes: { [uri]: edits } } };
    if (fix.preferred) action.isPreferred = true;
    actions.push(action);
  }
  return actions;
}

/**
 * "Fix all <rule> problems in this file": for each rule of the diagnostics asked about whose fix --fix would
 * apply, and that has no fix-all of its own, when the document has more than one such problem. The same
 * passes as --fix, with only that rule run.
 */
function addRuleFixAll(
  document: PolicyDocument,
  diagnostics: Diagnostic[],
  range: Range,
  validationOptions: () => ValidateOptions | undefined,
  merged: Map<string, { fix: Fix; diagnostics: Diagnostic[] }>,
  fixedCodes: Set<string>,
): void {
  for (const code of fixedCodes) {
    const rule = RULE_BY_CODE.get(code);
    if (!rule?.meta.fixable || rule.fixAll) continue;
    const safe = [...merged.entries()].some(([key, { fix }]) => key.startsWith(`${code}:`) && fix.safe);
    if (!safe) continue;
    const validation = validationOptions();
    if (!validation) return;
    // Only this rule runs, at its configured severity.
    const severities = Object.fromEntries(
      RULES.map((r) => [r.meta.code, r === rule ? severityOf(r, validation.severities) : ('off' as const)]),
    );
    const options: FixAllOptions = { ...validation, severities, minSeverity: 'hint', rules: [code] };
    const fixed = fixAllDocument(document, options);
    if (fixed.fixes.length < 2) continue;
    const asked = diagnostics.filter((d) => d.code === code && overlaps(d.range, range));
    merged.set(`${code}:all-in-file`, {
      fix: {
        key: 'all-in-file',
        title: `Fix all ${rule.meta.name} problems in this file (${fixed.fixes.length})`,
        edits: fixed.edits,
        safe: true,
      },
      diagnostics: asked,
    });
  }
}

/**
 * Every safe fix of the document at once (what `policyset lint --fix` applies), as one code action of kind
 * SOURCE_FIX_ALL with one edit; undefined when there is nothing to fix. `options`: the document's check's.
 */
export function getFixAllAction(document: PolicyDocument, uri: string, options: FixAllOptions): CodeAction | undefined {
  if (!document.parsed.root || document.parsed.tooDeep || document.parsed.tooLarge) return undefined;
  const fixed = fixAllDocument(document, options);
  if (!fixed.changed) return undefined;
  const edits: TextEdit[] = fixed.edits.map((e) => ({ range: document.lines.rangeOf(e.offset, e.offset + e.length), newText: e.content }));
  return {
    title: `Fix all policyset problems that need no choice (${fixed.fixes.length})`,
    kind: SOURCE_FIX_ALL,
    diagnostics: [],
    edit: { changes: { [uri]: edits } },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}
