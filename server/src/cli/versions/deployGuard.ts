// `policyset deploy --against <file|git revision>`: before anything is sent, the version check of the
// change against the set as it was. A change that asks for more than the version to deploy gives is
// refused (the caller sends nothing and exits 1), unless --allow-breaking, which is said.
import * as fs from 'node:fs';
import { checkVersions, type ChangeReport, type CompareOptions } from '../../service';
import { compareRead, diskReader, readSetFile } from './versionSides';
import { showAtRevision, verifyRevision } from './git';
import { safe } from './diffReport';

export interface GuardResult {
  /** false: refuse (nothing may be sent). */
  allowed: boolean;
  /** Lines for standard error, each a sentence. */
  lines: string[];
}

/**
 * Compares `file` (as deployed, under `version`) with `against`: a file when one is there by that name,
 * else a git revision of `file`.
 */
export async function guardDeployment(
  file: string,
  version: string,
  against: string,
  allowBreaking: boolean,
  options: CompareOptions,
): Promise<GuardResult> {
  const newText = await diskReader([file]);
  let oldRead;
  let label: string;
  if (fs.existsSync(against) && fs.statSync(against).isFile()) {
    label = against;
    oldRead = readSetFile(against, await diskReader([against]));
  } else {
    verifyRevision(against);
    label = `${against}:${file}`;
    const text = showAtRevision(against, file);
    if (text === undefined) return { allowed: true, lines: [`${file} is new since ${against}: no earlier version to check against`] };
    oldRead = readSetFile(
      file,
      () => text,
      () => label,
    );
  }
  const reports: ChangeReport[] = compareRead(oldRead, readSetFile(file, newText), options);
  const report = reports.find((r) => r.old && r.new);
  if (!report) return { allowed: true, lines: [`${label} holds no set to compare with ${file}`] };
  // The version that will be sent (--version may differ from the file's).
  const check = checkVersions(report.old?.version, version, report.requiredBump);
  const breaking = report.changes.filter((c) => c.bump === 'major');
  const lines = [
    `against ${label}${report.old?.version ? ` (${report.old.version})` : ''}: ${report.changes.length} change${report.changes.length === 1 ? '' : 's'}, ${report.requiredBump === 'none' ? 'no version change needed' : `a ${report.requiredBump} version needed`}`,
  ];
  for (const change of report.changes.filter((c) => c.bump !== 'patch').slice(0, 20))
    lines.push(`  ${change.bump.padEnd(5)}  ${safe(change.message)} (${change.kind})`);
  if (check.ok !== false) {
    if (check.ok === null && check.problem) lines.push(check.problem);
    return { allowed: true, lines };
  }
  const what = breaking.length
    ? `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'}`
    : `a ${report.requiredBump} change`;
  if (allowBreaking) {
    lines.push(`--allow-breaking: deploying ${what} as version ${version} although ${check.problem ?? 'the version is not bumped enough'}`);
    return { allowed: true, lines };
  }
  lines.push(
    `not deployed: ${what} under version ${version}: ${check.problem}${check.suggested ? ` (deploy it as ${check.suggested}, with --version ${check.suggested} or in the file)` : ''}; --allow-breaking deploys it anyway`,
  );
  return { allowed: false, lines };
}
