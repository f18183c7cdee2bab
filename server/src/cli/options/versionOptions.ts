// The version check's settings on the command line: what a reference added, or removed, asks of the version.
// `--reference-added` / `--reference-removed`, else .policysetrc.json { "versions": { "referenceAdded": ...,
// "referenceRemoved": ... } } (the nearest, as lint finds it; the editor reads the same keys from the
// workspace's .policysetrc.json and the settings policySet.versions.*), else minor for an addition and
// major for a removal. docs/versions.md says why they are settings.
import { UsageError } from '../../node/files';
import { findConfigFile, loadConfigFile } from '../../node/config';
import type { PolicySetConfig } from '../../service/config';

export const VERSION_OPTIONS_USAGE = `      --reference-added <minor|major>      What a reference added asks for (default: minor, or
                                           .policysetrc.json {"versions": {"referenceAdded": ...}})
      --reference-removed <minor|major>    What a reference removed asks for (default: major, or
                                           .policysetrc.json {"versions": {"referenceRemoved": ...}})
`;

function versionsConfig(): PolicySetConfig['versions'] {
  const file = findConfigFile(process.cwd());
  if (!file) return undefined;
  try {
    return loadConfigFile(file).config.versions;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function setting(
  flag: string | undefined,
  name: string,
  key: 'referenceAdded' | 'referenceRemoved',
  fallback: 'minor' | 'major',
): 'minor' | 'major' {
  if (flag !== undefined) {
    if (flag !== 'minor' && flag !== 'major') throw new UsageError(`--${name} takes minor or major, not '${flag}'`);
    return flag;
  }
  return versionsConfig()?.[key] ?? fallback;
}

export function referenceAddedSetting(flag: string | undefined): 'minor' | 'major' {
  return setting(flag, 'reference-added', 'referenceAdded', 'minor');
}

export function referenceRemovedSetting(flag: string | undefined): 'minor' | 'major' {
  return setting(flag, 'reference-removed', 'referenceRemoved', 'major');
}

/** Both settings, from the parsed flags `reference-added` and `reference-removed`. */
export function versionSettings(values: Record<string, unknown>): {
  referenceAdded: 'minor' | 'major';
  referenceRemoved: 'minor' | 'major';
} {
  return {
    referenceAdded: referenceAddedSetting(values['reference-added'] as string | undefined),
    referenceRemoved: referenceRemovedSetting(values['reference-removed'] as string | undefined),
  };
}
