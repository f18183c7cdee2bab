import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bumpRank, isBump, readSides, type Bump, type ChangeReport, type CompareOptions } from '../../service';
import { InputError, UsageError } from '../../node/files';
import { writeOutputFile } from '../../node/output';
import { escapeControls } from '#api';
import { compareAgainstRevision, compareRead, diskReader, readSetFile } from '../versions/versionSides';
import { addConsumerBreaks } from '../versions/consumerBreaks';
import { DIFF_FORMATS, formatDiffMarkdown, formatDiffSarif, formatDiffText, safe, toJson } from '../versions/diffReport';
import { policySetClient, reportApiError, serviceContext, serviceOptions, SERVICE_OPTIONS_USAGE } from '../options/serviceOptions';
import { versionSettings, VERSION_OPTIONS_USAGE } from '../options/versionOptions';
import { definitionNotes, loadCatalog, resolveDefinitionSources } from '../../node/definitions';
import { cliVersion } from '../version';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset diff <old> <new> [options]
       policyset diff --against <git revision> [paths...] [options]

Compares two versions of a policy set definition and says what each change asks of the version:
major (assignments break), minor (they keep working), patch (words and metadata), none (formatting).
<old> is a file, or builtin:<name> to read a built-in set through the service (E1). With --against,
each set file under the paths (default: the current folder) is compared with its content at that
revision (git must be on the PATH): a file new since has no old side, a deleted one is removed.
When both sides have a version (properties.version, else a version resource's name, else
metadata.version), the new one must be greater and bumped at least as far as the changes require.

Examples:
  policyset diff old/my-set.json my-set.json --fail-on major
  policyset diff --against origin/main policies/ --format markdown -o changes.md
  policyset diff builtin:1f3afdf9-d0c9-4c3d-847f-89da613e70a8 my-copy.json

Options:
  -f, --format <text|json|markdown|sarif>  Output format (default: text)
      --fail-on <major|minor|patch>        Exit 1 when a change asks for this bump or more
  -o, --output <file>                      Write the report to a file (never one of the inputs)
      --against <revision>                 Compare the set files under [paths...] with a git revision
  -d, --definitions <path>                 Known definitions (an index, definition files or folders): a definition
                                           replaced under a kept reference ID is classified by its default
                                           effect, values no definition accepts may leave allowedValues
      --cloud <name>                       Prefer this cloud's variants in an index (default: AzureCloud)
      --consumers <path>                   Assignments and exemptions (files or folders; repeatable): each
                                           breaking change lists the consumer files and lines it breaks
${VERSION_OPTIONS_USAGE}      --no-color                           Plain text output

${SERVICE_OPTIONS_USAGE}(service options are used by builtin:<name> only)

Exit status: 0 every version bumped enough (or absent) and no change reaches --fail-on; 1 a version
bumped too little, or a change reaches --fail-on; 2 usage, input or service problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'every version bumped enough (or absent) and no change reaches --fail-on',
  1: 'a version bumped too little, or a change reaches --fail-on',
  2: 'usage, input or service problems',
};

