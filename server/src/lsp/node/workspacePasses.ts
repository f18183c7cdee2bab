// The checks the lint engine makes of some files with others (cli/lint/parameterFiles.ts), made by the
// workspace check (workspaceLint.ts) as `policyset lint <folder>` makes them: the policy-as-code framework's
// CSV parameter files with the assignment files that name them, exemption resources and enrollments with the
// files that hold assignments, the landing-zone library's default values with the library's assignment files
// (and its alz_library_metadata.json). The invalidation is by role, per folder: a change to a file of a kind
// such a check reads re-checks the folder's files of the kind it checks (every CSV file, every file naming an
// assignment, every default values file), together in one run of the engine's pass. The definitions and sets
// they look up are recorded as for every other check (workspaceDependencies.ts).
import type { DefinitionCatalog } from '../../service';
import { splitPartOf, siblingsOf } from '../../service';
import { PARAMETER_FILE } from '../../node/files';
import { lintTask, type FileResult, type LintSettings, type LintTask } from '../../cli/lint/lintFile';
import { lintSplitSets } from '../../cli/lint/splitSets';
import {
  HOLDS_ASSIGNMENT,
  LIBRARY_ASSIGNMENT_FILE,
  LIBRARY_DEFAULTS_FILE,
  NAMES_ASSIGNMENT,
  NAMES_PARAMETER_FILE,
  lintLibraryDefaults,
  lintParameterFiles,
  lintWithAssignments,
} from '../../cli/lint/parameterFiles';
import type { FileState } from './workspaceDependencies';
import type { FolderState } from './workspaceFolders';

/** A .csv file (a parameter file when an assignment file names it). */
export const ROLE_CSV = 1;
/** It may name a parameter file (`parameterFile`). */
const ROLE_NAMES_PARAMETER_FILE = 2;
/** It may name an assignment by its ID (an exemption, an enrollment). */
const ROLE_NAMES_ASSIGNMENT = 4;
/** It may hold an assignment. */
const ROLE_HOLDS_ASSIGNMENT = 8;
/** The library's default values file. */
const ROLE_LIBRARY_DEFAULTS = 16;
/** A library assignment file, or a library's metadata (what the default values are checked with). */
const ROLE_LIBRARY_INPUT = 32;

const LIBRARY_METADATA = /(^|[\\/])alz_library_metadata\.json$/i;

/** A .csv file, as the CLI's discovery finds them. */
export const isCsv = (file: string) => PARAMETER_FILE.test(file);

/** What a file is to the checks made with others: found in its bytes as the lint engine finds it (a consumer's text), and by its name. */
export function rolesOf(file: string, bytes: Uint8Array, consumer: boolean): number {
  let roles = 0;
  if (consumer) {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.includes(NAMES_PARAMETER_FILE)) roles |= ROLE_NAMES_PARAMETER_FILE;
    if (buffer.includes(NAMES_ASSIGNMENT)) roles |= ROLE_NAMES_ASSIGNMENT;
    if (buffer.includes(HOLDS_ASSIGNMENT)) roles |= ROLE_HOLDS_ASSIGNMENT;
  }
  if (LIBRARY_DEFAULTS_FILE.test(file)) roles |= ROLE_LIBRARY_DEFAULTS;
  if (LIBRARY_ASSIGNMENT_FILE.test(file) || LIBRARY_METADATA.test(file)) roles |= ROLE_LIBRARY_INPUT;
  return roles;
}

/** The roles of the files whose checks depend on a changed file of these roles (its roles before and after the change). */
export function dependentRoles(changed: number): number {
  let roles = 0;
  if (changed & (ROLE_CSV | ROLE_NAMES_PARAMETER_FILE)) roles |= ROLE_CSV;
  if (changed & ROLE_HOLDS_ASSIGNMENT) roles |= ROLE_NAMES_ASSIGNMENT;
  if (changed & ROLE_LIBRARY_INPUT) roles |= ROLE_LIBRARY_DEFAULTS;
  return roles;
}

export interface PassFiles {
  files: Map<string, FileState>;
  dirty: Set<string>;
  isOpen(file: string): boolean;
  bytesOf(file: string): Uint8Array;
}

/**
 * Checks `file` as the lint engine would, with the files its check is made together with: the folder's other
 * CSV files, default values files or files naming an assignment waiting to be checked, the other parts of a
 * split set. The results may hold open files (the caller leaves them out).
 */
