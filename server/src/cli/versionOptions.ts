// The version check's one setting on the command line: what a reference added asks of the version.
// `--reference-added`, else .policysetrc.json { "versions": { "referenceAdded": "minor" | "major" } } in the
// current folder (the editor reads the same key from the workspace's .policysetrc.json and the setting
// policySet.versions.referenceAdded), else minor. docs/versions.md says why it is a setting.
import * as fs from 'node:fs';
import { UsageError } from '../node/files';

export const VERSION_OPTIONS_USAGE = `      --reference-added <minor|major>      What a reference added asks for (default: minor, or
                                           .policysetrc.json {"versions": {"referenceAdded": ...}})
`;

export function referenceAddedSetting(flag: string | undefined): 'minor' | 'major' {
  if (flag !== undefined) {
    if (flag !== 'minor' && flag !== 'major') throw new UsageError(`--reference-added takes minor or major, not '${flag}'`);
    return flag;
  }
  let text: string;
  try {
    text = fs.readFileSync('.policysetrc.json', 'utf8');
  } catch {
    return 'minor';
  }
  let value: unknown;
  try {
    value = (JSON.parse(text) as { versions?: { referenceAdded?: unknown } })?.versions?.referenceAdded;
  } catch (error) {
    throw new UsageError(`.policysetrc.json: ${(error as Error).message}`);
  }
  if (value === undefined) return 'minor';
  if (value !== 'minor' && value !== 'major') throw new UsageError(`.policysetrc.json: versions.referenceAdded must be "minor" or "major"`);
  return value;
}
