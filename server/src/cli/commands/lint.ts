// The lint command: its flags (parsed, documented and tied to their config key in one table, LINT_FLAGS),
// its report and its exit status. The linting itself is the engine's (../lint/engine.ts), which writes
// nothing and decides no exit status.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as path from 'node:path';
import {
  cloudOfPath,
  DEFAULT_CLOUD,
  FIX_KINDS,
  isSeveritySetting,
  RULES,
  severityOf,
  type FixKind,
  type SeverityName,
  type SeveritySetting,
} from '../../service';
import { closestMatch } from '../../service/text';
import { UsageError, InputError } from '../../node/files';
import { refuseInputs, writeOutputFile } from '../../node/output';
import { findConfigFile, ignoreMatcher, loadConfigFile, ConfigFileError, type LoadedConfig } from '../../node/config';
import { canonicalRuleKey, nearestRule, CLOUDS as CONFIG_CLOUDS, type PolicySetConfig } from '../../service/config';
import { lintFiles, type LintOptions } from '../lint/engine';
import type { LintSettings } from '../lint/lintFile';
import { formatJson, formatSarif, formatText, untrusted, type Format } from '../formatters';
import { escapeControls } from '#api';
import { PatternError } from '../../service/patterns';
import { cliVersion } from '../version';
import type { CommandModule, ExitStatuses } from '../command';
import { shortMessage } from '../messages';

/** A flag of lint: how it is parsed, how --help shows it, and the config file key it overrides. */
interface LintFlag {
  /** The long name, without its dashes. */
  name: string;
  short?: string;
  /** How parseArgs reads it; none for the flags the CLI's main answers (--help, --version). */
  parse?: { type: 'string' | 'boolean'; multiple?: boolean; default?: string | boolean | string[] };
  /** What it takes, as --help shows it ('<file>'). */
  value?: string;
  /** Its --help lines; none for a flag --help describes under another (--no-strict under --strict). */
  help?: string[];
  /** The .policysetrc.json key the flag wins over (docs/cli.md "Configuration"). */
  config?: keyof PolicySetConfig;
}