export function checkWith(
  file: string,
  state: FileState,
  ctx: PassFiles,
  catalog: DefinitionCatalog | undefined,
  settings: LintSettings,
): FileResult[] {
  const folder = state.folder;
  const roles = state.roles ?? 0;
  const task = (f: string): LintTask => ({ file: f, read: () => ctx.bytesOf(f), size: 0, explicit: false });
  const reader = { read: (f: string) => Buffer.from(ctx.bytesOf(f)) };
  const mine = (test: (s: FileState, f: string) => boolean) => {
    const found: string[] = [];
    for (const [f, s] of ctx.files) if (s.folder === folder && test(s, f)) found.push(f);
    return found.sort((a, b) => a.localeCompare(b));
  };
  const has = (s: FileState, role: number) => ((s.roles ?? 0) & role) !== 0;
  /** Files the engine reads: the folder's .json and .jsonc files that could be read. */
  const readable = (s: FileState, f: string) => !isCsv(f) && s.hash !== '';
  if (roles & ROLE_CSV) {
    // Every CSV file of the folder: a name resolves to one of them by its path, else by its file name.
    const csvFiles = mine((_s, f) => isCsv(f));
    const namers = mine((s, f) => readable(s, f) && has(s, ROLE_NAMES_PARAMETER_FILE));
    const results = lintParameterFiles(
      csvFiles.map((p) => ({ path: p, explicit: false })),
      namers,
      reader,
      catalog,
      settings,
    );
    const named = new Set(results.map((r) => r.file));
    // A CSV file no assignment names is not linted: its report is empty (what was said of it is cleared).
    for (const csv of csvFiles)
      if (!named.has(csv)) results.push({ file: csv, kind: 'unknown', diagnostics: [], skipped: true, internalErrors: [], identities: [] });
    return results;
  }
  const waiting = (_s: FileState, f: string) => f === file || (ctx.dirty.has(f) && !ctx.isOpen(f));
  if (roles & ROLE_LIBRARY_DEFAULTS) {
    const defaults = mine((s, f) => has(s, ROLE_LIBRARY_DEFAULTS) && waiting(s, f));
    return lintLibraryDefaults(defaults.map(task), mine(readable), reader, catalog, settings);
  }
  const holders = roles & ROLE_NAMES_ASSIGNMENT ? mine((s, f) => readable(s, f) && has(s, ROLE_HOLDS_ASSIGNMENT)) : [];
  if (holders.length) {
    const naming = mine((s, f) => has(s, ROLE_NAMES_ASSIGNMENT) && !has(s, ROLE_LIBRARY_DEFAULTS) && waiting(s, f));
    return lintWithAssignments(naming.map(task), holders, reader, catalog, settings);
  }
  if (splitPartOf(file)) {
    // The parts of its set that are workspace files are checked with it (as the CLI checks them, together),
    // but for the files checked with others above.
    const apart = (s: FileState) => has(s, ROLE_LIBRARY_DEFAULTS) || (has(s, ROLE_NAMES_ASSIGNMENT) && hasHolders(ctx, folder));
    const parts = [file, ...siblingsOf(file).filter((s) => ctx.files.has(s) && !ctx.isOpen(s) && !apart(ctx.files.get(s)!))];
    const split = lintSplitSets(parts.map(task), catalog, settings);
    return [...split.results, ...split.rest.map((t) => lintTask(t, catalog, settings))];
  }
  return [lintTask(task(file), catalog, settings)];
}

function hasHolders(ctx: PassFiles, folder: FolderState): boolean {
  for (const [f, s] of ctx.files)
    if (s.folder === folder && !isCsv(f) && s.hash !== '' && (s.roles ?? 0) & ROLE_HOLDS_ASSIGNMENT) return true;
  return false;
}

/** The files of a folder whose checks depend on a change to files of `changedRoles` (see dependentRoles). */
export function dependents(files: Map<string, FileState>, folder: FolderState, changedRoles: number): string[] {
  const roles = dependentRoles(changedRoles);
  if (!roles) return [];
  const found: string[] = [];
  for (const [f, s] of files) if (s.folder === folder && (s.roles ?? 0) & roles) found.push(f);
  return found;
}
