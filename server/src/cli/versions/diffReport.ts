// The outputs of `policyset diff`: text for a terminal, JSON (the documented shape), markdown for a
// pull-request comment, SARIF for code scanning (each change on its line of the new file).
import { untrusted } from '../formatters';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import { BUMP_OF, bumpRank, type Bump, type Change, type ChangeKind, type ChangeReport } from '../../service';

export type DiffFormat = 'text' | 'json' | 'markdown' | 'sarif';
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'json', 'markdown', 'sarif'];

/** A report as the JSON output gives it (the shape in docs/cli.md). */
export interface DiffJson {
  old: { file: string; version: string | null } | null;
  new: { file: string; version: string | null } | null;
  requiredBump: Bump;
  suggestedVersion: string | null;
  versionOk: boolean | null;
  versionProblem?: string;
  /** What a marker on a version (`-deprecated`, `-preview`) is, when either side has one. */
  versionNote?: string;
  /** `path`, `line` (1-based) and `file` name one place: in the new file, or in the old one for what was removed. */
  changes: Array<{
    kind: ChangeKind;
    bump: Bump;
    path: string;
    message: string;
    line: number;
    file: string;
    breaks?: Array<{ file: string; line: number }>;
  }>;
}

/** Terminal text: control characters from the files (names, values) are shown escaped, never sent (the one sanitiser). */
export const safe = untrusted;

export function toJson(report: ChangeReport): DiffJson {
  return {
    old: report.old ? { file: report.old.file, version: report.old.version ?? null } : null,
    new: report.new ? { file: report.new.file, version: report.new.version ?? null } : null,
    requiredBump: report.requiredBump,
    suggestedVersion: report.suggestedVersion ?? null,
    versionOk: report.versionOk,
    ...(report.versionProblem ? { versionProblem: report.versionProblem } : {}),
    ...(report.versionNote ? { versionNote: report.versionNote } : {}),
    changes: report.changes.map((change) => ({
      kind: change.kind,
      bump: change.bump,
      path: change.location.pointer,
      message: change.message,
      line: change.location.range.start.line + 1,
      file: change.location.file,
      ...(change.breaks ? { breaks: change.breaks } : {}),
    })),
  };
}

const relativeTo = (cwd: string, file: string) =>
  file.startsWith('builtin:') ? file : path.relative(cwd, path.resolve(cwd, file)) || file;

function title(report: ChangeReport, cwd: string): string {
  const side = (s: ChangeReport['old']) => (s ? `${relativeTo(cwd, s.file)}${s.version ? ` (${s.version})` : ''}` : '(none)');
  return `${side(report.old)} -> ${side(report.new)}`;
}

function verdict(report: ChangeReport): string {
  const needs = report.requiredBump === 'none' ? 'no version change needed' : `needs a ${report.requiredBump} version`;
  if (!report.old) return 'new: nothing to compare';
  if (!report.new) return 'removed';
  if (report.versionOk === true) return `${needs}; version ok`;
  if (report.versionOk === false) return report.versionProblem ?? `${needs}; version not bumped enough`;
  return `${needs}${report.suggestedVersion && report.requiredBump !== 'none' ? ` (suggested: ${report.suggestedVersion})` : ''}${report.versionProblem ? `; ${report.versionProblem}` : ''}`;
}

