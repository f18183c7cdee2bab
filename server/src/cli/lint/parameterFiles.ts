// The policy-as-code framework's CSV parameter files: a .csv file is linted when an assignment file among the
// files linted names it with `parameterFile` (by its name, or by a path from the assignment file's folder, as
// the framework finds it), and checked against the branches that name it. Every other .csv file is left alone.
import * as path from 'node:path';
import { decodeText, validateText, cloudOfPath, parsePolicyDocument, type DefinitionCatalog } from '../../service';
import { parameterFilesNamedBy } from '../../service/consumers';
import type { FileReader } from '../../node/files';
import { diagnosticIdentities, type FileResult, type LintSettings } from './lintFile';

/** Files whose text may name a parameter file (searched without parsing). */
export const NAMES_PARAMETER_FILE = Buffer.from('"parameterFile"');

export function lintParameterFiles(
  csvFiles: Array<{ path: string; explicit: boolean }>,
  assignmentFiles: string[],
  reader: FileReader,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
): FileResult[] {
  if (!csvFiles.length) return [];
  const byPath = new Map(csvFiles.map((f) => [path.resolve(f.path), f]));
  const byName = new Map<string, string[]>();
  for (const f of byPath.keys()) {
    const name = path.basename(f).toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  const namers = new Map<string, Array<{ uri: string; text: string }>>();
  for (const file of assignmentFiles) {
    let text: string;
    try {
      text = decodeText(reader.read(file)).text;
    } catch {
      continue; // Reported where the file is linted.
    }
    const named = parameterFilesNamedBy(parsePolicyDocument(text, { model: false }).parsed.root);
    for (const value of named) {
      // A path from the assignment file's folder (or an absolute one), else any file of that name linted.
      const relative = path.resolve(path.dirname(file), value);
      const targets = byPath.has(relative) ? [relative] : (byName.get(path.basename(value.replace(/\\/g, '/')).toLowerCase()) ?? []);
      for (const target of targets) namers.set(target, [...(namers.get(target) ?? []), { uri: file, text }]);
    }
  }
  const results: FileResult[] = [];
  for (const [full, csv] of byPath) {
    const assignments = namers.get(full);
    if (!assignments) {
      if (csv.explicit)
        results.push({
          file: csv.path,
          kind: 'unknown',
          diagnostics: [],
          skipped: true,
          notChecked: 'a .csv file that no assignment file among the files linted names as its parameterFile',
          internalErrors: [],
          identities: [],
        });
      continue;
    }
    let text: string;
    try {
      text = decodeText(reader.read(csv.path)).text;
    } catch (error) {
      results.push({
        file: csv.path,
        kind: 'unknown',
        diagnostics: [],
        skipped: false,
        error: (error as Error).message,
        internalErrors: [],
        identities: [],
      });
      continue;
    }
    const result = validateText(text, {
      uri: csv.path,
      definitions: catalog,
      cloud: settings.cloud ?? cloudOfPath(csv.path),
      severities: settings.severities,
      minSeverity: settings.minSeverity,
      docsBaseUrl: settings.docsBaseUrl,
      parameterFile: { assignments },
    });
    results.push({
      file: csv.path,
      kind: result.kind,
      diagnostics: result.diagnostics,
      skipped: false,
      internalErrors: result.internalErrors,
      identities: settings.identities === false ? [] : diagnosticIdentities(text, result.diagnostics),
    });
  }
  return results;
}
