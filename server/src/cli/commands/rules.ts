import { parseArgs } from 'node:util';
import { RULES } from '../../service';
import { UsageError } from '../../node/files';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset rules [--format text|json]

Lists every rule: its code, name, default severity and what it checks. A rule is named by code or name
in --rule <code|name>=<level>, in "rules" of .policysetrc.json and in the editor's policySet.severities.
Each has a page: docs/rules/<name>.md.

Examples:
  policyset rules
  policyset rules --format json

Exit status: 0 done, 2 usage problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done', 2: 'usage problems' };

/** The text table shows one line per rule; JSON has the whole description. */
const firstSentence = (text: string) => text.split(/(?<=\.)\s/)[0];

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'text' } },
  });
  if (positionals.length) throw new UsageError(`rules takes no arguments ('${positionals[0]}')`);
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format takes text or json, not '${values.format}'`);
  const rules = RULES.map((r) => ({
    code: r.meta.code,
    name: r.meta.name,
    defaultSeverity: r.meta.defaultSeverity,
    description: r.meta.description,
  }));
  if (values.format === 'json') {
    process.stdout.write(JSON.stringify(rules, null, 2) + '\n');
    return 0;
  }
  const nameWidth = Math.max(...rules.map((r) => r.name.length));
  const lines = rules.map((r) => `${r.code}  ${r.name.padEnd(nameWidth)}  ${r.defaultSeverity.padEnd(7)}  ${firstSentence(r.description)}`);
  process.stdout.write(
    `${'code'.padEnd(6)}  ${'name'.padEnd(nameWidth)}  default  what it checks (policyset rules -f json: in full)\n${lines.join('\n')}\n\n${rules.length} rules\n`,
  );
  return 0;
}
