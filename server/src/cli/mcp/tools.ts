// The tools of `policyset mcp`: lint, diff, rules and explain. Each calls what the CLI's command of the same
// name calls (lint: lint's own flag parser and the lint engine, its report formatJson's; diff: the version
// sides of cli/versions and the service's comparison), so an agent gets what `policyset lint --format json`
// and `policyset diff --format json` print. Read-only: nothing is written, deployed or deleted, no service is
// called (diff's builtin:<name> is refused), and every path named must stay inside the working folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES, type ChangeReport } from '../../service';
import { canonicalRuleKey, nearestRule } from '../../service/config';
import { InputError, UsageError } from '../../node/files';
import { isGlobPattern } from '../../node/globs';
import { lintFiles } from '../lint/engine';
import { engineOptions, parseLintArgs } from '../commands/lint';
import { formatJson, ruleHelp } from '../formatters';
import { compareAgainstRevision, compareRead, diskReader, readSetFile } from '../versions/versionSides';
import { toJson } from '../versions/diffReport';
import { referenceAddedSetting } from '../options/versionOptions';
import { toolError, toolResult, type Tool, type ToolResult } from './server';

/** A path outside the working folder (or a link out of it): refused, with the reason. */
class OutsideError extends Error {}

/**
 * `given` (relative to the working folder, or absolute) checked to stay inside it: by its place, and for a
 * file or folder that exists, by where its links lead. A glob pattern may hold no `..` at all.
 */
export function insideFolder(root: string, given: unknown, what: string): string {
  if (typeof given !== 'string' || !given) throw new UsageError(`${what} must be a non-empty string`);
  const inside = (base: string, target: string) => target === base || target.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  const outside = () =>
    new OutsideError(
      `${what} '${given}' is outside the working folder ${root}: the MCP server reads nothing outside it (start it in the folder that holds the files, or with --folder)`,
    );
  if (isGlobPattern(given) && given.includes('..')) throw outside();
  if (!inside(root, path.resolve(root, given))) throw outside();
  let real: string | undefined;
  try {
    real = fs.realpathSync(path.resolve(root, given));
  } catch {
    // Not there (lint says so), or a pattern: its place was checked.
  }
  if (real !== undefined && !inside(fs.realpathSync(root), real)) throw outside();
  return given;
}

const stringList = (value: unknown, what: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new UsageError(`${what} must be an array of strings`);
  return value as string[];
};

const optionalString = (value: unknown, what: string): string | undefined => {
  if (value !== undefined && typeof value !== 'string') throw new UsageError(`${what} must be a string`);
  return value as string | undefined;
};

/** Unknown arguments are named, not ignored: a misspelt one would otherwise change nothing in silence. */
function onlyKnown(args: Record<string, unknown>, known: string[], tool: string): void {
  for (const key of Object.keys(args)) if (!known.includes(key)) throw new UsageError(`${tool} takes ${known.join(', ')}; not '${key}'`);
}

/** A tool's body, with the errors of its arguments and inputs turned into tool errors the model can read. */
async function guarded(work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError || error instanceof OutsideError) return toolError(error.message);
    throw error;
  }
}

const SEVERITIES = ['error', 'warning', 'info', 'hint', 'off'];

