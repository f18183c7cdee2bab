// The lint engine: files, folders, glob patterns or standard input in, one result per file out, with the
// problems of the inputs and the notes on what was left out. It never writes to standard output or error
// and never picks an exit status: the lint command (../commands/lint.ts) reports and decides, as ESLint's
// lib/cli.js does over lib/eslint/eslint.js.
import { availableParallelism } from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { addUnchecked, decodeText, describeUnchecked, encodingOf, noUnchecked } from '../../service';
import { discover, FileReader, notWalkedNotes, POLICY_FILE, PARAMETER_FILE } from '../../node/files';
import {
  definitionNotes,
  loadCatalog,
  resolveDefinitionSources,
  isPolicyDefinition,
  isPolicySet,
  parseDocumentText,
} from '../../node/definitions';
import { expandGlob, isGlobPattern } from '../../node/globs';
import { lintTask, type FileResult, type LintSettings, type LintTask } from './lintFile';
import { lintSplitSets } from './splitSets';
import {
  lintLibraryDefaults,
  lintParameterFiles,
  lintWithAssignments,
  HOLDS_ASSIGNMENT,
  LIBRARY_DEFAULTS_FILE,
  NAMES_ASSIGNMENT,
  NAMES_PARAMETER_FILE,
} from './parameterFiles';

export interface LintOptions {
  /** Files, folders and glob patterns, as given. */
  inputs: string[];
  /** Known definitions: index files, definition or set files, folders of them. */
  definitions: string[];
  settings: LintSettings;
  /** Processes to use: a number given with --jobs, or 'auto'. */
  jobs: number | 'auto';
  /** A named file that is not checked is a problem, not a note. */
  strict: boolean;
  /** Inputs that hold no policy document are a problem. */
  errorOnUnmatched: boolean;
  /** Lint standard input instead of files: its name (or '<stdin>'), whether it was given, and its reader. */
  stdin?: { name: string; given: boolean; read: () => Promise<Buffer> };
  /** Files left out: the config's 'ignore' and --ignore-pattern; undefined with --no-ignore. */
  ignored?: (file: string) => boolean;
  /** Where the ignore patterns come from, for the notes. */
  ignoreSources: string;
}

export interface LintRun {
  /** One per file linted, in the order of the inputs. */
  results: FileResult[];
  /** What went wrong with the inputs (unreadable, unmatched, not checked with strict): each is an input problem. */
  problems: string[];
  /** What was left out on purpose, said so that nothing passes in silence. */
  notes: string[];
  /** Every file the run read or named (inputs, definitions): a report must never be written over one. */
  inputFiles: string[];
  /** The files read as definitions (not linted): --fix never writes one. */
  otherInputs: string[];
}

/** The helper pool (node:child_process) is loaded only when helpers are used: most runs use none. */
function pool(): typeof import('../pool') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return require('../pool') as typeof import('../pool');
}

function startHelpers(count: number): ChildProcess[] {
  return count > 0 ? pool().startHelpers(count) : [];
}

function stopHelpers(children: ChildProcess[]) {
  if (children.length) pool().stopHelpers(children);
}

/** Glob patterns in the inputs, expanded; a pattern matching no file is an input problem (as in ESLint). */
function expandInputs(inputs: string[]): { inputs: string[]; globbed: Set<string>; problems: string[] } {
  const expanded: string[] = [];
  const globbed = new Set<string>();
  const problems: string[] = [];
  for (const input of inputs) {
    if (!isGlobPattern(input) || fs.existsSync(input)) {
      expanded.push(input);
      continue;
    }
    // As in a folder's walk: .json and .jsonc files, and .csv files (parameter files, read when an assignment names them).
    const all = expandGlob(input);
    const matches = all.filter((m) => POLICY_FILE.test(m) || PARAMETER_FILE.test(m));
    if (!matches.length) problems.push(`no ${all.length ? '.json or .jsonc ' : ''}files match the pattern '${input}'`);
    for (const match of matches) {
      globbed.add(path.normalize(match));
      expanded.push(match);
    }
  }
  return { inputs: expanded, globbed, problems };
}

/**
 * When helper processes pay. Measured on the 2-vCPU machines of this project: validation is bound by
 * memory, and two processes validating side by side each took twice as long per file (the corpus:
 * 1.54 s of work alone, 3.07 s summed over two processes), and a helper needs 0.3 s to start. So by
 * default a helper is used only for very large inputs; `--jobs N` asks for helpers from 4 MB on.
 */
