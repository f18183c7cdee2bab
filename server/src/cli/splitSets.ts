import * as fs from 'node:fs';
import { isSplitSet, siblingNames, splitPartOf, validateSplitSet, SPLIT_PARTS, type DefinitionCatalog, type PartText, type SplitPart } from '../service';
import { diagnosticIdentities, type FileResult, type LintSettings } from './lintEngine';

interface Task {
  file: string;
  read: () => Uint8Array;
}

const textOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/**
 * Sets kept in the cloud CLI's split layout (`<base>.definitions.json`, `.parameters.json`, `.groups.json`):
 * the parts among the tasks are grouped by base, a part not named is read from beside the others, and each
 * group that makes a set is checked as one. Returns a result for every part, and the tasks that are not parts.
 */
export function lintSplitSets<T extends Task>(tasks: T[], catalog: DefinitionCatalog | undefined, settings: LintSettings): { results: FileResult[]; rest: T[] } {
  const groups = new Map<string, Map<SplitPart, { file: string; text: string; task?: T }>>();
  for (const task of tasks) {
    const part = splitPartOf(task.file);
    if (!part) continue;
    let group = groups.get(part.base);
    if (!group) groups.set(part.base, (group = new Map()));
    if (group.has(part.part)) continue;
    let text: string;
    try {
      text = textOf(task.read());
    } catch {
      continue; // Unreadable now: linted on its own, which reports it.
    }
    group.set(part.part, { file: task.file, text, task });
  }
  const results: FileResult[] = [];
  const claimed = new Set<T>();
  for (const [base, group] of groups) {
    // Siblings that were not named are read from beside the named parts.
    const siblings = siblingNames(base);
    for (const part of SPLIT_PARTS) {
      if (group.has(part)) continue;
      const file = siblings[part].find((f) => fs.existsSync(f));
      if (!file) continue;
      try {
        group.set(part, { file, text: fs.readFileSync(file, 'utf8') });
      } catch {
        // Unreadable: the set is checked without it, as if it were not there.
      }
    }
    const parts: Partial<Record<SplitPart, PartText>> = {};
    for (const [part, { file, text }] of group) parts[part] = { uri: file, text };
    if (!isSplitSet(parts)) continue;
    const byFile = validateSplitSet(parts, { definitions: catalog, severities: settings.severities, minSeverity: settings.minSeverity, cloud: settings.cloud, docsBaseUrl: settings.docsBaseUrl });
    for (const [, { file, text, task }] of group) {
      if (task) claimed.add(task);
      const diagnostics = byFile.get(file) ?? [];
      results.push({ file, kind: 'policySetPart', diagnostics, skipped: false, internalErrors: [], identities: settings.identities === false ? [] : diagnosticIdentities(text, diagnostics) });
    }
  }
  return { results, rest: tasks.filter((t) => !claimed.has(t)) };
}
