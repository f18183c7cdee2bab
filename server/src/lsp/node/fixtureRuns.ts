// A `policyset test` fixture run for the editor (docs/evaluate.md, "In the editor"): the CLI's runner, which
// reads every file it names through the one bounded reader, on the fixture's text as the editor has it.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FixtureRun } from '../../service';
import { InputError } from '../../node/files';
import { FixtureInputError, findFixtures, runFixture } from '../../cli/evaluate/fixtures';

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

/** The fixture files (`*.policytest.json`, as `policyset test` walks a folder) under the workspace folders, as URIs. */
export async function findFixtureFiles(folderUris: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folderUris.filter((f) => f.startsWith('file:'))) {
    try {
      found.push(...(await findFixtures([fileURLToPath(folder)])).map((file) => pathToFileURL(file).href));
    } catch {
      // A folder that cannot be read holds no fixture the editor can run.
    }
  }
  return found;
}

/** The URI of a fixture's `target` path (relative to the fixture's folder). */
export function fixtureTargetUri(fixtureUri: string, target: string): string | undefined {
  if (!fixtureUri.startsWith('file:')) return undefined;
  return pathToFileURL(path.resolve(path.dirname(fileURLToPath(fixtureUri)), target)).href;
}