const AUTO_BYTES_PER_HELPER = 64 * 1024 * 1024;
const BYTES_PER_HELPER = 4 * 1024 * 1024;

/**
 * Lints the smallest files first (the results keep the files' order): the code is optimised on small
 * files before the large ones, which take most of the time. Linting the corpus in one process: 1.39 s
 * instead of 1.48 s in path order (medians of 8 interleaved runs; largest first was the slowest); the
 * whole process gains less (1.65 s against 1.68 s, medians of 11).
 */
function lintInSizeOrder<T extends { size: number }>(tasks: T[], lintOne: (task: T) => FileResult): FileResult[] {
  const results: FileResult[] = new Array(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => tasks[a].size - tasks[b].size);
  for (const i of order) results[i] = lintOne(tasks[i]);
  return results;
}

/** Lints the inputs. Throws only for what stops the whole run (standard input too large, a definitions file that cannot be read). */
export async function lintFiles(options: LintOptions): Promise<LintRun> {
  // Asked-for helpers start loading now; they are stopped below if the input turns out too small to share.
  const started = startHelpers(options.jobs !== 'auto' && options.jobs > 1 ? options.jobs - 1 : 0);
  try {
    return await lintWith(options, started);
  } finally {
    stopHelpers(started);
  }
}

const IMPORT_GROUPS_KEY = Buffer.from('"importPolicyDefinitionGroups"');
const POLICY_RULE_KEY = Buffer.from('"policyRule"');

/**
 * Whether `bytes` hold `key`: searched by its last `tail` bytes (which must not overlap themselves),
 * whose last characters are rarer in JSON than a quote, so the search skips further; each hit is then
 * checked whole. On the corpus: 4 ms instead of 13 ms for both keys.
 */
function includesKey(bytes: Buffer, key: Buffer, tail: number): boolean {
  const start = key.length - tail;
  const end = key.subarray(start);
  for (let i = bytes.indexOf(end); i !== -1; i = bytes.indexOf(end, i + tail)) {
    if (i >= start && bytes.compare(key, 0, start, i - start, i) === 0) return true;
  }
  return false;
}

/** What a file may add to the known definitions, found without parsing it (see DefinitionScan). */
export interface DefinitionScan {
  /** Its text, when it holds a policy rule: a policy definition, known whatever else is linted. */
  ruleText?: string;
  /** It names policyDefinitions (and no rule): a set, known when some file imports the groups of others. */
  policyDefinitions: boolean;
  /** It imports the groups of other sets (importPolicyDefinitionGroups). */
  importsGroups: boolean;
  /** It may hold an assignment or exemption of a set: the sets among the files are then known too. */
  consumer: boolean;
}

/** Keys and types only consumers of sets have (an assignment, an exemption, the policy-as-code framework's tree). */
const CONSUMER_KEYS = ['/policyAssignments"', '/policyExemptions"', '"nodeName"', '"policyAssignmentId"', '"nonComplianceMessages"'];

/**
 * Policy definitions among the linted files are known definitions too; so are the sets, when a set imports
 * the groups of others (importPolicyDefinitionGroups). The lint engine and the language server's workspace
 * check (lsp/node/workspaceLint.ts) both sort files by this.
 */
export function scanForDefinitions(data: Uint8Array): DefinitionScan {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // A UTF-16 file is searched in its text (its bytes hold the keys with zero bytes between).
  const utf16 = encodingOf(bytes)?.startsWith('UTF-16') ? decodeText(bytes).text : undefined;
  const importsGroups = utf16 !== undefined ? utf16.includes('"importPolicyDefinitionGroups"') : includesKey(bytes, IMPORT_GROUPS_KEY, 7);
  const rule = utf16 !== undefined ? utf16.includes('"policyRule"') : includesKey(bytes, POLICY_RULE_KEY, 6);
  const policyDefinitions = !rule && (utf16 !== undefined ? utf16.includes('"policyDefinitions"') : bytes.includes('"policyDefinitions"'));
  // Not looked for in sets and definitions (nearly every byte linted: the corpus' 21 MB took 150 ms more): a
  // template holding both sets and assignments makes the sets known only with another consumer beside it.
  const consumer =
    !rule && !policyDefinitions && CONSUMER_KEYS.some((key) => (utf16 !== undefined ? utf16.includes(key) : bytes.includes(key)));
  return { ruleText: rule ? (utf16 ?? bytes.toString('utf8')) : undefined, policyDefinitions, importsGroups, consumer };
}

