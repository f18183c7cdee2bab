// The language server's side of `.policysetrc.json`: the file at the root of each workspace folder, read
// again when it changes (workspace/didChangeWatchedFiles), so that the editor and CI agree. A document
// takes the file of the innermost workspace folder that holds it. A broken file is reported once (log and
// a window message) and left out until it is fixed: the editor then checks as if it were not there.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_FILE_NAME, ConfigFileError, ignoreMatcher, loadConfigFile, type LoadedConfig } from '../../node/config';
import type { FolderConfigView, WorkspaceConfigSource } from '../serverHost';

export interface FolderConfig extends LoadedConfig, FolderConfigView {
  ignored: (file: string) => boolean;
}

const toPath = (uri: string): string | undefined => {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
};

export class WorkspaceConfigs implements WorkspaceConfigSource {
  private configs: FolderConfig[] = [];

  constructor(private readonly warn: (message: string) => void) {}

  /** Reads the config file of each folder (URIs); a missing file is no config, a broken one is reported. */
  load(folderUris: string[]): void {
    const configs: FolderConfig[] = [];
    for (const folder of folderUris.map(toPath)) {
      if (!folder) continue;
      const file = path.join(folder, CONFIG_FILE_NAME);
      let loaded: LoadedConfig;
      try {
        loaded = loadConfigFile(file);
      } catch (error) {
        // A folder without the file has no config; any other failure is the user's to fix.
        if (!(error instanceof ConfigFileError && error.reason === 'missing'))
          this.warn(`${(error as Error).message}; the editor checks as if the file were not there until it is fixed`);
        continue;
      }
      const ignored = loaded.config.ignore?.length ? ignoreMatcher(loaded.config.ignore, loaded.dir) : () => false;
      configs.push({
        ...loaded,
        ignored,
        ignores: (uri) => {
          const file = toPath(uri);
          return !!file && ignored(file);
        },
      });
    }
    // Innermost folder first.
    this.configs = configs.sort((a, b) => b.dir.length - a.dir.length);
  }

  /** The config that applies to a document: its innermost workspace folder's. */
  forUri(uri: string): FolderConfig | undefined {
    const file = toPath(uri);
    if (!file) return undefined;
    return this.configs.find((c) => file === c.dir || file.startsWith(c.dir + path.sep));
  }

  /** Every loaded config (definitions of all folders are known to all documents, as the workspace scan is). */
  all(): FolderConfig[] {
    return this.configs;
  }
}