export function formatDiffText(reports: ChangeReport[], cwd: string, color: boolean): string {
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const bumpColor: Record<Bump, string> = { major: '31', minor: '33', patch: '36', none: '2' };
  const lines: string[] = [];
  for (const report of reports) {
    // Many sets (--against): the unchanged ones are counted in the last line, not listed.
    if (reports.length > 1 && !report.changes.length && report.versionOk !== false && report.old && report.new) continue;
    lines.push(paint('4', safe(title(report, cwd))) + `: ${safe(verdict(report))}`);
    if (report.versionNote && (report.changes.length || report.versionOk === false))
      lines.push(`  ${paint('2', safe(report.versionNote))}`);
    for (const change of report.changes) {
      const where = `${relativeTo(cwd, change.location.file)}:${change.location.range.start.line + 1}:${change.location.range.start.character + 1}`;
      lines.push(
        `  ${paint(bumpColor[change.bump], change.bump.padEnd(5))}  ${safe(change.message)}  ${paint('2', `${change.kind} ${safe(where)}`)}`,
      );
      if (change.breaks?.length)
        lines.push(`         breaks ${change.breaks.map((b) => safe(`${relativeTo(cwd, b.file)}:${b.line}`)).join(', ')}`);
    }
  }
  const changed = reports.filter((r) => r.changes.length).length;
  lines.push(`${reports.length} set${reports.length === 1 ? '' : 's'} compared, ${changed} with changes`);
  return lines.join('\n') + '\n';
}

// Line breaks become spaces before the sanitiser, which would otherwise show them as \u000a in the cell.
const escapeCell = (text: string) => safe(text.replace(/\r\n?|\n/g, ' ')).replace(/\|/g, '\\|');

/** A set worth a section: something changed, the version fails, or the set is new or gone. */
const listed = (report: ChangeReport) => report.changes.length > 0 || report.versionOk === false || !report.old || !report.new;

/** One line over every set compared: how many changed, the bump they need, how many versions fail. */
export function diffSummary(reports: ChangeReport[]): string {
  const changed = reports.filter((r) => r.changes.length);
  const failing = reports.filter((r) => r.versionOk === false).length;
  const byBump = (['major', 'minor', 'patch'] as const)
    .map((bump) => [bump, changed.filter((r) => r.requiredBump === bump).length] as const)
    .filter(([, n]) => n > 0);
  const sets = (n: number) => `${n} set${n === 1 ? '' : 's'}`;
  return `${sets(reports.length)} compared, ${changed.length} with changes${byBump.length ? ` (${byBump.map(([bump, n]) => `${n} ${bump}`).join(', ')})` : ''}, ${failing ? `${failing} with a version bumped too little` : 'every version bumped enough'}.`;
}

/** For a pull-request comment: one summary line, then each changed set: its verdict and a table per bump (most breaking first). */
export function formatDiffMarkdown(reports: ChangeReport[], cwd: string): string {
  const out: string[] = ['## Policy set changes', '', escapeCell(diffSummary(reports)), ''];
  for (const report of reports) {
    if (!listed(report)) continue;
    const status = report.versionOk === false ? '❌' : report.versionOk === true ? '✅' : '➖';
    out.push(
      `### ${escapeCell(title(report, cwd))}`,
      '',
      `${status} **${report.requiredBump}** change: ${escapeCell(verdict(report))}`,
      '',
    );
    if (report.versionNote) out.push(`_${escapeCell(report.versionNote)}_`, '');
    for (const bump of ['major', 'minor', 'patch'] as const) {
      const changes = report.changes.filter((c) => c.bump === bump);
      if (!changes.length) continue;
      // With --consumers, a column of the consumer places each change that takes something away breaks.
      const breaks = changes.some((c) => c.breaks);
      out.push(
        `#### ${bump[0].toUpperCase()}${bump.slice(1)} (${changes.length})`,
        '',
        `| Change | Kind | Where |${breaks ? ' Breaks |' : ''}`,
        `|---|---|---|${breaks ? '---|' : ''}`,
      );
      for (const change of changes) {
        const where = `${relativeTo(cwd, change.location.file)}:${change.location.range.start.line + 1} \`${change.location.pointer}\``;
        const broken = !change.breaks
          ? ''
          : change.breaks.length
            ? escapeCell(change.breaks.map((b) => `${relativeTo(cwd, b.file)}:${b.line}`).join(', '))
            : 'none found';
        out.push(`| ${escapeCell(change.message)} | \`${change.kind}\` | ${escapeCell(where)} |${breaks ? ` ${broken} |` : ''}`);
      }
      out.push('');
    }
    if (!report.changes.length) out.push('No changes that assignments can see.', '');
  }
  return out.join('\n');
}