const lintTool = (root: string): Tool => ({
  name: 'lint',
  title: 'Lint policy set definitions',
  description:
    'Checks policy set definitions (policy initiatives), their version resources and ARM templates holding them, and answers the diagnostics of `policyset lint --format json`: per file, each problem with its rule code, severity, message and position (1-based line and column). Give `paths` (files, folders or glob patterns inside the working folder) or `text` (a document, with `filename` for the path it would have). The nearest .policysetrc.json applies, as on the command line.',
  inputSchema: {
    type: 'object',
    properties: {
      paths: { type: 'array', items: { type: 'string' }, description: 'Files, folders or glob patterns, relative to the working folder.' },
      text: { type: 'string', description: 'The text of one document to lint instead of files.' },
      filename: {
        type: 'string',
        description: "With text: the path the text would have (it decides the cloud, a split set's part, the config's ignore patterns).",
      },
      rules: {
        type: 'object',
        additionalProperties: { enum: SEVERITIES },
        description: 'Severity per rule code or name, over the config file (as --rule).',
      },
      definitions: {
        type: 'array',
        items: { type: 'string' },
        description: 'Known policy definitions: index files, definition files or folders (as --definitions).',
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      summary: { type: 'object' },
      inputErrors: { type: 'array', items: { type: 'string' } },
      notChecked: { type: 'array' },
      skipped: { type: 'array' },
      files: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            file: { type: 'string' },
            kind: { type: 'string' },
            diagnostics: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  code: { type: 'string' },
                  rule: { type: 'string' },
                  severity: { type: 'string' },
                  message: { type: 'string' },
                  line: { type: 'integer' },
                  column: { type: 'integer' },
                },
              },
            },
          },
        },
      },
    },
    required: ['summary', 'files'],
  },
  call: (args) =>
    guarded(async () => {
      onlyKnown(args, ['paths', 'text', 'filename', 'rules', 'definitions'], 'lint');
      const paths = stringList(args.paths, 'paths').map((p) => insideFolder(root, p, 'path'));
      const text = optionalString(args.text, 'text');
      const filename = optionalString(args.filename, 'filename');
      if (text === undefined && !paths.length) throw new UsageError('lint needs paths (files, folders or glob patterns) or text');
      if (text !== undefined && paths.length) throw new UsageError('give paths or text, not both');
      if (filename !== undefined && text === undefined) throw new UsageError('filename names the text: give text too');
      if (filename !== undefined) insideFolder(root, filename, 'filename');
      const rules = args.rules ?? {};
      if (typeof rules !== 'object' || Array.isArray(rules) || rules === null)
        throw new UsageError('rules must be an object of rule code or name to level');
      const argv = ['--format', 'json', '--no-color'];
      for (const [rule, level] of Object.entries(rules)) argv.push('--rule', `${rule}=${String(level)}`);
      for (const definitions of stringList(args.definitions, 'definitions'))
        argv.push('--definitions', insideFolder(root, definitions, 'definitions'));
      if (text !== undefined) argv.push('--stdin', ...(filename !== undefined ? ['--stdin-filename', filename] : []));
      else argv.push('--', ...paths);
      const lintArgs = parseLintArgs(argv);
      const run = await lintFiles(engineOptions(lintArgs, () => Promise.resolve(Buffer.from(text ?? '', 'utf8'))));
      const report = JSON.parse(formatJson(run.results, process.cwd(), run.problems)) as Record<string, unknown>;
      const notes = [
        ...run.notes,
        ...run.results.flatMap((r) =>
          r.internalErrors.map(
            (e) => `internal error in rule ${e.rule} on ${r.file}: ${e.message} (a bug in policyset: its other rules ran)`,
          ),
        ),
      ];
      if (run.problems.length) {
        // As lint's exit status 2: the inputs could not all be checked. The report of what was checked follows.
        return {
          content: [
            { type: 'text', text: `not all inputs could be checked:\n${run.problems.join('\n')}` },
            { type: 'text', text: JSON.stringify(report, null, 2) },
          ],
          isError: true,
        };
      }
      return toolResult(report, notes);
    }),
});

