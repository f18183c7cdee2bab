import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import * as fs from 'node:fs';
import { isSeveritySetting, RULES, type SeverityName, type SeveritySetting } from './service';
import { closestMatch } from './service/text';
import { discover, FileReader, UsageError, InputError } from './node/files';
import { lintSplitSets } from './cli/splitSets';
import { loadCatalog, resolveDefinitionSources, isPolicyDefinition, isPolicySet, parseDocumentText } from './node/definitions';
import { lintTask, type FileResult, type LintSettings, type LintTask } from './cli/lintEngine';
import type { ChildProcess } from 'node:child_process';
import { formatJson, formatSarif, formatText, type Format } from './cli/formatters';
import { COMMANDS } from './cli/commands';

const USAGE = `Usage: policyset lint <files or folders...> [options]
${Object.entries(COMMANDS)
  .map(([name, c]) => `       ${c.synopsis.padEnd(40)} (policyset ${name} --help)`)
  .join('\n')}

Validates policy set definitions (documents, version resources, ARM templates holding them).
Folders are walked for .json and .jsonc files; JSON that is not a policy document is skipped.

Options:
  -f, --format <text|json|sarif>   Output format (default: text)
  -o, --output <file>              Write the report to a file instead of standard output
  -d, --definitions <path>         Known policy definitions and sets: an index file (a JSON array shaped
                                   like builtin-policy-definitions-index.json), a definition or set file,
                                   or a folder of them (sets give the groups importPolicyDefinitionGroups
                                   imports). Repeatable.
      --cloud <name>               Prefer this cloud's definitions in an index (AzureCloud, AzureUSGovernment,
                                   AzureChinaCloud; default: AzureUSGovernment under an 'Azure Government'
                                   folder, else AzureCloud)
      --rule <code|name>=<level>   Severity of a rule: error, warning, info, hint or off. Repeatable.
      --min-severity <level>       Report only this severity and above (default: info)
      --strict                     A file named on the command line that is not checked (not JSON, or JSON
                                   of no known kind) is an error, not a note (also: .policysetrc.json
                                   {"strict": true} in the current folder)
      --no-error-on-unmatched-pattern
                                   Exit 0 when the inputs hold no policy document (default: exit 2)
  -j, --jobs <n>                   Processes to use (default: one, and all cores for inputs over 64 MB)
      --docs-base-url <url>        Base URL of the rule pages, for SARIF help links
      --no-color                   Plain text output
  -h, --help                       Show this help
  -v, --version                    Show the version

Exit status: 0 no errors, 1 errors found, 2 usage or input problems (a file or folder that cannot be
read, inputs that hold no policy document, a named file not checked with --strict).
`;