/** Message text of SARIF, where `[text](id)` is a link: brackets of the files' own text are escaped (SARIF 3.11.6). */
const sarifText = (text: string) => text.replace(/[[\]\\]/g, (c) => `\\${c}`);

const SARIF_LEVEL: Record<Bump, Sarif.Result.level> = { major: 'error', minor: 'warning', patch: 'note', none: 'none' };

/** SARIF 2.1.0: one rule per change kind (plus the version check); each change on its line of the new file. */
export function formatDiffSarif(reports: ChangeReport[], cwd: string, toolVersion: string): string {
  const kinds = Object.keys(BUMP_OF) as ChangeKind[];
  const rules: Sarif.ReportingDescriptor[] = [
    ...kinds.map((kind) => ({
      id: kind,
      name: kind,
      shortDescription: { text: `${kind.replace(/-/g, ' ')} (${BUMP_OF[kind]})` },
      defaultConfiguration: { level: SARIF_LEVEL[BUMP_OF[kind]] },
    })),
    {
      id: 'version-not-bumped',
      name: 'version-not-bumped',
      shortDescription: { text: 'The version is not bumped as far as the change requires' },
      defaultConfiguration: { level: 'error' },
    },
  ];
  const artifact = (file: string) => {
    const relative = path.relative(cwd, path.resolve(cwd, file));
    return relative.startsWith('..') || path.isAbsolute(relative)
      ? { uri: pathToFileURL(path.resolve(cwd, file)).href }
      : { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  };
  const region = (range: Change['location']['range']): Sarif.Region => ({
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  });
  const results: Sarif.Result[] = [];
  for (const report of reports) {
    for (const change of report.changes) {
      if (!change.inNew || bumpRank(change.bump) === 0) continue;
      // The consumers a change breaks (--consumers): related locations, linked from the message, so that code
      // scanning shows the result on the set's changed line (in the pull request's diff) and links each consumer.
      const broken = change.breaks ?? [];
      const links = broken.map((b, i) => `[${sarifText(`${relativeTo(cwd, b.file)}:${b.line}`)}](${i + 1})`);
      const breaks = broken.length
        ? ` It breaks ${broken.length === 1 ? 'this consumer' : `these ${broken.length} consumers`}: ${links.join(', ')}.`
        : '';
      results.push({
        ruleId: change.kind,
        ruleIndex: kinds.indexOf(change.kind),
        level: SARIF_LEVEL[change.bump],
        message: { text: `${breaks ? sarifText(change.message) : change.message} (${change.bump})${breaks}` },
        locations: [{ physicalLocation: { artifactLocation: artifact(change.inNew.file), region: region(change.inNew.range) } }],
        ...(broken.length
          ? {
              relatedLocations: broken.map((b, i) => ({
                id: i + 1,
                physicalLocation: { artifactLocation: artifact(b.file), region: { startLine: b.line } },
                message: { text: 'consumer that names it' },
              })),
            }
          : {}),
        properties: { bump: change.bump, path: change.location.pointer, ...(change.breaks ? { breaks: change.breaks.length } : {}) },
      });
    }
    if (report.versionOk === false && report.versionLocation) {
      results.push({
        ruleId: 'version-not-bumped',
        ruleIndex: rules.length - 1,
        level: 'error',
        message: { text: report.versionProblem ?? 'The version is not bumped enough' },
        locations: [
          { physicalLocation: { artifactLocation: artifact(report.versionLocation.file), region: region(report.versionLocation.range) } },
        ],
        properties: { suggestedVersion: report.suggestedVersion },
      });
    }
  }
  const log: Sarif.Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'policyset diff', version: toolVersion, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith(path.sep) ? cwd : cwd + path.sep).href } },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
