import * as fs from 'node:fs';
import { decodeText, splitPartOf, splitSetOf, validateSplitSet, type DefinitionCatalog } from '../../service';
import { readUserFileSync } from '../../node/files';
import { diagnosticIdentities, type FileResult, type LintSettings } from './lintFile';

interface Task {
  file: string;
  read: () => Uint8Array;
}

const textOf = (bytes: Uint8Array) => decodeText(bytes).text;

/**
 * Sets kept in the cloud CLI's split layout (`<base>.definitions.json`, `.parameters.json`, `.groups.json`):
 * each base among the tasks is assembled once (a named part's text from its task, a part not named from
 * beside the others) and, when its parts make a set, checked as one. Returns a result for every part, and
 * the tasks that are not parts of a set.
 */
export function lintSplitSets<T extends Task>(
  tasks: T[],
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
): { results: FileResult[]; rest: T[] } {
  const byFile = new Map(tasks.map((task) => [task.file, task]));
  /** One named part per base: its set is found from it. */
  const bases = new Map<string, string>();
  for (const task of tasks) {
    const part = splitPartOf(task.file);
    if (part && !bases.has(part.base)) bases.set(part.base, task.file);
  }
  const partText = (file: string): string | undefined => {
    const task = byFile.get(file);
    try {
      // Unreadable: linted on its own when named (which reports it), else the set is checked without it.
      if (task) return textOf(task.read());
      return fs.existsSync(file) ? textOf(readUserFileSync(file, 'document')) : undefined;
    } catch {
      return undefined;
    }
  };
  const results: FileResult[] = [];
  const claimed = new Set<T>();
  for (const file of bases.values()) {
    const parts = splitSetOf(file, partText);
    if (!parts) continue;
    const byPart = validateSplitSet(parts, {
      definitions: catalog,
      severities: settings.severities,
      minSeverity: settings.minSeverity,
      cloud: settings.cloud,
      docsBaseUrl: settings.docsBaseUrl,
    });
    for (const { uri, text } of Object.values(parts)) {
      const task = byFile.get(uri);
      if (task) claimed.add(task);
      const diagnostics = byPart.get(uri) ?? [];
      // Its problems are found in the assembled set: --fix leaves a part as it is, and says so.
      const notFixed =
        settings.fix && diagnostics.length
          ? 'a part of a set in the split layout: its problems are found in the set assembled from its parts, and --fix writes no part'
          : undefined;
      results.push({
        file: uri,
        kind: 'policySetPart',
        diagnostics,
        skipped: false,
        internalErrors: [],
        identities: settings.identities === false ? [] : diagnosticIdentities(text, diagnostics),
        ...(notFixed ? { notFixed } : {}),
      });
    }
  }
  return { results, rest: tasks.filter((t) => !claimed.has(t)) };
}
