// Definition index files (a JSON array of definitions, as builtin-policy-definitions-index.json: thousands of
// definitions, tens of MB once read) loaded once per version of the file and shared by the known definitions of
// open documents (workspaceDefinitions.ts) and the workspace check (workspaceLint.ts): each copies the maps
// it needs (DefinitionCatalog.addAll), the definitions themselves are held once.
import { promises as fs } from 'node:fs';
import type { DefinitionCatalog } from '../../service';
import { loadCatalog } from '../../node/definitions';

const loaded = new Map<string, { mtimeMs: number; size: number; catalog: Promise<DefinitionCatalog> }>();

/** The catalogue of one index file, read again only when its size or time changed. Rejects as loadCatalog does. */
export async function indexCatalog(file: string): Promise<DefinitionCatalog> {
  const stat = await fs.stat(file);
  const known = loaded.get(file);
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.catalog;
  const catalog = loadCatalog({ indexFiles: [file], definitionFiles: [] });
  loaded.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, catalog });
  catalog.catch(() => loaded.delete(file));
  return catalog;
}