/** Every flag of lint, in the order --help lists them. A new flag: one entry here, and its reading in lintArgs. */
const LINT_FLAGS: LintFlag[] = [
  {
    name: 'format',
    short: 'f',
    parse: { type: 'string', default: 'text' },
    value: '<text|json|sarif>',
    help: ['Output format (default: text)'],
  },
  {
    name: 'output',
    short: 'o',
    parse: { type: 'string' },
    value: '<file>',
    help: ['Write the report to a file instead of standard output'],
  },
  {
    name: 'definitions',
    short: 'd',
    parse: { type: 'string', multiple: true, default: [] },
    value: '<path>',
    config: 'definitions',
    help: [
      'Known policy definitions and sets: an index file (a JSON array shaped',
      'like builtin-policy-definitions-index.json), a definition or set file,',
      'or a folder of them (sets give the groups importPolicyDefinitionGroups',
      'imports). Repeatable.',
    ],
  },
  {
    name: 'cloud',
    parse: { type: 'string' },
    value: '<name>',
    config: 'cloud',
    help: [
      "Prefer this cloud's definitions in an index (AzureCloud, AzureUSGovernment,",
      "AzureChinaCloud; default: AzureUSGovernment under an 'Azure Government'",
      'folder, else AzureCloud)',
    ],
  },
  {
    name: 'rule',
    parse: { type: 'string', multiple: true, default: [] },
    value: '<code|name>=<level>',
    config: 'rules',
    help: ['Severity of a rule: error, warning, info, hint or off. Repeatable.', 'The rules: policyset rules'],
  },
  {
    name: 'min-severity',
    parse: { type: 'string' },
    value: '<level>',
    config: 'minSeverity',
    help: ['Report only this severity and above (default: info)'],
  },
  { name: 'quiet', parse: { type: 'boolean', default: false }, help: ['Report errors only (warnings still count for --max-warnings)'] },
  {
    name: 'max-warnings',
    parse: { type: 'string' },
    value: '<n>',
    config: 'maxWarnings',
    help: ['Exit 1 when there are more than n warnings (default: -1, no limit)'],
  },
  {
    name: 'strict',
    parse: { type: 'boolean' },
    config: 'strict',
    help: [
      'A file named on the command line that is not checked (not JSON, or JSON',
      'of no known kind), or a reference not checked against its definition,',
      "is an error, not a note (--no-strict: a note, over the config file's",
      '"strict")',
    ],
  },
  { name: 'no-strict', parse: { type: 'boolean', default: false }, config: 'strict' },
  {
    name: 'no-error-on-unmatched-pattern',
    parse: { type: 'boolean', default: false },
    config: 'errorOnUnmatchedPattern',
    help: ['Exit 0 when the inputs hold no policy document (default: exit 2)'],
  },
  {
    name: 'fix',
    parse: { type: 'boolean', default: false },
    help: [
      'Apply the fixes that need no choice (casing, typos with one close',
      'match, reference IDs, versions, response-only properties) and write',
      'the files that changed; the report shows what is left',
    ],
  },
  {
    name: 'fix-dry-run',
    parse: { type: 'boolean', default: false },
    help: ['As --fix, but write nothing (-f json: each file\'s fixed "output")'],
  },
  {
    name: 'fix-type',
    parse: { type: 'string', multiple: true, default: [] },
    value: '<kind,...>',
    help: ['Only fixes of these kinds (comma-separated; repeatable):', `${FIX_KINDS.join(', ')}`],
  },
  { name: 'stdin', parse: { type: 'boolean', default: false }, help: ['Lint the text on standard input'] },
  {
    name: 'stdin-filename',
    parse: { type: 'string' },
    value: '<path>',
    help: ['The path of the standard input text: it decides the dialect (cloud,', 'split-set part) and names it in the report'],
  },
  {
    name: 'ignore-pattern',
    parse: { type: 'string', multiple: true, default: [] },
    value: '<glob>',
    config: 'ignore',
    help: ["Files to leave out, as 'ignore' in the config file. Repeatable."],
  },
  {
    name: 'no-ignore',
    parse: { type: 'boolean', default: false },
    help: ["Lint files the config's 'ignore' and --ignore-pattern would leave out"],
  },
  {
    name: 'config',
    short: 'c',
    parse: { type: 'string' },
    value: '<file>',
    help: ['Use this config file instead of the nearest .policysetrc.json'],
  },
  { name: 'no-config', parse: { type: 'boolean', default: false }, help: ['Use no config file'] },
  {
    name: 'print-config',
    parse: { type: 'string' },
    value: '<file>',
    help: ['Print the settings a file would be linted with (JSON) and exit'],
  },
  { name: 'list-rules', parse: { type: 'boolean', default: false }, help: ['List the rules (as policyset rules; with -f json, as JSON)'] },
  {
    name: 'against',
    parse: { type: 'string' },
    value: '<git revision>',
    help: ["Check each set's version against the file at that revision", '(version-not-bumped, PS3006; see policyset diff --help)'],
  },
  {
    name: 'consumers',
    parse: { type: 'string', multiple: true, default: [] },
    value: '<path>',
    help: [
      'With --against: the assignments and exemptions (files or folders;',
      'repeatable) whose lines the version check names when a change breaks',
      'them (default: the files linted)',
    ],
  },
  // Their config keys are versions.referenceAdded and versions.referenceRemoved, read by ../options/versionOptions.ts.
  {
    name: 'reference-added',
    parse: { type: 'string' },
    value: '<minor|major>',
    help: ['What a reference added asks of the version (default: minor)'],
  },
  {
    name: 'reference-removed',
    parse: { type: 'string' },
    value: '<minor|major>',
    help: ['What a reference removed asks of the version (default: major)'],
  },
  {
    name: 'jobs',
    short: 'j',
    parse: { type: 'string' },
    value: '<n>',
    help: ['Processes to use (default: one, and all cores for inputs over 64 MB)'],
  },
  {
    name: 'docs-base-url',
    parse: { type: 'string' },
    value: '<url>',
    config: 'docsBaseUrl',
    help: ['Base URL of the rule pages, for SARIF help links'],
  },
  { name: 'no-color', parse: { type: 'boolean', default: false }, help: ['Plain text output'] },
  { name: 'help', short: 'h', help: ['Show this help'] },
  { name: 'version', short: 'v', help: ['Show the version'] },
];