export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...serviceOptions,
      format: { type: 'string', short: 'f', default: 'text' },
      'fail-on': { type: 'string' },
      output: { type: 'string', short: 'o' },
      against: { type: 'string' },
      'reference-added': { type: 'string' },
      'reference-removed': { type: 'string' },
      definitions: { type: 'string', short: 'd', multiple: true, default: [] as string[] },
      cloud: { type: 'string' },
      consumers: { type: 'string', multiple: true, default: [] as string[] },
      'no-color': { type: 'boolean', default: false },
    },
  });
  const format = values.format as string;
  if (!(DIFF_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown format '${format}': use ${DIFF_FORMATS.join(', ')}`);
  const failOn = values['fail-on'] as string | undefined;
  if (failOn !== undefined && (!isBump(failOn) || failOn === 'none'))
    throw new UsageError(`--fail-on takes major, minor or patch, not '${failOn}'`);
  const definitions = await definitionOptions(values.definitions as string[], values.cloud as string | undefined);
  const options: CompareOptions = { ...versionSettings(values), ...definitions.options };
  const output = values.output as string | undefined;

  let reports: ChangeReport[];
  let inputs: string[];
  const notes: string[] = [...definitions.notes];
  const against = values.against as string | undefined;
  if (against !== undefined) {
    inputs = positionals;
    checkOutput(output, inputs.length ? inputs : ['.'], true);
    const comparison = await compareAgainstRevision(against, positionals, options);
    reports = comparison.reports;
    notes.push(...comparison.skipped);
    if (comparison.otherJson)
      notes.push(
        `${comparison.otherJson} other JSON file${comparison.otherJson === 1 ? '' : 's'} skipped: no policy set definition in ${comparison.otherJson === 1 ? 'it' : 'them'}, now or at ${against}`,
      );
    for (const [name, from] of comparison.renamed) notes.push(`${name}: renamed or moved from ${from} since ${against}, compared with it`);
    if (!reports.length)
      notes.push(
        `no policy set definition under ${positionals.length ? positionals.join(', ') : 'the current folder'} (now or at ${against})`,
      );
  } else {
    if (positionals.length !== 2)
      throw new UsageError(
        positionals.length < 2 ? 'diff needs <old> and <new> (or --against <revision> [paths...])' : 'diff takes two files: <old> <new>',
      );
    const [oldName, newName] = positionals;
    if (newName.startsWith('builtin:')) throw new UsageError('<new> is a file: builtin:<name> is for <old>, the set you copied');
    inputs = oldName.startsWith('builtin:') ? [newName] : [oldName, newName];
    checkOutput(output, inputs, false);
    const textOf = await diskReader(inputs);
    for (const file of inputs) if (textOf(file) === undefined) throw new InputError(`${file}: no such file`);
    let oldRead;
    if (oldName.startsWith('builtin:')) {
      const name = oldName.slice('builtin:'.length);
      const context = serviceContext(values, env);
      try {
        const response = await policySetClient(context).getBuiltInPolicySetDefinition(name);
        oldRead = readSides(oldName, JSON.stringify(response.body, null, 2));
      } catch (error) {
        return reportApiError(error, context.secrets);
      }
    } else {
      oldRead = readSetFile(oldName, textOf);
    }
    reports = compareRead(oldRead, readSetFile(newName, textOf), options);
  }

  const consumerPaths = values.consumers as string[];
  if (consumerPaths.length) {
    const scan = await addConsumerBreaks(reports, consumerPaths);
    for (const problem of scan.problems) notes.push(`--consumers: ${problem}`);
    notes.push(
      `${scan.consumerFiles} file${scan.consumerFiles === 1 ? '' : 's'} of assignments or exemptions read under ${consumerPaths.join(', ')}`,
    );
  }

  const cwd = process.cwd();
  const color = format === 'text' && !values['no-color'] && !output && !!process.stdout.isTTY && !env.NO_COLOR;
  const text =
    format === 'json'
      ? escapeControls(JSON.stringify(against === undefined && reports.length === 1 ? toJson(reports[0]) : reports.map(toJson), null, 2)) +
        '\n'
      : format === 'markdown'
        ? formatDiffMarkdown(reports, cwd)
        : format === 'sarif'
          ? formatDiffSarif(reports, cwd, cliVersion())
          : formatDiffText(reports, cwd, color);
  if (output) {
    // The one output guard lint uses: never over an input (device and inode compared, so a hard link or
    // another spelling counts), never half-written, never through a link.
    const read = against === undefined ? inputs : reports.flatMap((r) => (r.new ? [path.resolve(r.new.file)] : []));
    writeOutputFile(output, text, read);
  } else process.stdout.write(text);
  for (const note of notes) process.stderr.write(`policyset: ${safe(note)}\n`);
  return statusOf(reports, failOn as Bump | undefined);
}

/** The definitions given with --definitions, for the comparison (none given: none loaded), and what their walk passed over. */
async function definitionOptions(
  paths: string[],
  cloud: string | undefined,
): Promise<{ options: Pick<CompareOptions, 'definitions' | 'cloud'>; notes: string[] }> {
  if (!paths.length) return { options: cloud ? { cloud } : {}, notes: [] };
  const sources = await resolveDefinitionSources(paths);
  return { options: { definitions: await loadCatalog(sources), ...(cloud ? { cloud } : {}) }, notes: definitionNotes(sources) };
}

/** The exit status of a comparison: 1 when a version is bumped too little or a change reaches --fail-on. */
function statusOf(reports: ChangeReport[], failOn: Bump | undefined): number {
  const tooLittle = reports.some((r) => r.versionOk === false);
  const reached = failOn !== undefined && reports.some((r) => r.changes.some((c) => bumpRank(c.bump) >= bumpRank(failOn)));
  return tooLittle || reached ? 1 : 0;
}

/** An output file never replaces an input (nor a file under an input folder, with --against). */
function checkOutput(output: string | undefined, inputs: string[], folders: boolean): void {
  if (!output) return;
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const target = real(output);
  for (const input of inputs) {
    const source = real(input);
    const inside =
      folders &&
      fs.existsSync(source) &&
      fs.statSync(source).isDirectory() &&
      target.startsWith(source + path.sep) &&
      /\.jsonc?$/i.test(target);
    if (source === target || inside || sameFile(source, target))
      throw new UsageError(`-o ${output} would replace an input: write the report elsewhere`);
  }
}

/** Two names of one file (a hard link): the same device and inode. */
function sameFile(a: string, b: string): boolean {
  try {
    const left = fs.statSync(a);
    const right = fs.statSync(b);
    return left.isFile() && left.dev === right.dev && left.ino === right.ino;
  } catch {
    return false;
  }
}