async function lintWith(args: LintOptions, started: ChildProcess[]): Promise<LintRun> {
  const expanded = expandInputs(args.inputs);
  const discovered = args.stdin
    ? { files: [], parameterFiles: [], problems: [], notWalked: { links: [], tooDeep: [] } }
    : await discover(expanded.inputs);
  const problems = [...expanded.problems, ...discovered.problems];
  // Files a glob pattern matched are found like the files of a folder: a JSON file of another kind is skipped.
  let files = discovered.files.map((f) => (f.explicit && expanded.globbed.has(f.path) ? { ...f, explicit: false } : f));
  const notes: string[] = [];
  // CSV files are parameter files when an assignment names them: linted apart (see parameterFiles.ts).
  let csvFiles = [
    ...discovered.parameterFiles.map((p) => ({ path: p, explicit: false })),
    ...files.filter((f) => PARAMETER_FILE.test(f.path)),
  ];
  files = files.filter((f) => !PARAMETER_FILE.test(f.path));
  if (args.ignored) {
    const ignored = args.ignored;
    csvFiles = csvFiles.filter((f) => !ignored(f.path));
  }
  /** Files that may name a parameter file. */
  const namers: string[] = [];
  /** Files that may name an assignment by its ID (exemptions, enrollments), and files that may hold assignments. */
  const namingAssignment = new Set<string>();
  const holdingAssignment: string[] = [];
  if (args.ignored) {
    const ignored = args.ignored;
    files = files.filter((f) => {
      if (!ignored(f.path)) return true;
      // Said, never passed over in silence: a file named on the command line is left out by a pattern.
      if (f.explicit) notes.push(`${f.path}: ignored by ${args.ignoreSources} (--no-ignore lints it)`);
      return false;
    });
  }
  notes.push(...notWalkedNotes(discovered.notWalked, 'cli', args.ignored));
  // Each file is read to find the definitions among them, and again when it is linted (see FileReader).
  const reader = new FileReader();
  const readable: LintTask[] = [];
  /** Per readable file: its text when it holds a policy rule; whether it may be a set others import from. */
  const candidates: Array<{ ruleText?: string; policyDefinitions: boolean }> = [];
  let importsGroups = false;
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = reader.read(file.path);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    readable.push({ file: file.path, size: bytes.length, explicit: file.explicit, read: () => reader.read(file.path) });
    const scan = scanForDefinitions(bytes);
    if (csvFiles.length && scan.consumer && bytes.includes(NAMES_PARAMETER_FILE)) namers.push(file.path);
    if (scan.consumer && bytes.includes(NAMES_ASSIGNMENT)) namingAssignment.add(file.path);
    if (scan.consumer && bytes.includes(HOLDS_ASSIGNMENT)) holdingAssignment.push(file.path);
    // Sets are read as known sets when a file imports their groups or assigns them.
    importsGroups ||= scan.importsGroups || scan.consumer;
    candidates.push(scan);
  }
  // Standard input named by a path the config ignores is said, and is no error (as in ESLint).
  let stdinIgnored = false;
  if (args.stdin) {
    const bytes = await args.stdin.read();
    const name = args.stdin.name;
    if (args.stdin.given && args.ignored?.(name)) {
      notes.push(`${name}: ignored by ${args.ignoreSources} (--no-ignore lints it)`);
      stdinIgnored = true;
    } else {
      readable.push({ file: name, size: bytes.length, explicit: true, read: () => bytes });
      // Not scanned for definitions: what a file adds to the known definitions serves the other files linted,
      // and there are none with standard input (the definitions given with --definitions are read as such).
      candidates.push({ policyDefinitions: false });
    }
  }
  const extraDefinitions: Array<{ file: string; text: string }> = [];
  readable.forEach((t, i) => {
    const { ruleText, policyDefinitions } = candidates[i];
    let text = ruleText;
    if (text === undefined && importsGroups && policyDefinitions) {
      try {
        text = decodeText(reader.read(t.file)).text;
      } catch {
        // Unreadable now: it is reported when it is linted.
      }
    }
    if (text === undefined) return;
    try {
      const value = parseDocumentText(text);
      if (isPolicyDefinition(value) || isPolicySet(value)) extraDefinitions.push({ file: t.file, text });
    } catch {
      // Not JSON. With a policy rule in it, it is a definition file that is broken: the catalogue records it
      // (loadCatalog), so that a reference to it is told the file is broken, not that it is missing.
      if (ruleText !== undefined) extraDefinitions.push({ file: t.file, text });
    }
  });
  const sources = args.definitions.length || extraDefinitions.length ? await resolveDefinitionSources(args.definitions) : undefined;
  notes.push(...definitionNotes(sources));
  let settings = args.settings;
  if (settings.against) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --against
    const { consumerSites } = require('../versions/consumerBreaks') as typeof import('../versions/consumerBreaks');
    const consumers = await consumerSites(settings.against.consumerPaths, readable, problems);
    settings = { ...settings, against: { ...settings.against, consumers } };
  }
  const catalog = sources ? await loadCatalog(sources, extraDefinitions) : undefined;
  const totalBytes = readable.reduce((n, t) => n + t.size, 0);
  // By default, helpers only for inputs large enough to pay for them (see AUTO_BYTES_PER_HELPER).
  if (args.jobs === 'auto' && totalBytes >= AUTO_BYTES_PER_HELPER) started.push(...startHelpers(availableParallelism() - 1));
  const perHelper = args.jobs === 'auto' ? AUTO_BYTES_PER_HELPER : BYTES_PER_HELPER;
  const helpers = Math.max(0, Math.min(started.length, readable.length - 1, Math.floor(totalBytes / perHelper)));
  stopHelpers(started.slice(helpers));
  // Sets in the split layout are checked part by part, as one set, here; every other file on its own.
  // The landing-zone library's default values are checked with the library's assignment files (parameterFiles.ts).
  const libraryDefaults = readable.filter((t) => LIBRARY_DEFAULTS_FILE.test(t.file));
  // Exemption resources and enrollments are checked with the assignments they name, when any file holds one.
  const withAssignments = holdingAssignment.length
    ? readable.filter((t) => namingAssignment.has(t.file) && !LIBRARY_DEFAULTS_FILE.test(t.file))
    : [];
  const apart = new Set([...libraryDefaults, ...withAssignments]);
  const split = lintSplitSets(
    readable.filter((t) => !apart.has(t)),
    catalog,
    settings,
  );
  const results: FileResult[] = [
    ...split.results,
    ...(helpers
      ? await pool().lintInParallel(split.rest, { helpers: started.slice(0, helpers), sources, extraDefinitions, settings, catalog })
      : lintInSizeOrder(split.rest, (t) => lintTask(t, catalog, settings))),
    ...lintParameterFiles(csvFiles, namers, reader, catalog, settings),
    ...lintWithAssignments(withAssignments, holdingAssignment, reader, catalog, settings),
    ...lintLibraryDefaults(
      libraryDefaults,
      readable.map((t) => t.file),
      reader,
      catalog,
      settings,
    ),
  ];

  // Everything that went wrong with the inputs is known before the report, so no report claims success.
  for (const result of results) if (result.error) problems.push(result.error);
  if (args.strict)
    for (const result of results) if (result.notChecked) problems.push(`${result.file}: not checked (--strict): ${result.notChecked}`);
  // A reference whose definition was not checked is a check not made: with --strict, an input problem (exit 2).
  const unchecked = describeUnchecked(results.reduce((all, r) => addUnchecked(all, r.unchecked), noUnchecked()));
  if (args.strict && unchecked) problems.push(`${unchecked} (--strict)`);
  const unresolved = results.reduce((n, r) => n + (r.unresolvedAssignments ?? 0), 0);
  if (unresolved)
    notes.push(
      `${unresolved} assignment${unresolved === 1 ? '' : 's'} not checked: ${unresolved === 1 ? 'its set is' : 'their sets are'} not in the files linted (nor in --definitions)`,
    );
  const checked = results.filter((r) => !r.skipped && !r.error).length;
  if (!checked && !problems.length && args.errorOnUnmatched && !stdinIgnored) {
    problems.push(
      `no policy document in ${args.stdin ? 'standard input' : args.inputs.map((i) => `'${i}'`).join(', ')}${files.length ? ` (${files.length} file${files.length === 1 ? '' : 's'} of other kinds)` : ' (no .json or .jsonc file)'}; pass --no-error-on-unmatched-pattern to allow this`,
    );
  }
  // Each once: a file given with --definitions is also one of the index files read.
  const otherInputs = [...new Set([...args.definitions, ...(sources?.definitionFiles ?? []), ...(sources?.indexFiles ?? [])])];
  return {
    results,
    problems,
    notes,
    inputFiles: [...files.map((f) => f.path), ...csvFiles.map((f) => f.path), ...otherInputs],
    otherInputs,
  };
}