/** The flags' column of --help: the flag, then its text from column 36 (on a line of its own when the flag is longer). */
function flagsHelp(flags: LintFlag[]): string {
  const column = 35;
  const lines: string[] = [];
  for (const flag of flags) {
    if (!flag.help) continue;
    const left = `  ${flag.short ? `-${flag.short}, ` : '    '}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
    const [first, ...rest] = flag.help;
    if (left.length < column - 1) lines.push(left.padEnd(column) + first);
    else lines.push(left, ' '.repeat(column) + first);
    for (const line of rest) lines.push(' '.repeat(column) + line);
  }
  return lines.join('\n');
}

const LINT_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  LINT_FLAGS.filter((f) => f.parse).map((f) => [f.name, { ...f.parse!, ...(f.short ? { short: f.short } : {}) }]),
);

export const exitStatus: ExitStatuses = {
  0: 'no errors',
  1: 'errors found (or more warnings than --max-warnings)',
  2: 'usage or input problems (a file or folder that cannot be read, inputs that hold no policy document, a named file or a reference not checked with --strict, a bad config file)',
};

/** lint's usage after the CLI's list of commands (../help.ts topUsage puts them together: lint is the CLI's own face). */
export const usage = `Validates policy set definitions (documents, version resources, ARM templates holding them).
Folders are walked for .json and .jsonc files; JSON that is not a policy document is skipped.

Options:
${flagsHelp(LINT_FLAGS)}

Files and folders may be glob patterns in quotes ('sets/**/*.json'). Settings come from the nearest
.policysetrc.json (from the current folder upward); flags win over it (docs/cli.md "Configuration").

Examples:
  policyset lint policySetDefinitions/
  policyset lint 'sets/**/*.json' --max-warnings 0 -f sarif -o lint.sarif
  cat set.json | policyset lint --stdin --stdin-filename sets/set.json
  policyset lint sets/ --fix --fix-type casing,version

Exit status: 0 no errors, 1 errors found (or more warnings than --max-warnings), 2 usage or input
problems (a file or folder that cannot be read, inputs that hold no policy document, a named file or a
reference not checked with --strict, a bad config file).

Environment:
  POLICYSET_BASE_URL, POLICYSET_ITEMS_BASE_URL, POLICYSET_PROVIDER_NAMESPACE, POLICYSET_AUTH_URL
                                   The service's addresses and namespace, when no flag gives them
  POLICYSET_ACCESS_TOKEN           The bearer token of the service commands (or --token-command)
  POLICYSET_CORPUS                 The full built-in corpus folder, for the local service
                                   (npm run service:local) and the tests; without it they use
                                   ../shared/corpus beside the checkout, else test/fixtures/corpus
  NO_COLOR                         Plain text output, as --no-color
  POLICYSET_COMPILE_CACHE          Folder of the start-up code cache; 0 turns it off
                                   (also NODE_DISABLE_COMPILE_CACHE=1)
  POLICYSET_NO_BUNDLE=1            Run the compiled modules instead of the one-file bundle
  POLICYSET_GIT_TIMEOUT_MS         Time limit of each git call (--against), in milliseconds
                                   (default 30000)
`;

export interface LintArgs {
  inputs: string[];
  format: Format;
  output?: string;
  definitions: string[];
  cloud?: string;
  severities: Record<string, SeveritySetting>;
  minSeverity: SeverityName;
  /** Processes to use: a number given with --jobs, or 'auto'. */
  jobs: number | 'auto';
  docsBaseUrl?: string;
  color: boolean;
  strict: boolean;
  errorOnUnmatched: boolean;
  quiet: boolean;
  /** Exit 1 above this many warnings; undefined: no limit. */
  maxWarnings?: number;
  /** Lint standard input, named this (or '<stdin>'). */
  stdin?: { name: string; given: boolean };
  /** Files left out: the config's 'ignore' and --ignore-pattern; undefined with --no-ignore. */
  ignored?: (file: string) => boolean;
  /** Where the ignore patterns come from, for messages. */
  ignoreSources: string;
  config?: LoadedConfig;
  /** --against: the git revision to check versions against, and what a reference added asks for. */
  against?: LintSettings['against'];
  printConfig?: string;
  listRules: boolean;
  /** --fix (write) or --fix-dry-run (write nothing), and the kinds of --fix-type. */
  fix?: { write: boolean; kinds?: FixKind[] };
}

const CLOUDS: readonly string[] = CONFIG_CLOUDS;

/** The code of a --rule name or code (codes in any casing), or a usage error with "did you mean". */
function ruleKey(given: string): string {
  const key = canonicalRuleKey(given);
  if (key) return key;
  const near = nearestRule(given);
  throw new UsageError(
    `--rule: no rule '${given}'${near ? `; did you mean '${near}'?` : ''} (the rules: policyset rules, docs/rules/README.md)`,
  );
}

/** The config file: -c <file>, else the nearest .policysetrc.json from the current folder up; none with --no-config. */
/** --ignore-pattern's patterns, compiled by the one pattern engine: one too long or malformed is a usage error. */
function flagIgnoreMatcher(patterns: string[]): (file: string) => boolean {
  try {
    return ignoreMatcher(patterns, process.cwd());
  } catch (error) {
    if (error instanceof PatternError) throw new UsageError(`--ignore-pattern: ${error.message.replace(/^'ignore' pattern/, 'pattern')}`);
    throw error;
  }
}

function readConfig(explicit: string | undefined, none: boolean): LoadedConfig | undefined {
  if (none) return undefined;
  const file = explicit ?? findConfigFile(process.cwd());
  if (!file) return undefined;
  try {
    return loadConfigFile(file);
  } catch (error) {
    // Not a usage mistake: the file is named, with the key and what would be right.
    if (error instanceof ConfigFileError) throw new InputError(error.message);
    throw error;
  }
}

/** The parsed flags, read by name (LINT_FLAGS says each one's type). */
function flagValues(args: string[]) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: LINT_OPTIONS });
  const read = values as Record<string, unknown>;
  // A name that is not in the table is a bug here, not a flag the user left out.
  const value = (name: string) => {
    if (!Object.hasOwn(LINT_OPTIONS, name)) throw new Error(`lint has no flag --${name} in LINT_FLAGS`);
    return read[name];
  };
  return {
    positionals,
    string: (name: string) => value(name) as string | undefined,
    boolean: (name: string) => value(name) as boolean | undefined,
    list: (name: string) => value(name) as string[],
  };
}

/** lint's flags and config file read into what a run takes (`policyset mcp`'s lint tool reads its arguments here too). */
export function parseLintArgs(args: string[]): LintArgs {
  const { positionals, string, boolean, list } = flagValues(args);
  const printConfig = string('print-config');
  const listRules = !!boolean('list-rules');
  const stdin = !!boolean('stdin');
  const output = string('output');
  if (string('config') !== undefined && boolean('no-config')) throw new UsageError('give -c <file> or --no-config, not both');
  const loaded = readConfig(string('config'), !!boolean('no-config'));
  const config = loaded?.config ?? {};
  if (!positionals.length && !stdin && printConfig === undefined && !listRules)
    throw new UsageError('no files or folders to lint (or --stdin)');
  if (positionals.length && stdin) throw new UsageError('--stdin lints standard input: give no files or folders with it');
  if (string('stdin-filename') !== undefined && !stdin)
    throw new UsageError('--stdin-filename names the text of --stdin: give --stdin too');
  const format = string('format') as string;
  if (format !== 'text' && format !== 'json' && format !== 'sarif') {
    const near = closestMatch(format, ['text', 'json', 'sarif']);
    throw new UsageError(`unknown format '${format}': use text, json or sarif${near ? `; did you mean '${near}'?` : ''}`);
  }
  // The file's rules, then the flags' (flags win, rule by rule).
  const severities: Record<string, SeveritySetting> = { ...config.rules };
  for (const setting of list('rule')) {
    const [rule, level] = setting.split('=');
    if (!rule || !isSeveritySetting(level))
      throw new UsageError(`--rule takes <code or name>=<error|warning|info|hint|off>, not '${setting}'`);
    severities[ruleKey(rule.trim())] = level;
  }
  const cloud = string('cloud') ?? config.cloud;
  if (cloud !== undefined && !CLOUDS.includes(cloud)) {
    const near = closestMatch(cloud, CLOUDS);
    throw new UsageError(`--cloud takes ${CLOUDS.join(', ')}, not '${cloud}'${near ? `; did you mean '${near}'?` : ''}`);
  }
  const minSeverity = string('min-severity') ?? config.minSeverity ?? 'info';
  if (!isSeveritySetting(minSeverity) || minSeverity === 'off')
    throw new UsageError(`--min-severity takes error, warning, info or hint, not '${minSeverity}'`);
  let jobs: number | 'auto' = 'auto';
  const jobsFlag = string('jobs');
  if (jobsFlag !== undefined) {
    jobs = Number(jobsFlag);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
      throw new UsageError(`--jobs takes a whole number from 1 to 64, not '${jobsFlag}'`);
  }
  let maxWarnings = config.maxWarnings;
  const maxWarningsFlag = string('max-warnings');
  if (maxWarningsFlag !== undefined) {
    const n = Number(maxWarningsFlag);
    if (!Number.isInteger(n) || n < -1 || maxWarningsFlag.trim() === '')
      throw new UsageError(`--max-warnings takes a whole number (-1: no limit), not '${maxWarningsFlag}'`);
    maxWarnings = n === -1 ? undefined : n;
  }
  // Lists add up: the file's definitions and ignore patterns, then the flags'.
  const flagPatterns = list('ignore-pattern');
  const matchers = [
    ...(config.ignore?.length && loaded ? [ignoreMatcher(config.ignore, loaded.dir)] : []),
    ...(flagPatterns.length ? [flagIgnoreMatcher(flagPatterns)] : []),
  ];
  const ignoreSources = [config.ignore?.length && loaded ? `'ignore' in ${loaded.file}` : '', flagPatterns.length ? '--ignore-pattern' : '']
    .filter(Boolean)
    .join(' and ');
  const stdinName = string('stdin-filename');
  const fix = fixOf(!!boolean('fix'), !!boolean('fix-dry-run'), list('fix-type'), stdin);
  return {
    inputs: positionals,
    format,
    output,
    definitions: [...(config.definitions ?? []), ...list('definitions')],
    cloud,
    severities,
    minSeverity,
    jobs,
    docsBaseUrl: string('docs-base-url') ?? config.docsBaseUrl,
    color: !boolean('no-color') && !!process.stdout.isTTY && !output && !process.env.NO_COLOR,
    strict: boolean('no-strict') ? false : (boolean('strict') ?? config.strict ?? false),
    errorOnUnmatched: !boolean('no-error-on-unmatched-pattern') && (config.errorOnUnmatchedPattern ?? true),
    quiet: !!boolean('quiet'),
    maxWarnings,
    stdin: stdin ? { name: stdinName ?? '<stdin>', given: stdinName !== undefined } : undefined,
    ignored: !boolean('no-ignore') && matchers.length ? (file) => matchers.some((m) => m(file)) : undefined,
    ignoreSources,
    config: loaded,
    printConfig,
    listRules,
    against: againstOf(string('against'), string('reference-added'), string('reference-removed'), list('consumers')),
    fix,
  };
}

/** --fix, --fix-dry-run and --fix-type, as ESLint takes them. */
function fixOf(write: boolean, dryRun: boolean, types: string[], stdin: boolean): LintArgs['fix'] {
  if (write && dryRun) throw new UsageError('give --fix or --fix-dry-run, not both');
  const kinds = types.flatMap((t) => t.split(',')).map((t) => t.trim());
  if (kinds.length && !write && !dryRun)
    throw new UsageError('--fix-type chooses the fixes of --fix or --fix-dry-run: give one of them too');
  for (const kind of kinds) {
    if (!(FIX_KINDS as readonly string[]).includes(kind)) {
      const near = closestMatch(kind, FIX_KINDS);
      throw new UsageError(`--fix-type takes ${FIX_KINDS.join(', ')}, not '${kind}'${near ? `; did you mean '${near}'?` : ''}`);
    }
  }
  // As ESLint: standard input has no file to write; --fix-dry-run -f json gives the fixed text.
  if (write && stdin)
    throw new UsageError(
      '--fix writes files and standard input is none: use --fix-dry-run (with -f json, the fixed text is each result\'s "output")',
    );
  if (!write && !dryRun) return undefined;
  return { write, ...(kinds.length ? { kinds: [...new Set(kinds)] as FixKind[] } : {}) };
}

/** --against <revision>: checked here, once (a revision that is not there is a usage error). */
function againstOf(
  revision: string | undefined,
  referenceAdded: string | undefined,
  referenceRemoved: string | undefined,
  consumers: string[],
): LintArgs['against'] {
  if (consumers.length && revision === undefined)
    throw new UsageError('--consumers names what a change breaks for --against: give --against too');
  if (revision === undefined && referenceAdded === undefined && referenceRemoved === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --against
  const { versionSettings } = require('../options/versionOptions') as typeof import('../options/versionOptions');
  const settings = versionSettings({ 'reference-added': referenceAdded, 'reference-removed': referenceRemoved });
  if (revision === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --against
  (require('../versions/git') as typeof import('../versions/git')).verifyRevision(revision);
  return { revision, ...settings, ...(consumers.length ? { consumerPaths: consumers } : {}) };
}

/** --print-config: what a file would be linted with, as JSON. */

function printConfig(args: LintArgs, file: string): number {
  const rules: Record<string, SeveritySetting> = {};
  for (const rule of RULES) rules[rule.meta.code] = severityOf(rule, args.severities);
  const settings = {
    file: path.resolve(file),
    configFile: args.config?.file ?? null,
    ignored: !!args.ignored?.(file),
    cloud: args.cloud ?? cloudOfPath(file) ?? DEFAULT_CLOUD,
    definitions: args.definitions.map((d) => path.resolve(d)),
    strict: args.strict,
    minSeverity: args.minSeverity,
    maxWarnings: args.maxWarnings ?? -1,
    quiet: args.quiet,
    errorOnUnmatchedPattern: args.errorOnUnmatched,
    ignore: args.config?.config.ignore ?? [],
    docsBaseUrl: args.docsBaseUrl ?? null,
    rules,
  };
  process.stdout.write(JSON.stringify(settings, null, 2) + '\n');
  return 0;
}

/** Standard input, whole, up to the largest input the CLI reads. */
async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_BYTES) throw new InputError(`standard input is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MB`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
const MAX_STDIN_BYTES = 512 * 1024 * 1024;

/** What the engine takes for a run of lint with these flags; `readInput`: the text of --stdin. */
export function engineOptions(args: LintArgs, readInput: () => Promise<Buffer>): LintOptions {
  return {
    inputs: args.inputs,
    definitions: args.definitions,
    settings: {
      severities: args.severities,
      minSeverity: args.minSeverity,
      cloud: args.cloud,
      docsBaseUrl: args.docsBaseUrl,
      identities: args.format === 'sarif',
      against: args.against,
      ...(args.fix ? { fix: { kinds: args.fix.kinds } } : {}),
    },
    jobs: args.jobs,
    strict: args.strict,
    errorOnUnmatched: args.errorOnUnmatched,
    stdin: args.stdin && { ...args.stdin, read: readInput },
    ignored: args.ignored,
    ignoreSources: args.ignoreSources,
  };
}

/** Runs lint: the engine's results reported, and the exit status they make. */
async function lint(args: LintArgs): Promise<number> {
  const run = await lintFiles(engineOptions(args, readStdin));
  const { results, problems, notes } = run;
  const cwd = process.cwd();
  if (args.fix) {
    // The report must not land on a file about to be fixed: refused before anything is written.
    if (args.output) refuseInputs(args.output, run.inputFiles);
    if (args.fix.write) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --fix
      const { writeFixes } = require('../lint/writeFixes') as typeof import('../lint/writeFixes');
      writeFixes(results, [...run.otherInputs, ...(args.output ? [args.output] : [])]);
    }
    for (const result of results) {
      if (result.notFixed) notes.push(`${result.file}: not fixed: ${result.notFixed}`);
      if (result.fix?.rejected)
        notes.push(
          `${result.file}: fixes left out: ${result.fix.rejected.reason} (${result.fix.rejected.fixes.join('; ')}); this is a bug in policyset, please report it`,
        );
    }
  }
  const fixReport = args.fix ? { dryRun: !args.fix.write } : undefined;
  // Warnings are counted before --quiet leaves them out of the report (as ESLint counts them).
  const warnings = results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === 2).length, 0);
  const reported = args.quiet
    ? results.map((r) => ({
        ...r,
        diagnostics: r.diagnostics.filter((d) => d.severity === 1),
        identities: r.identities.filter((_, i) => r.diagnostics[i].severity === 1),
      }))
    : results;
  const tooManyWarnings = args.maxWarnings !== undefined && warnings > args.maxWarnings;
  // JSON escapes C0 controls but not C1 (a CSI for some terminals): escapeControls writes them as \uXXXX too.
  const report =
    args.format === 'json'
      ? escapeControls(formatJson(reported, cwd, problems, fixReport))
      : args.format === 'sarif'
        ? escapeControls(formatSarif(reported, cwd, args.severities, cliVersion(), args.docsBaseUrl, problems))
        : formatText(
            reported,
            cwd,
            args.color,
            problems,
            fixReport,
            tooManyWarnings ? `more warnings than --max-warnings ${args.maxWarnings} allows` : undefined,
          );
  if (args.output) {
    // Never over an input (a file linted, a definitions file): exit 2 and the input kept.
    writeOutputFile(args.output, report, run.inputFiles);
  } else {
    process.stdout.write(report);
  }
  for (const result of results) {
    for (const internal of result.internalErrors)
      process.stderr.write(
        `policyset: internal error in rule ${internal.rule} on ${untrusted(result.file)}: ${shortMessage(internal.message)}\n`,
      );
  }
  for (const note of notes) process.stderr.write(`policyset: ${shortMessage(note)}\n`);
  for (const problem of problems) process.stderr.write(`policyset: ${shortMessage(problem)}\n`);
  if (problems.length) return 2;
  if (results.some((r) => r.diagnostics.some((d) => d.severity === 1))) return 1;
  if (args.maxWarnings !== undefined && warnings > args.maxWarnings) {
    process.stderr.write(
      `policyset: too many warnings: ${warnings}, and at most ${args.maxWarnings} ${args.maxWarnings === 1 ? 'is' : 'are'} allowed (--max-warnings, or 'maxWarnings' in the config file)\n`,
    );
    return 1;
  }
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseLintArgs(argv);
  if (args.listRules) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --list-rules
    return await (require('./rules') as CommandModule).run(['--format', args.format === 'json' ? 'json' : 'text']);
  }
  if (args.printConfig !== undefined) return printConfig(args, args.printConfig);
  return await lint(args);
}
