import { BUILT_IN_CAPACITY_TABLE } from '../service/quota';
import type { ServerHost } from '../serverHost';
import { ClientFiles, WORKSPACE_FILES_NOTIFICATION, type WorkspaceFilesParams } from './clientFiles';

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
    readFile: (uri) => files?.text(uri),
    sourceUri: (source) => (/^[a-z][a-z0-9+.-]+:/i.test(source) ? source : undefined),
    /** The extension's own docs/rules, served beside the bundle (dist/browser/server.js); '' when unknown: no links. */
    docsBaseUrl,
    // The browser collects on its own schedule; a worker cannot ask V8 for a full collection.
    idleCollection: () => ({ note: () => undefined }),
    yieldToEvents: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}