function version(): string {
  try {
    // A require, not a read beside __dirname: the CLI also runs as one bundle (server/out/cli/bundle.js), which holds it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- JSON, read on --version only
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

interface LintArgs {
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
}

/** The helper pool (node:child_process) is loaded only when helpers are used: most runs use none. */
function pool(): typeof import('./cli/pool') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return require('./cli/pool') as typeof import('./cli/pool');
}

function startHelpers(count: number): ChildProcess[] {
  return count > 0 ? pool().startHelpers(count) : [];
}

function stopHelpers(children: ChildProcess[]) {
  if (children.length) pool().stopHelpers(children);
}

const CLOUDS = ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'];

/** The canonical key of a --rule name or code (codes in any casing), or a usage error with "did you mean". */
function ruleKey(given: string): string {
  const byCode = RULES.find((r) => r.meta.code.toLowerCase() === given.toLowerCase());
  if (byCode) return byCode.meta.code;
  const byName = RULES.find((r) => r.meta.name === given);
  if (byName) return byName.meta.name;
  const near = closestMatch(given, RULES.flatMap((r) => [r.meta.name, r.meta.code]));
  throw new UsageError(`--rule: no rule '${given}'${near ? `; did you mean '${near}'?` : ''} (the rules: policyset lint --help, docs/rules/README.md)`);
}

/** .policysetrc.json in the current folder: { "strict": boolean }. */
function readConfig(): { strict?: boolean } {
  let text: string;
  try {
    text = fs.readFileSync('.policysetrc.json', 'utf8');
  } catch {
    return {};
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new Error('not an object');
    const strict = (config as { strict?: unknown }).strict;
    if (strict !== undefined && typeof strict !== 'boolean') throw new Error("'strict' must be true or false");
    return { strict: strict as boolean | undefined };
  } catch (error) {
    throw new UsageError(`.policysetrc.json: ${(error as Error).message}`);
  }
}

function parseLintArgs(args: string[]): LintArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string', short: 'f', default: 'text' },
      output: { type: 'string', short: 'o' },
      definitions: { type: 'string', short: 'd', multiple: true, default: [] },
      cloud: { type: 'string' },
      rule: { type: 'string', multiple: true, default: [] },
      'min-severity': { type: 'string', default: 'info' },
      jobs: { type: 'string', short: 'j' },
      'docs-base-url': { type: 'string' },
      'no-color': { type: 'boolean', default: false },
      strict: { type: 'boolean' },
      'no-error-on-unmatched-pattern': { type: 'boolean', default: false },
    },
  });
  if (!positionals.length) throw new UsageError('no files or folders to lint');
  const format = values.format as string;
  if (format !== 'text' && format !== 'json' && format !== 'sarif') throw new UsageError(`unknown format '${format}': use text, json or sarif`);
  const severities: Record<string, SeveritySetting> = {};
  for (const setting of values.rule as string[]) {
    const [rule, level] = setting.split('=');
    if (!rule || !isSeveritySetting(level)) throw new UsageError(`--rule takes <code or name>=<error|warning|info|hint|off>, not '${setting}'`);
    severities[ruleKey(rule.trim())] = level;
  }
  const cloud = values.cloud as string | undefined;
  if (cloud !== undefined && !CLOUDS.includes(cloud)) {
    const near = closestMatch(cloud, CLOUDS);
    throw new UsageError(`--cloud takes ${CLOUDS.join(', ')}, not '${cloud}'${near ? `; did you mean '${near}'?` : ''}`);
  }
  const minSeverity = values['min-severity'] as string;
  if (!isSeveritySetting(minSeverity) || minSeverity === 'off') throw new UsageError(`--min-severity takes error, warning, info or hint, not '${minSeverity}'`);
  let jobs: number | 'auto' = 'auto';
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new UsageError(`--jobs takes a whole number from 1 to 64, not '${values.jobs}'`);
  }
  return {
    inputs: positionals,
    format,
    output: values.output as string | undefined,
    definitions: values.definitions as string[],
    cloud,
    severities,
    minSeverity,
    jobs,
    docsBaseUrl: values['docs-base-url'] as string | undefined,
    color: !values['no-color'] && !!process.stdout.isTTY && !values.output && !process.env.NO_COLOR,
    strict: (values.strict as boolean | undefined) ?? readConfig().strict ?? false,
    errorOnUnmatched: !values['no-error-on-unmatched-pattern'],
  };
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

