// Files checked with others the lint engine finds for them. The landing-zone library's default values
// (alz_policy_default_values.json) with the library's assignment files. The policy-as-code framework's CSV parameter files: a .csv file is linted when an assignment file among the
// files linted names it with `parameterFile` (by its name, or by a path from the assignment file's folder, as
// the framework finds it), and checked against the branches that name it. Every other .csv file is left alone.
import * as path from 'node:path';
import { decodeText, validateText, cloudOfPath, parsePolicyDocument, type DefinitionCatalog } from '../../service';
import { parameterFilesNamedBy } from '../../service/consumers';
import type { FileReader } from '../../node/files';
import { diagnosticIdentities, lintTask, unreadableResult, type FileResult, type LintSettings, type LintTask } from './lintFile';

/** The landing-zone library's default values file (the library's tooling reads it by this name). */
export const LIBRARY_DEFAULTS_FILE = /(^|[\\/])alz_policy_default_values\.json$/i;
export const LIBRARY_ASSIGNMENT_FILE = /\.alz_policy_assignment\.json$/i;

/**
 * Lints the library's default values files, each with the assignment files linted under its folder and under
 * the folders of the libraries its alz_library_metadata.json depends on (`path`, from the repository root
 * that its own `path` says). When a dependency's assignments are not among the files linted, an assignment
 * not found is not reported.
 */
export function lintLibraryDefaults(
  tasks: LintTask[],
  linted: string[],
  reader: Pick<FileReader, 'read'>,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
): FileResult[] {
  const assignmentFiles = linted.filter((f) => LIBRARY_ASSIGNMENT_FILE.test(f)).map((f) => path.resolve(f));
  const under = (dir: string) => assignmentFiles.filter((f) => f.startsWith(dir + path.sep));
  return tasks.map((task) => {
    const dir = path.resolve(path.dirname(task.file));
    const dirs = [dir];
    let complete = true;
    for (const dependency of dependenciesOf(dir, reader)) {
      if (dependency === undefined) complete = false;
      else {
        dirs.push(dependency);
        if (!under(dependency).length) complete = false;
      }
    }
    const files: Array<{ uri: string; text: string }> = [];
    for (const file of new Set(dirs.flatMap(under))) {
      try {
        files.push({ uri: file, text: decodeText(reader.read(file)).text });
      } catch {
        complete = false; // Reported where the file is linted.
      }
    }
    return lintTask(task, catalog, settings, { libraryAssignments: { files, complete } });
  });
}

/** The folders of the libraries a library depends on (undefined for one that cannot be found), from its metadata file. */
function dependenciesOf(dir: string, reader: Pick<FileReader, 'read'>): Array<string | undefined> {
  let metadata: unknown;
  try {
    metadata = JSON.parse(decodeText(reader.read(path.join(dir, 'alz_library_metadata.json'))).text);
  } catch {
    return []; // No metadata: a library of its own.
  }
  const own = typeof (metadata as { path?: unknown }).path === 'string' ? (metadata as { path: string }).path : undefined;
  const dependencies = (metadata as { dependencies?: unknown }).dependencies;
  if (!Array.isArray(dependencies)) return [];
  const ownParts = own?.split('/').filter(Boolean) ?? [];
  const dirParts = dir.split(path.sep);
  const matchesOwn = ownParts.length > 0 && ownParts.every((p, i) => dirParts[dirParts.length - ownParts.length + i] === p);
  const root = matchesOwn ? dirParts.slice(0, dirParts.length - ownParts.length).join(path.sep) : undefined;
  return dependencies.map((d) => {
    const p = (d as { path?: unknown })?.path;
    return root !== undefined && typeof p === 'string' ? path.join(root, ...p.split('/')) : undefined;
  });
}

/** Files whose text may name a parameter file (searched without parsing). */
export const NAMES_PARAMETER_FILE = Buffer.from('"parameterFile"');

export function lintParameterFiles(
  csvFiles: Array<{ path: string; explicit: boolean }>,
  assignmentFiles: string[],
  reader: Pick<FileReader, 'read'>,
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
      results.push(unreadableResult(csv.path, error));
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

/** Files that may name an assignment by its ID (exemption resources, enrollments), and files that may hold assignments. */
export const NAMES_ASSIGNMENT = Buffer.from('"policyAssignmentId"');
export const HOLDS_ASSIGNMENT = Buffer.from('/policyAssignments"');

/**
 * Lints the exemption resources and enrollments with the assignment files linted: their reference IDs are
 * checked against the set of the assignment they name (by its name), when it is among them.
 */
export function lintWithAssignments(
  tasks: LintTask[],
  assignmentFiles: string[],
  reader: Pick<FileReader, 'read'>,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
): FileResult[] {
  if (!tasks.length) return [];
  const files: Array<{ uri: string; text: string }> = [];
  for (const file of assignmentFiles) {
    try {
      files.push({ uri: file, text: decodeText(reader.read(file)).text });
    } catch {
      // Reported where the file is linted.
    }
  }
  const assignments = { files };
  return tasks.map((task) => {
    return lintTask(task, catalog, settings, { assignments });
  });
}
