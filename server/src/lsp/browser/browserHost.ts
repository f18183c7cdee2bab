import { BUILT_IN_CAPACITY_TABLE } from '../../service/quota';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { checkConfig, CONFIG_FILE_NAME, type PolicySetConfig } from '../../service/config';
import type { FolderConfigView, ServerHost, WorkspaceConfigSource } from '../serverHost';
import { ClientFiles } from './clientFiles';
import { WORKSPACE_FILES_NOTIFICATION, type WorkspaceFilesParams } from '../protocol';

/**
 * Where the rule pages are for a worker loaded from `workerUrl` (dist/browser/server.js): they ship in the
 * extension beside dist/, reachable when the worker was loaded over http(s), not from a Blob URL ('': no links).
 */
export function docsBaseUrlOf(workerUrl: string): string {
  return /^https?:/i.test(workerUrl) ? new URL('../../docs/rules', workerUrl).href : '';
}

/**
 * The language server in a browser's Web Worker: no file system. The workspace's definitions, sets and
 * small files come from the client (WORKSPACE_FILES_NOTIFICATION); quota files are not read.
 */
export function browserHost(docsBaseUrl: string): ServerHost {
  let files: ClientFiles | undefined;
  return {
    definitions: (connection, log, changed) => {
      const clientFiles = new ClientFiles(log);
      files = clientFiles;
      connection.onNotification(WORKSPACE_FILES_NOTIFICATION, (params: WorkspaceFilesParams) => {
        try {
          if (clientFiles.receive(params ?? { complete: false, files: [] })) changed();
        } catch (error) {
          connection.console.error(`${WORKSPACE_FILES_NOTIFICATION}: ${(error as Error).message}`);
        }
      });
      return clientFiles;
    },
    quotaFiles: (log) => {
      let told = false;
      return {
        table: (setting) => {
          if (setting && !told) {
            told = true;
            log('quota: policySet.quota.capacityUnitsFile is not read in the browser; the built-in capacity-unit table is used');
          }
          return BUILT_IN_CAPACITY_TABLE;
        },
        usages: () => [],
      };
    },
    configs: (warn) => clientConfigs(() => files, warn),
    readFile: (uri) => files?.text(uri),
    sourceUri: (source) => (/^[a-z][a-z0-9+.-]+:/i.test(source) ? source : undefined),
    /** The extension's own docs/rules, served beside the bundle (dist/browser/server.js); '' when unknown: no links. */
    docsBaseUrl,
    // The browser collects on its own schedule; a worker cannot ask V8 for a full collection.
    idleCollection: () => ({ note: () => undefined }),
    yieldToEvents: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}

/**
 * `.policysetrc.json` in the browser: the text the client sent for the root of each workspace folder, parsed
 * again only when that text changes (so a change the client sends applies with no reload). Its paths
 * (definitions, capacityUnits, usage) and `ignore` are not used here: there is no file system to read them in.
 */
function clientConfigs(files: () => ClientFiles | undefined, warn: (message: string) => void): WorkspaceConfigSource {
  let folders: string[] = [];
  const parsed = new Map<string, { text: string; view: FolderConfigView | undefined }>();
  const configFile = (folder: string) => `${folder.replace(/\/$/, '')}/${CONFIG_FILE_NAME}`;
  const viewOf = (folder: string): FolderConfigView | undefined => {
    const uri = configFile(folder);
    const text = files()?.text(uri);
    if (text === undefined) return undefined;
    const cached = parsed.get(uri);
    if (cached?.text === text) return cached.view;
    let view: FolderConfigView | undefined;
    const errors: ParseError[] = [];
    try {
      const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
      if (errors.length) throw new Error('not valid JSON');
      const config: PolicySetConfig = checkConfig(value);
      view = { config, ignores: () => false };
    } catch (error) {
      warn(`${uri}: ${(error as Error).message}; the editor checks as if the file were not there until it is fixed`);
    }
    parsed.set(uri, { text, view });
    return view;
  };
  return {
    load: (folderUris) => {
      // Innermost folder first.
      folders = [...folderUris].sort((a, b) => b.length - a.length);
    },
    forUri: (uri) => {
      const folder = folders.find((f) => uri.startsWith(f.replace(/\/$/, '') + '/'));
      return folder === undefined ? undefined : viewOf(folder);
    },
    all: () => folders.map(viewOf).filter((v): v is FolderConfigView => v !== undefined),
  };
}
