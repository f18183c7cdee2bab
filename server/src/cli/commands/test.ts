import { parseArgs } from 'node:util';
import { UsageError } from '../../node/files';
import { findFixtures, runFixture, FIXTURE_SUFFIX } from '../evaluate/fixtures';
import { summaryOf, testJson, testJunit, testSarif, testText, TEST_FORMATS } from '../evaluate/testReport';
import { cliVersion } from '../version';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset test [paths...] [--format text|json|sarif|junit]

Runs evaluation fixtures like unit tests: each *${FIXTURE_SUFFIX} file names a set or definition, its
definitions, an assignment, exemptions, related resources and a context, and cases of a resource with the
outcome expected per reference ID (docs/evaluate.md). Folders are walked (default: the current folder).

Examples:
  policyset test
  policyset test examples/evaluate --format junit > results.xml

Options:
  -f, --format <text|json|sarif|junit>  Output format (default: text)

Exit status: 0 every expectation holds; 1 an expectation does not hold; 2 usage or input problems (no
fixture, a fixture or a file it names that cannot be read).
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = {
  0: 'every expectation holds',
  1: 'an expectation does not hold',
  2: 'usage or input problems (no fixture, a fixture or a file it names that cannot be read)',
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'text' } },
  });
  const format = values.format as (typeof TEST_FORMATS)[number];
  if (!TEST_FORMATS.includes(format)) throw new UsageError(`--format takes ${TEST_FORMATS.join(', ')}, not '${values.format}'`);
  const files = await findFixtures(positionals.length ? positionals : ['.']);
  if (!files.length)
    throw new UsageError(
      `no fixture (*${FIXTURE_SUFFIX}) in ${positionals.length ? positionals.map((p) => `'${p}'`).join(', ') : 'the current folder'}`,
    );
  const fixtures = [];
  for (const file of files) fixtures.push(await runFixture(file));
  const cwd = process.cwd();
  const text =
    format === 'json'
      ? testJson(fixtures, cwd)
      : format === 'sarif'
        ? testSarif(fixtures, cwd, cliVersion())
        : format === 'junit'
          ? testJunit(fixtures, cwd)
          : testText(fixtures, cwd);
  process.stdout.write(text);
  return summaryOf(fixtures).failed ? 1 : 0;
}
