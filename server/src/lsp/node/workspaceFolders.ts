// A workspace folder as the workspace check sees it: its lint settings (from its .policysetrc.json, under the
// editor's severities) and the definitions its config names, read once per config (see workspaceLint.ts).
import { fileURLToPath } from 'node:url';
import { DefinitionCatalog, type SeveritySetting } from '../../service';
import { loadCatalog, resolveDefinitionSources } from '../../node/definitions';
import { notWalkedNotes } from '../../node/files';
import { indexCatalog } from './indexCatalogs';
import type { LintSettings } from '../../cli/lint/lintFile';
import type { PolicySetConfig } from '../../service/config';

export interface FolderState {
  dir: string;
  settings: LintSettings;
  /** The config's definitions (index files, folders), read once per config. */
  base: DefinitionCatalog | undefined;
  hasConfigDefinitions: boolean;
  catalog: DefinitionCatalog | undefined;
  shape: string;
}

/** Lint settings of a folder as `policyset lint` run in it takes them from its config, under the editor's severities. */
export function lintSettings(
  config: PolicySetConfig | undefined,
  editor: { severities: Record<string, SeveritySetting>; cloud: string },
  docsBaseUrl: string,
): LintSettings {
  return {
    // The config's rules over the settings' (as for open documents); the CLI reads only the config's.
    severities: { ...editor.severities, ...config?.rules },
    minSeverity: config?.minSeverity ?? 'info',
    cloud: config?.cloud || editor.cloud || undefined,
    docsBaseUrl,
    identities: false,
  };
}

/** The definitions a folder's config names (index files, folders); undefined when it names none or they fail (said through `problem`, as is what the walk of a folder passed over). */
export async function configDefinitions(definitions: string[], problem: (message: string) => void): Promise<DefinitionCatalog | undefined> {
  if (!definitions.length) return undefined;
  try {
    const sources = await resolveDefinitionSources(definitions);
    for (const note of notWalkedNotes(sources.notWalked, 'definitions')) problem(note);
    if (sources.definitionFiles.length) return await loadCatalog(sources);
    // Index files only (the usual case): their definitions shared with the open documents' (indexCatalogs.ts).
    const base = new DefinitionCatalog();
    for (const file of sources.indexFiles) base.addAll(await indexCatalog(file));
    return base;
  } catch (error) {
    problem((error as Error).message);
    return undefined;
  }
}

/** The path of a file: URI; undefined for other schemes and malformed URIs. */
export const toPath = (uri: string): string | undefined => {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
};