const diffTool = (root: string): Tool => ({
  name: 'diff',
  title: 'Compare two versions of a policy set',
  description:
    'Compares two versions of a policy set definition and says what each change asks of its version (major: assignments break; minor; patch; none) and whether the version is bumped enough, as `policyset diff --format json`. Give `old` and `new` (two files), or `against` (a git revision) with optional `paths` to compare each set file with its content at that revision.',
  inputSchema: {
    type: 'object',
    properties: {
      old: { type: 'string', description: 'The earlier version: a file inside the working folder.' },
      new: { type: 'string', description: 'The later version: a file inside the working folder.' },
      against: { type: 'string', description: 'A git revision (a commit, branch or tag) to compare the set files under paths with.' },
      paths: { type: 'array', items: { type: 'string' }, description: 'With against: files or folders (default: the working folder).' },
      referenceAdded: {
        enum: ['minor', 'major'],
        description: 'What a reference added asks of the version (default: minor, or the config file).',
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      versionOk: { type: 'boolean', description: 'false when a version is bumped too little' },
      reports: { type: 'array', items: { type: 'object' } },
      notes: { type: 'array', items: { type: 'string' } },
    },
    required: ['versionOk', 'reports'],
  },
  call: (args) =>
    guarded(async () => {
      onlyKnown(args, ['old', 'new', 'against', 'paths', 'referenceAdded'], 'diff');
      const options = { referenceAdded: referenceAddedSetting(optionalString(args.referenceAdded, 'referenceAdded')) };
      const against = optionalString(args.against, 'against');
      let reports: ChangeReport[];
      const notes: string[] = [];
      if (against !== undefined) {
        if (args.old !== undefined || args.new !== undefined) throw new UsageError('give old and new, or against with paths: not both');
        const paths = stringList(args.paths, 'paths').map((p) => insideFolder(root, p, 'path'));
        const comparison = await compareAgainstRevision(against, paths, options);
        reports = comparison.reports;
        notes.push(...comparison.skipped);
      } else {
        const oldName = optionalString(args.old, 'old');
        const newName = optionalString(args.new, 'new');
        if (oldName === undefined || newName === undefined)
          throw new UsageError('diff needs old and new (two files), or against (a git revision)');
        if (args.paths !== undefined) throw new UsageError('paths go with against');
        if (oldName.startsWith('builtin:'))
          throw new UsageError(
            'builtin:<name> reads the service, which this server never calls: run policyset diff in a terminal, or fetch the set first',
          );
        const files = [insideFolder(root, oldName, 'old'), insideFolder(root, newName, 'new')];
        const textOf = await diskReader(files);
        for (const file of files) if (textOf(file) === undefined) throw new InputError(`${file}: no such file`);
        reports = compareRead(readSetFile(files[0], textOf), readSetFile(files[1], textOf), options);
      }
      if (!reports.length) notes.push('no policy set definition to compare');
      return toolResult({
        versionOk: !reports.some((r) => r.versionOk === false),
        reports: reports.map(toJson),
        ...(notes.length ? { notes } : {}),
      });
    }),
});

const rulesTool: Tool = {
  name: 'rules',
  title: 'List the rules',
  description:
    'Lists every rule of policyset lint: its stable code (PS1001...), name, default severity and what it checks, as `policyset rules --format json`.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      rules: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            code: { type: 'string' },
            name: { type: 'string' },
            defaultSeverity: { type: 'string' },
            description: { type: 'string' },
          },
          required: ['code', 'name', 'defaultSeverity', 'description'],
        },
      },
    },
    required: ['rules'],
  },
  call: (args) =>
    guarded(async () => {
      onlyKnown(args, [], 'rules');
      return toolResult({
        rules: RULES.map((r) => ({
          code: r.meta.code,
          name: r.meta.name,
          defaultSeverity: r.meta.defaultSeverity,
          description: r.meta.description,
        })),
      });
    }),
};

const explainTool: Tool = {
  name: 'explain',
  title: 'Explain a rule',
  description:
    "Explains one rule, by code (PS4001) or name (duplicate-reference-id): what it checks, why, and examples of wrong and right documents (the rule's page, docs/rules/<name>.md).",
  inputSchema: {
    type: 'object',
    properties: { rule: { type: 'string', description: 'A rule code or name.' } },
    required: ['rule'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      name: { type: 'string' },
      defaultSeverity: { type: 'string' },
      description: { type: 'string' },
      page: { type: ['string', 'null'] },
    },
    required: ['code', 'name', 'defaultSeverity', 'description', 'page'],
  },
  call: (args) =>
    guarded(async () => {
      onlyKnown(args, ['rule'], 'explain');
      const given = optionalString(args.rule, 'rule');
      if (!given) throw new UsageError('explain needs rule (a code such as PS4001, or a name)');
      const code = canonicalRuleKey(given);
      const rule = RULES.find((r) => r.meta.code === code);
      if (!rule) {
        const near = nearestRule(given);
        throw new UsageError(`no rule '${given}'${near ? `; did you mean '${near}'?` : ''} (the rules tool lists them)`);
      }
      const { name, defaultSeverity, description } = rule.meta;
      return toolResult({ code: rule.meta.code, name, defaultSeverity, description, page: ruleHelp(name) ?? null });
    }),
};

/** The tools, reading the working folder `root`. */
export function mcpTools(root: string): Tool[] {
  return [lintTool(root), diffTool(root), rulesTool, explainTool];
}
