// A `policyset test` fixture run for the editor (docs/evaluate.md, "In the editor"): the CLI's runner, which
// reads every file it names through the one bounded reader, on the fixture's text as the editor has it.
import { fileURLToPath } from 'node:url';
import type { FixtureRun } from '../../service';
import { InputError } from '../../node/files';
import { FixtureInputError, runFixture } from '../../cli/evaluate/fixtures';

/** The fixture's results, or why it cannot run and where in it; undefined for a document that is not a file. */
export async function runFixtureFile(uri: string, text: string): Promise<FixtureRun | undefined> {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return { cases: (await runFixture(fileURLToPath(uri), text)).cases };
  } catch (error) {
    if (error instanceof FixtureInputError) return { error: error.message, at: error.at };
    if (error instanceof InputError) return { error: error.message, at: [] };
    throw error;
  }
}
