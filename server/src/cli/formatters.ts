import { safeText } from '#api';
import * as fs from 'node:fs';
import type { createHash as CreateHash } from 'node:crypto';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import {
  RULES,
  SEVERITY_NAMES,
  severityOf,
  addUnchecked,
  describeUnchecked,
  noUnchecked,
  uncheckedTotal,
  type SeveritySetting,
  type UncheckedReferences,
} from '../service';
import type { FileResult } from './lint/lintFile';

/** node:crypto is loaded only for SARIF fingerprints. */
function createHash(): typeof CreateHash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return (require('node:crypto') as typeof import('node:crypto')).createHash;
}

export type Format = 'text' | 'json' | 'sarif';

/** `lint --fix` (written) or `--fix-dry-run` (nothing written): the reports say what was fixed. */
export interface FixReport {
  dryRun: boolean;
}

/** The fixes applied and the files they changed. */
function fixCounts(results: FileResult[]): { fixed: number; files: number } {
  const changed = results.filter((r) => r.fix?.fixes.length);
  return { fixed: changed.reduce((n, r) => n + r.fix!.fixes.length, 0), files: changed.length };
}

export interface Summary {
  files: number;
  checked: number;
  skipped: number;
  /** Named on the command line and not checked (see FileResult.notChecked). */
  notChecked: number;
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
}

