import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefinitionCatalog } from './service';
import { loadCatalog, resolveDefinitionSources, isPolicyDefinition, isPolicySet, parseDocumentText } from './node/definitions';

export interface DefinitionSettings {
  /** Index files and folders of policy definition files; relative paths are resolved against each workspace folder. */
  paths: string[];
}

/** Folders scanned for policy definition files are capped, so a huge workspace costs a bounded time. */
const MAX_WORKSPACE_FILES = 20000;

function toPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The policy definitions the server knows: the configured index files and folders, the workspace's
 * policy definition files, and the open documents that are policy definitions (their unsaved text wins).
 * Reloaded when settings or files change; a path that cannot be read is reported, not fatal.
 */
export class WorkspaceDefinitions {
  private base = new DefinitionCatalog();
  private generation = 0;
  catalog = new DefinitionCatalog();

  constructor(private readonly log: (message: string) => void) {}

  /** Rebuilds from disk. Resolves to false when a newer reload started meanwhile (its result wins). */
  async reload(settings: DefinitionSettings, workspaceFolders: string[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean> {
    const generation = ++this.generation;
    const folders = workspaceFolders.map(toPath).filter((p): p is string => !!p);
    const configured = settings.paths.flatMap((p) => (path.isAbsolute(p) ? [p] : folders.map((folder) => path.join(folder, p))));
    const indexFiles: string[] = [];
    const definitionFiles: string[] = [];
    for (const target of [...configured, ...folders]) {
      try {
        const sources = await resolveDefinitionSources([target]);
        indexFiles.push(...sources.indexFiles.filter((f) => configured.includes(f)));
        definitionFiles.push(...sources.definitionFiles);
      } catch (error) {
        if (configured.includes(target)) this.log(`policySet.definitions.paths: ${(error as Error).message}`);
      }
      if (definitionFiles.length > MAX_WORKSPACE_FILES) {
        this.log(`More than ${MAX_WORKSPACE_FILES} JSON files in the workspace: only the first are read for policy definitions.`);
        definitionFiles.length = MAX_WORKSPACE_FILES;
        break;
      }
    }
    let base: DefinitionCatalog;
    try {
      base = await loadCatalog({ indexFiles: [...new Set(indexFiles)], definitionFiles: [...new Set(definitionFiles)] });
    } catch (error) {
      this.log((error as Error).message);
      base = new DefinitionCatalog();
    }
    if (generation !== this.generation) return false;
    this.base = base;
    this.refreshOpen(openDefinitions);
    this.log(`Known policy definitions: ${this.catalog.size}; policy sets: ${this.catalog.setCount}.`);
    return true;
  }

  /** Overlays the open documents that are policy definitions on what was read from disk. */
  refreshOpen(openDefinitions: Array<{ uri: string; text: string }>): void {
    const parsed: Array<{ source: string; value: unknown }> = [];
    for (const { uri, text } of openDefinitions) {
      try {
        const value = parseDocumentText(text);
        if (isPolicyDefinition(value) || isPolicySet(value)) parsed.push({ source: toPath(uri) ?? uri, value });
      } catch {
        // Not JSON now: the saved version (if any) stays known.
      }
    }
    const open = new Set(parsed.map((p) => p.source));
    const isOpen = (info: { source?: string }) => info.source !== undefined && open.has(info.source);
    const catalog = this.base.clone(isOpen, isOpen);
    for (const { source, value } of parsed) {
      if (isPolicyDefinition(value)) catalog.addDefinitionDocument(value, source);
      else catalog.addSetDocument(value, source);
    }
    this.catalog = catalog;
  }
}
