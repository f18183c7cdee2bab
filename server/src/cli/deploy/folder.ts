// `policyset deploy <folder> --against <revision>`: the sets of a folder that changed since the revision, each
// checked as `deploy <file> --against` checks one (lint, what is sent, the version its changes need), shown as
// one plan, confirmed once, then one PUT each in order. A PUT that fails stops the rest; one whose outcome is
// unknown (it may have been applied) is never sent again.
import { parse as parseJsonc } from 'jsonc-parser';
import {
  describeScope,
  putOutcome,
  safeText,
  versionToDeploy,
  type DeploymentScope,
  type PolicySetClient,
  type VersionToDeploy,
} from '#api';
import { readBytes } from '../../node/files';
import { decodeText, type CompareOptions, type DefinitionCatalog, type SeveritySetting } from '../../service';
import { lintBytes } from '../lint/lintFile';
import { compareAgainstRevision } from '../versions/versionSides';
import { confirm, reportApiError } from '../options/serviceOptions';
import { deployableDocument, NotDeployable } from './body';

export interface FolderDeployment {
  folder: string;
  against: string;
  scope: DeploymentScope;
  client: PolicySetClient;
  namespace: string;
  secrets: Array<string | undefined>;
  catalog?: DefinitionCatalog;
  lint: { severities: Record<string, SeveritySetting>; cloud?: string };
  compare: CompareOptions;
  yes: boolean;
  allowBreaking: boolean;
}

interface PlannedSet {
  file: string;
  target: VersionToDeploy & { name: string; version: string };
  oldVersion?: string;
  bump: string;
  changes: number;
  notes: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const say = (line: string) => process.stderr.write(`policyset: ${line}\n`);

/** Exit status: 0 deployed (or nothing changed), 1 refused or not confirmed, 2 input problems or a PUT that failed. */
export async function deployFolder(d: FolderDeployment): Promise<number> {
  const comparison = await compareAgainstRevision(d.against, [d.folder], d.compare);
  const changed = comparison.reports.filter((r) => r.new && (r.changes.length > 0 || !r.old));
  const removed = comparison.reports.filter((r) => !r.new && r.old);
  for (const r of removed) say(`${safeText(r.old!.file)}: removed since ${d.against}; deploy never deletes a set (nothing sent for it)`);
  if (!changed.length) {
    process.stdout.write(`Nothing to deploy: no set under ${safeText(d.folder)} changed since ${safeText(d.against)}.\n`);
    return 0;
  }
  const byFile = new Map<string, typeof changed>();
  for (const r of changed) byFile.set(r.new!.file, [...(byFile.get(r.new!.file) ?? []), r]);

  const planned: PlannedSet[] = [];
  const refusals: string[] = [];
  const inputProblems: string[] = [];
  for (const [file, reports] of byFile) {
    if (reports.length > 1) {
      inputProblems.push(`${file} holds ${reports.length} sets that changed: deploy its template instead`);
      continue;
    }
    const report = reports[0];
    const bytes = await readBytes(file);
    const errors = lintBytes(file, bytes, true, d.catalog, d.lint).diagnostics.filter((x) => x.severity === 1);
    if (errors.length) {
      refusals.push(`${file} has ${plural(errors.length, 'error')} (policyset lint ${file} lists them)`);
      continue;
    }
    let deployable;
    let target;
    try {
      const text = decodeText(bytes).text;
      deployable = deployableDocument(text, parseJsonc(text), { scope: d.scope, namespace: d.namespace, catalog: d.catalog });
      target = versionToDeploy(deployable.document);
    } catch (error) {
      inputProblems.push(`${file}: ${error instanceof NotDeployable ? 'not deployed: ' : ''}${(error as Error).message}`);
      continue;
    }
    if (!target.name || !target.version) {
      inputProblems.push(
        `${file} does not name its set and its version (its name, properties.version or properties.metadata.version): deploy it alone with --name and --version`,
      );
      continue;
    }
    if (report.versionOk === false && !d.allowBreaking) {
      refusals.push(
        `${file}: its ${plural(report.changes.length, 'change')} need a ${report.requiredBump} version, and ${target.version} ${report.old?.version ? `after ${report.old.version} ` : ''}is not one${report.suggestedVersion ? ` (use ${report.suggestedVersion})` : ''}`,
      );
      continue;
    }
    planned.push({
      file,
      target: { ...target, name: target.name, version: target.version },
      oldVersion: report.old?.version,
      bump: report.requiredBump,
      changes: report.changes.length,
      notes: [...deployable.notes, ...target.omitted.map((o) => `left out: ${o}`)],
    });
  }

  // The plan, as one table, before anything is sent.
  const rows = planned.map((p) => [
    safeText(p.target.name),
    `${p.oldVersion ? `${safeText(p.oldVersion)} -> ` : 'new -> '}${safeText(p.target.version)}`,
    p.oldVersion ? p.bump : 'new',
    String(p.changes),
    safeText(p.file),
  ]);
  const header = ['set', 'version', 'needs', 'changes', 'file'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out: string[] = [
    `Deploy plan: ${plural(changed.length, 'set')} changed under ${safeText(d.folder)} since ${safeText(d.against)}, to ${describeScope(d.scope)}`,
    '',
    line(header),
    ...rows.map(line),
  ];
  for (const p of planned) for (const note of p.notes) out.push(`  ${safeText(p.target.name)}: ${note}`);
  process.stdout.write(out.join('\n') + '\n');
  if (refusals.length || inputProblems.length) {
    for (const problem of [...inputProblems, ...refusals]) say(problem);
    say(`nothing sent: ${plural(inputProblems.length + refusals.length, 'set')} cannot be deployed as they are`);
    return inputProblems.length ? 2 : 1;
  }
  if (!(await confirm(`Deploy ${plural(planned.length, 'set version')}?`, d.yes, 'nothing was sent'))) return 1;

  const applied: string[] = [];
  for (const [i, p] of planned.entries()) {
    const label = `${p.target.name} ${p.target.version}`;
    say(`PUT ${d.client.versionUrl(d.scope, p.target.name, p.target.version)}`);
    try {
      const response = await d.client.createPolicySetDefinitionVersion(d.scope, p.target.name, p.target.version, p.target.properties);
      applied.push(label);
      process.stdout.write(`${response.status === 201 ? 'created' : 'updated'} ${safeText(label)} (${response.status})\n`);
    } catch (error) {
      reportApiError(error, d.secrets);
      const unknown = putOutcome(error) === 'unknown';
      const notSent = planned.slice(i + 1).map((n) => `${n.target.name} ${n.target.version}`);
      process.stdout.write(
        [
          `Deployed ${applied.length} of ${planned.length}${applied.length ? `: ${applied.map((a) => safeText(a)).join(', ')}` : ''}.`,
          unknown
            ? `UNKNOWN ${safeText(label)}: its PUT was sent and may have been applied; it is not sent again (read the set before deploying again).`
            : `failed ${safeText(label)}: not applied.`,
          ...(notSent.length ? [`not sent: ${notSent.map((n) => safeText(n)).join(', ')}`] : []),
        ].join('\n') + '\n',
      );
      return 2;
    }
  }
  process.stdout.write(`Deployed ${applied.length} of ${planned.length}.\n`);
  return 0;
}
