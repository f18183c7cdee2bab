// policyset definitions index: a definitions index (the shape of the corpus's
// builtin-policy-definitions-index.json) built from folders of policy definition files, such as a clone of
// the vendor's built-in definitions. `--definitions <index>` then knows every built-in for a fraction of
// the cost of reading the files (docs/cli.md).
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeText } from '../../service';
import { indexEntryOf, sortIndex, type IndexEntry } from '../../service/definitionIndex';
import { parseDocumentText } from '../../service/json/documentValue';
import { discover, InputError, notWalkedNotes, readUserFile, UsageError } from '../../node/files';
import { shortMessage } from '../messages';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset definitions index <folder or file>... [-o index.json]

Builds a definitions index from policy definition files: for each definition its name, ID, version(s),
parameters (type, allowedValues, defaultValue, strongType), display name, category, cloud (a file under an
"Azure Government" folder is the AzureUSGovernment variant) and the path it was read from. The index has
the shape of builtin-policy-definitions-index.json; give it to lint, diff and the editor with
--definitions <index> (or "definitions" in .policysetrc.json).

Examples:
  policyset definitions index azure-policy/built-in-policies/policyDefinitions -o builtin-index.json
  policyset definitions index policies/definitions -o custom-index.json

Options:
  -o, --output <file>   Write the index to a file (default: standard output)

Files that are not JSON or not a policy definition are counted and named on standard error, never
silently left out.

Exit status: 0 the index written, 2 usage or input problems (nothing found, a path that cannot be read,
an output that is one of the inputs).
`;

export const exitStatus: ExitStatuses = {
  0: 'the index written',
  2: 'usage or input problems (nothing found, a path that cannot be read, an output that is one of the inputs)',
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { output: { type: 'string', short: 'o' } } });
  if (!positionals.length) throw new UsageError('definitions index needs a folder (or files) of policy definitions');
  const output = values.output as string | undefined;
  const found = await discover(positionals);
  if (found.problems.length) throw new InputError(found.problems[0]);
  if (output) {
    const target = path.resolve(output);
    if (found.files.some((f) => path.resolve(f.path) === target))
      throw new UsageError(`-o ${output} would replace an input: write the index elsewhere`);
  }
  const entries: IndexEntry[] = [];
  const notJson: string[] = [];
  const notDefinitions: string[] = [];
  for (const file of found.files) {
    const relative = path.relative(process.cwd(), file.path).split(path.sep).join('/');
    let document: unknown;
    try {
      document = parseDocumentText(decodeText(await readUserFile(file.path, 'definitions')).text);
    } catch {
      notJson.push(relative);
      continue;
    }
    const entry = indexEntryOf(document, relative);
    if (entry) entries.push(entry);
    else notDefinitions.push(relative);
  }
  if (!entries.length)
    throw new InputError(
      `no policy definition under ${positionals.join(', ')} (${found.files.length} JSON file${found.files.length === 1 ? '' : 's'} read)`,
    );
  const text = JSON.stringify(sortIndex(entries), null, 1) + '\n';
  if (output) {
    try {
      fs.writeFileSync(output, text);
    } catch (error) {
      throw new InputError(`cannot write '${output}': ${(error as Error).message}`);
    }
  } else process.stdout.write(text);
  const clouds = new Map<string, number>();
  for (const entry of entries) clouds.set(entry.cloud, (clouds.get(entry.cloud) ?? 0) + 1);
  process.stderr.write(
    `policyset: ${entries.length} definition${entries.length === 1 ? '' : 's'} indexed (${[...clouds]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([cloud, n]) => `${n} ${cloud}`)
      .join(', ')})${output ? ` in ${output}` : ''}\n`,
  );
  const list = (files: string[]) => files.slice(0, 5).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  // File names come from the folder walked: through the one sanitiser, as every message.
  const notes = notWalkedNotes(found.notWalked, 'cli');
  if (notJson.length) notes.push(`${notJson.length} file${notJson.length === 1 ? '' : 's'} not read (not JSON): ${list(notJson)}`);
  if (notDefinitions.length)
    notes.push(
      `${notDefinitions.length} file${notDefinitions.length === 1 ? '' : 's'} left out (JSON, not a policy definition): ${list(notDefinitions)}`,
    );
  for (const note of notes) process.stderr.write(`policyset: ${shortMessage(note)}\n`);
  return 0;
}
