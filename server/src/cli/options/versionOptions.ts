// The version check's one setting on the command line: what a reference added asks of the version.
// `--reference-added`, else .policysetrc.json { "versions": { "referenceAdded": "minor" | "major" } } (the
// nearest, as lint finds it; the editor reads the same key from the workspace's .policysetrc.json and the setting
// policySet.versions.referenceAdded), else minor. docs/versions.md says why it is a setting.
import { UsageError } from '../../node/files';
import { findConfigFile, loadConfigFile } from '../../node/config';

export const VERSION_OPTIONS_USAGE = `      --reference-added <minor|major>      What a reference added asks for (default: minor, or
                                           .policysetrc.json {"versions": {"referenceAdded": ...}})
`;

export function referenceAddedSetting(flag: string | undefined): 'minor' | 'major' {
  if (flag !== undefined) {
    if (flag !== 'minor' && flag !== 'major') throw new UsageError(`--reference-added takes minor or major, not '${flag}'`);
    return flag;
  }
  const file = findConfigFile(process.cwd());
  if (!file) return 'minor';
  try {
    return loadConfigFile(file).config.versions?.referenceAdded ?? 'minor';
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