export function summarize(results: FileResult[]): Summary {
  const summary: Summary = { files: results.length, checked: 0, skipped: 0, notChecked: 0, errors: 0, warnings: 0, infos: 0, hints: 0 };
  for (const result of results) {
    if (result.notChecked) summary.notChecked++;
    else if (result.skipped) summary.skipped++;
    else if (!result.error) summary.checked++;
    for (const d of result.diagnostics) {
      if (d.severity === 1) summary.errors++;
      else if (d.severity === 2) summary.warnings++;
      else if (d.severity === 3) summary.infos++;
      else summary.hints++;
    }
  }
  return summary;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The references of every file whose definition was not checked, and why. */
export function uncheckedOf(results: FileResult[]): UncheckedReferences & { total: number } {
  const all = results.reduce((sum, r) => addUnchecked(sum, r.unchecked), noUnchecked());
  return { total: uncheckedTotal(all), ...all };
}

/**
 * Inputs that could not be checked (unreadable, missing, matching no file): every format carries them,
 * and no format reports success while there are any.
 */
/**
 * Text that came from a file or a service (a file name, a name inside a document, a message quoting one),
 * made safe for a terminal by the one sanitiser (safeText: control characters as \uXXXX): never the
 * program's own colours, which are added around it.
 */
export const untrusted = (text: string): string => safeText(text, { max: Number.POSITIVE_INFINITY });

/**
 * `failure`: why the run fails though nothing above is an error (more warnings than --max-warnings allows):
 * the summary then says so under ✖, never ✔ above a failing exit.
 */
export function formatText(
  results: FileResult[],
  cwd: string,
  color: boolean,
  inputErrors: string[] = [],
  fix?: FixReport,
  failure?: string,
): string {
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  // Padded before painting: the colour codes differ in length (a hint's is shorter), the columns must not.
  const severityLabel: Record<number, string> = {
    1: paint('31', 'error'.padEnd(7)),
    2: paint('33', 'warning'),
    3: paint('36', 'info'.padEnd(7)),
    4: paint('2', 'hint'.padEnd(7)),
  };
  const lines: string[] = [];
  for (const result of results) {
    if (!result.diagnostics.length) continue;
    lines.push(paint('4', untrusted(path.relative(cwd, result.file) || result.file)));
    for (const d of result.diagnostics) {
      const where = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
      lines.push(`  ${where.padEnd(9)} ${severityLabel[d.severity]}  ${untrusted(d.message)}  ${paint('2', d.code)}`);
    }
    lines.push('');
  }
  for (const result of results) {
    if (result.notChecked)
      lines.push(
        `${paint('36', 'note')} ${untrusted(path.relative(cwd, result.file) || result.file)}: not checked: ${untrusted(result.notChecked)}`,
      );
  }
  for (const result of results) {
    if (result.skipReason)
      lines.push(`${paint('2', 'skipped')} ${untrusted(path.relative(cwd, result.file) || result.file)}: ${untrusted(result.skipReason)}`);
  }
  if (results.some((r) => r.notChecked || r.skipReason)) lines.push('');
  const s = summarize(results);
  const counts = [plural(s.errors, 'error'), plural(s.warnings, 'warning')];
  if (s.infos) counts.push(`${s.infos} info`);
  if (s.hints) counts.push(plural(s.hints, 'hint'));
  const failed = inputErrors.length ? `; ${plural(inputErrors.length, 'input')} could not be checked` : '';
  // No ✔ over a file that was not checked.
  const mark = s.errors || inputErrors.length || failure ? paint('31', '✖') : s.notChecked ? paint('33', '⚠') : paint('32', '✔');
  lines.push(
    `${mark} ${counts.join(', ')} in ${plural(s.checked, s.checked && results.every((r) => r.kind === 'deploymentPlan' || r.skipped || r.notChecked || r.error) ? 'deployment plan' : 'policy document')}${skippedNote(results)}${s.notChecked ? `; ${s.notChecked} named file${s.notChecked === 1 ? '' : 's'} not checked` : ''}${failed}${failure ? `; ${failure}` : ''}`,
  );
  if (fix) {
    const { fixed, files } = fixCounts(results);
    lines.push(
      `${plural(fixed, 'problem')} ${fix.dryRun ? 'would be ' : ''}fixed in ${plural(files, 'file')}${fix.dryRun ? ' (--fix-dry-run: nothing written)' : ''}`,
    );
  }
  // Never a green run that checked less than it seems: what was not checked against its definition, and why.
  const unchecked = describeUnchecked(uncheckedOf(results));
  if (unchecked) lines.push(`${paint('33', '⚠')} ${unchecked}`);
  return lines.join('\n') + '\n';
}

/** The summary's note of skipped files: JSON of other kinds, and files that are not JSON (listed above it). */
function skippedNote(results: FileResult[]): string {
  const notJson = results.filter((r) => r.skipReason).length;
  const otherJson = results.filter((r) => r.skipped && !r.notChecked && !r.skipReason).length;
  const parts = [
    otherJson ? `${plural(otherJson, 'other JSON file')} skipped` : '',
    notJson ? `${plural(notJson, 'file')} skipped as not JSON` : '',
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function formatJson(results: FileResult[], cwd: string, inputErrors: string[] = [], fix?: FixReport): string {
  const fixSummary = fix ? { fixed: fixCounts(results).fixed, fixedFiles: fixCounts(results).files, dryRun: fix.dryRun } : {};
  return (
    JSON.stringify(
      {
        summary: { ...summarize(results), inputErrors: inputErrors.length, ...fixSummary },
        inputErrors,
        notChecked: results.filter((r) => r.notChecked).map((r) => ({ file: path.relative(cwd, r.file) || r.file, reason: r.notChecked })),
        uncheckedReferences: uncheckedOf(results),
        skipped: results.filter((r) => r.skipReason).map((r) => ({ file: path.relative(cwd, r.file) || r.file, reason: r.skipReason })),
        files: results
          .filter((r) => !r.skipped)
          .map((r) => ({
            file: path.relative(cwd, r.file) || r.file,
            kind: r.kind,
            diagnostics: r.diagnostics.map((d) => ({
              code: d.code,
              rule: d.data.rule,
              severity: SEVERITY_NAMES[d.severity],
              message: d.message,
              line: d.range.start.line + 1,
              column: d.range.start.character + 1,
              endLine: d.range.end.line + 1,
              endColumn: d.range.end.character + 1,
              range: d.range,
              relatedInformation: d.relatedInformation,
              data: d.data,
            })),
            // As ESLint's JSON: with --fix or --fix-dry-run, the fixed text of a file that changed (and here, the fixes).
            ...(fix && r.fix?.fixes.length
              ? {
                  fixed: r.fix.fixes.map((f) => ({
                    code: f.code,
                    rule: f.rule,
                    kind: f.kind,
                    title: f.title,
                    message: f.message,
                    line: f.range.start.line + 1,
                    column: f.range.start.character + 1,
                    pass: f.pass,
                  })),
                  output: r.fix.output,
                }
              : {}),
            ...(fix && r.notFixed ? { notFixed: r.notFixed } : {}),
          })),
      },
      null,
      2,
    ) + '\n'
  );
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note', hint: 'note', off: 'none' } as const;

function docsFolder(): string {
  return path.resolve(__dirname, '../../../docs/rules');
}

/** A rule's page (docs/rules/<name>.md), when the package holds it. */
export function ruleHelp(name: string): string | undefined {
  try {
    return fs.readFileSync(path.join(docsFolder(), `${name}.md`), 'utf8');
  } catch {
    return undefined;
  }
}

export function formatSarif(
  results: FileResult[],
  cwd: string,
  severities: Record<string, SeveritySetting>,
  version: string,
  docsBaseUrl?: string,
  inputErrors: string[] = [],
): string {
  const base = docsBaseUrl ? docsBaseUrl.replace(/\/$/, '') : pathToFileURL(docsFolder()).href;
  const rules: Sarif.ReportingDescriptor[] = RULES.map((rule) => {
    const help = ruleHelp(rule.meta.name);
    return {
      id: rule.meta.code,
      name: rule.meta.name,
      shortDescription: { text: rule.meta.description.split(/(?<=\.)\s/)[0] },
      fullDescription: { text: rule.meta.description },
      helpUri: `${base}/${rule.meta.name}.md`,
      help: help ? { text: rule.meta.description, markdown: help } : { text: rule.meta.description },
      defaultConfiguration: { level: SARIF_LEVEL[severityOf(rule, severities)] },
      properties: { tags: ['policy-set'] },
    };
  });
  const ruleIndex = new Map(RULES.map((rule, i) => [rule.meta.code, i]));
  const root = pathToFileURL(cwd.endsWith(path.sep) ? cwd : cwd + path.sep).href;
  const artifactUri = (file: string) => {
    const relative = path.relative(cwd, path.resolve(file));
    return relative.startsWith('..') || path.isAbsolute(relative)
      ? { uri: pathToFileURL(path.resolve(file)).href }
      : { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  };
  const region = (range: { start: { line: number; character: number }; end: { line: number; character: number } }): Sarif.Region => ({
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  });
  const sarifResults: Sarif.Result[] = [];
  for (const result of results) {
    const relative = path.relative(cwd, path.resolve(result.file)).split(path.sep).join('/');
    for (const [i, d] of result.diagnostics.entries()) {
      const location = { physicalLocation: { artifactLocation: artifactUri(result.file), region: region(d.range) } };
      sarifResults.push({
        ruleId: d.code,
        ruleIndex: ruleIndex.get(d.code),
        level: SARIF_LEVEL[SEVERITY_NAMES[d.severity]],
        message: { text: d.message },
        locations: [location],
        relatedLocations: d.relatedInformation?.map((rel, id) => ({
          id,
          message: { text: rel.message },
          physicalLocation: { artifactLocation: artifactUri(rel.location.uri), region: region(rel.location.range) },
        })),
        // The rule, the file and the flagged text (with its occurrence), never a line number: an alert keeps
        // its fingerprint when lines move. "/v1" marks how it is made.
        partialFingerprints: {
          'policysetFingerprint/v1': createHash()('sha256')
            .update(`${relative}\u0000${result.identities[i] ?? d.code}`)
            .digest('hex'),
        },
      });
    }
  }
  const log: Sarif.Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'policyset', semanticVersion: version, version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: root } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: inputErrors.length === 0,
            toolExecutionNotifications: [
              ...inputErrors.map((text) => ({ level: 'error' as const, message: { text } })),
              ...results
                .filter((r) => r.notChecked)
                .map((r) => ({
                  level: 'note' as const,
                  message: { text: `${path.relative(cwd, r.file) || r.file}: not checked: ${r.notChecked}` },
                })),
              ...results
                .filter((r) => r.skipReason)
                .map((r) => ({
                  level: 'note' as const,
                  message: { text: `${path.relative(cwd, r.file) || r.file}: skipped: ${r.skipReason}` },
                })),
              ...uncheckedNotification(results),
            ],
          },
        ],
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** SARIF: the references not checked against their definitions, as one notification with the counts. */
function uncheckedNotification(results: FileResult[]): Sarif.Notification[] {
  const unchecked = uncheckedOf(results);
  const text = describeUnchecked(unchecked);
  return text
    ? [{ level: 'warning', message: { text }, descriptor: { id: 'unchecked-references' }, properties: { uncheckedReferences: unchecked } }]
    : [];
}
