import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DefinitionCatalog, decodeText } from '../service';
import {
  describeFsError,
  discover,
  InputError,
  notWalkedNotes,
  readUserFile,
  readUserFileSync,
  type Discovery,
  type FileKind,
} from './files';
import { parseDocumentText } from '../service/json/documentValue';
import { isPolicyDefinition, isPolicySet } from '../service/model/documentKind';

// Pure, and used by the browser's language server too: they live in the service.
export { parseDocumentText, isPolicyDefinition, isPolicySet };

/** Where known definitions come from: index files, folders of policy definition files, definition documents. */
export interface DefinitionSources {
  indexFiles: string[];
  definitionFiles: string[];
  /** What the walk of the folders passed over (links, folders too deep), to be said (definitionNotes). */
  notWalked: Discovery['notWalked'];
}

/**
 * Sorts `--definitions` paths into index files and policy definition files. Folders are walked as the files to
 * lint are (discover): `.git`, `node_modules` and the like left out, links not followed, 64 folders deep at most.
 */
export async function resolveDefinitionSources(paths: string[]): Promise<DefinitionSources> {
  const sources: DefinitionSources = { indexFiles: [], definitionFiles: [], notWalked: { links: [], tooDeep: [] } };
  for (const p of paths) {
    let stat;
    try {
      stat = await fs.stat(p);
    } catch (error) {
      throw new InputError(`--definitions: ${describeFsError(error, p)}`);
    }
    if (!stat.isDirectory()) {
      sources.indexFiles.push(p);
      continue;
    }
    const found = await discover([p]);
    if (found.problems.length) throw new InputError(`--definitions: ${found.problems[0]}`);
    sources.definitionFiles.push(...found.files.map((f) => f.path));
    sources.notWalked.links.push(...found.notWalked.links);
    sources.notWalked.tooDeep.push(...found.notWalked.tooDeep);
  }
  return sources;
}

/** What the walk of the definitions' folders passed over, in a note each (none when it passed over nothing). */
export const definitionNotes = (sources: DefinitionSources | undefined): string[] =>
  sources ? notWalkedNotes(sources.notWalked, 'definitions').map((note) => `--definitions: ${note}`) : [];

async function readJson(file: string): Promise<unknown> {
  let bytes;
  try {
    bytes = await readUserFile(file, 'definitions');
  } catch (error) {
    throw new InputError(`--definitions: ${(error as Error).message}`);
  }
  const { text } = decodeText(bytes);
  try {
    return parseDocumentText(text);
  } catch (error) {
    throw new InputError(`--definitions: '${file}' is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A small JSON file the tools read (a capacity-unit table, saved usage), strict or with comments and
 * trailing commas; throws with what is wrong (the system's code when it cannot be read).
 */
export function readJsonFileSync(file: string, kind: FileKind): unknown {
  const text = decodeText(readUserFileSync(file, kind)).text;
  try {
    return parseDocumentText(text);
  } catch (error) {
    throw new Error(`'${file}' is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A definition file that is not JSON: when it holds a policy rule, the names it would go by (its first
 * `"name"`, its file name without the extension) are recorded, so that PS8010 says the file is broken.
 */
function recordUnreadable(catalog: DefinitionCatalog, file: string, text: string, problem: string): void {
  if (!text.includes('"policyRule"')) return;
  const named = /"name"\s*:\s*"([^"\\]+)"/.exec(text)?.[1];
  const base = path.basename(file).replace(/\.jsonc?$/i, '');
  catalog.addUnreadable([named ?? '', base], file, problem.split('\n')[0]);
}

/** Adds a definition or a set document; returns whether it was either. */
function addDocument(catalog: DefinitionCatalog, value: unknown, file: string): boolean {
  if (isPolicyDefinition(value)) return catalog.addDefinitionDocument(value, file);
  return isPolicySet(value) && catalog.addSetDocument(value, file);
}

/**
 * Builds the catalogue. An explicit file is an index (a JSON array of definitions) or one policy definition;
 * files found in folders, or among the files being linted, count when they are policy definitions.
 */
export async function loadCatalog(
  sources: Pick<DefinitionSources, 'indexFiles' | 'definitionFiles'>,
  extraDefinitionTexts: Array<{ file: string; text: string }> = [],
): Promise<DefinitionCatalog> {
  const catalog = new DefinitionCatalog();
  for (const file of sources.indexFiles) {
    const value = await readJson(file);
    if (
      Array.isArray(value) ||
      (typeof value === 'object' && value !== null && Array.isArray((value as { definitions?: unknown }).definitions))
    ) {
      catalog.addIndex(value, file);
    } else if (!addDocument(catalog, value, file) && !catalog.addDefinitionDocument(value, file)) {
      throw new InputError(`--definitions: '${file}' is neither a definitions index (a JSON array), a policy definition nor a policy set`);
    }
  }
  for (const file of sources.definitionFiles) {
    let value: unknown;
    try {
      value = await readJson(file);
    } catch (error) {
      // A broken file in a folder of definitions is not a definition (linting reports it if asked); when it
      // looks like one, a reference to it is told the file is broken rather than that it is missing.
      let text: string | undefined;
      try {
        text = decodeText(await readUserFile(file, 'definitions')).text;
      } catch {
        // Unreadable: nothing to name.
      }
      if (text !== undefined)
        recordUnreadable(catalog, file, text, (error as Error).message.replace(/^--definitions: '[^']*' is not valid JSON: /, ''));
      continue;
    }
    addDocument(catalog, value, file);
  }
  for (const { file, text } of extraDefinitionTexts) {
    try {
      addDocument(catalog, parseDocumentText(text), file);
    } catch (error) {
      recordUnreadable(catalog, file, text, (error as Error).message);
    }
  }
  return catalog;
}