async function lint(args: LintArgs): Promise<number> {
  // Asked-for helpers start loading now; they are stopped below if the input turns out too small to share.
  const started = startHelpers(args.jobs !== 'auto' && args.jobs > 1 ? args.jobs - 1 : 0);
  try {
    return await lintWith(args, started);
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

async function lintWith(args: LintArgs, started: ChildProcess[]): Promise<number> {
  const { files, problems } = await discover(args.inputs);
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
    // Policy definitions among the linted files are known definitions too; so are the sets, when a set
    // imports the groups of others (importPolicyDefinitionGroups).
    importsGroups ||= includesKey(bytes, IMPORT_GROUPS_KEY, 7);
    const rule = includesKey(bytes, POLICY_RULE_KEY, 6);
    candidates.push({ ruleText: rule ? bytes.toString('utf8') : undefined, policyDefinitions: !rule && bytes.includes('"policyDefinitions"') });
  }
  const extraDefinitions: Array<{ file: string; text: string }> = [];
  readable.forEach((t, i) => {
    const { ruleText, policyDefinitions } = candidates[i];
    let text = ruleText;
    if (text === undefined && importsGroups && policyDefinitions) {
      try {
        text = reader.read(t.file).toString('utf8');
      } catch {
        // Unreadable now: it is reported when it is linted.
      }
    }
    if (text === undefined) return;
    try {
      const value = parseDocumentText(text);
      if (isPolicyDefinition(value) || isPolicySet(value)) extraDefinitions.push({ file: t.file, text });
    } catch {
      // Not a definition.
    }
  });
  const sources = args.definitions.length || extraDefinitions.length ? await resolveDefinitionSources(args.definitions) : undefined;
  const settings: LintSettings = { severities: args.severities, minSeverity: args.minSeverity, cloud: args.cloud, docsBaseUrl: args.docsBaseUrl, identities: args.format === 'sarif' };
  const catalog = sources ? await loadCatalog(sources, extraDefinitions) : undefined;
  const totalBytes = readable.reduce((n, t) => n + t.size, 0);
  // By default, helpers only for inputs large enough to pay for them (see AUTO_BYTES_PER_HELPER).
  if (args.jobs === 'auto' && totalBytes >= AUTO_BYTES_PER_HELPER) started.push(...startHelpers(availableParallelism() - 1));
  const perHelper = args.jobs === 'auto' ? AUTO_BYTES_PER_HELPER : BYTES_PER_HELPER;
  const helpers = Math.max(0, Math.min(started.length, readable.length - 1, Math.floor(totalBytes / perHelper)));
  stopHelpers(started.slice(helpers));
  // Sets in the split layout are checked part by part, as one set, here; every other file on its own.
  const split = lintSplitSets(readable, catalog, settings);
  const results: FileResult[] = [
    ...split.results,
    ...(helpers
      ? await pool().lintInParallel(split.rest, { helpers: started.slice(0, helpers), sources, extraDefinitions, settings, catalog })
      : lintInSizeOrder(split.rest, (t) => lintTask(t, catalog, settings))),
  ];

  // Everything that went wrong with the inputs is known before the report, so no report claims success.
  for (const result of results) if (result.error) problems.push(result.error);
  if (args.strict) for (const result of results) if (result.notChecked) problems.push(`${result.file}: not checked (--strict): ${result.notChecked}`);
  const checked = results.filter((r) => !r.skipped && !r.error).length;
  if (!checked && !problems.length && args.errorOnUnmatched) {
    problems.push(`no policy document in ${args.inputs.map((i) => `'${i}'`).join(', ')}${files.length ? ` (${files.length} file${files.length === 1 ? '' : 's'} of other kinds)` : ' (no .json or .jsonc file)'}; pass --no-error-on-unmatched-pattern to allow this`);
  }
  const cwd = process.cwd();
  const report =
    args.format === 'json'
      ? formatJson(results, cwd, problems)
      : args.format === 'sarif'
        ? formatSarif(results, cwd, args.severities, version(), args.docsBaseUrl, problems)
        : formatText(results, cwd, args.color, problems);
  if (args.output) {
    try {
      fs.writeFileSync(args.output, report);
    } catch (error) {
      throw new InputError(`cannot write '${args.output}': ${(error as Error).message}`);
    }
  } else {
    process.stdout.write(report);
  }
  for (const result of results) {
    for (const internal of result.internalErrors) process.stderr.write(`policyset: internal error in rule ${internal.rule} on ${result.file}: ${internal.message}\n`);
  }
  for (const problem of problems) process.stderr.write(`policyset: ${problem}\n`);
  if (problems.length) return 2;
  return results.some((r) => r.diagnostics.some((d) => d.severity === 1)) ? 1 : 0;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === '-v' || command === '--version') {
      process.stdout.write(version() + '\n');
      return 0;
    }
    if (!command || command === '-h' || command === '--help' || command === 'help') {
      process.stdout.write(USAGE);
      return command ? 0 : 2;
    }
    if (command === 'lint') {
      if (rest.includes('-h') || rest.includes('--help')) {
        process.stdout.write(USAGE);
        return 0;
      }
      return await lint(parseLintArgs(rest));
    }
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (entry) {
      const module = entry.load();
      if (rest.includes('-h') || rest.includes('--help')) {
        process.stdout.write(module.usage);
        return 0;
      }
      return await module.run(rest);
    }
    throw new UsageError(`unknown command '${command}'`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`policyset: ${error.message}\nRun 'policyset --help' for usage.\n`);
      return 2;
    }
    if (error instanceof InputError) {
      process.stderr.write(`policyset: ${error.message}\n`);
      return 2;
    }
    // parseArgs throws TypeErrors with codes for unknown or malformed options.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`policyset: ${parseArgsMessage(error as Error)}\nRun 'policyset --help' for usage.\n`);
      return 2;
    }
    process.stderr.write(`policyset: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

/** Node's parseArgs messages, in one clean line ("unknown option '--bogus'"). */
function parseArgsMessage(error: Error): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown) return `unknown option '${unknown[1]}'`;
  const missing = /^Option '([^']+)' argument missing/.exec(error.message);
  if (missing) return `option '${missing[1].replace(/^-\w, /, '')}' needs a value`;
  return error.message.split('. ')[0].replace(/\.$/, '');
}
