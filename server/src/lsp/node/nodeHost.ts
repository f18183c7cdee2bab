import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerHost } from '../serverHost';
import { decodeText } from '../../service';
import { WorkspaceDefinitions } from './workspaceDefinitions';
import { QuotaFiles } from './quotaFiles';
import { IdleCollection } from './idleCollection';
import { WorkspaceConfigs } from './workspaceConfig';
import { readUserFileSync } from '../../node/files';
import { WorkspaceLint } from './workspaceLint';
import { findFixtureFiles, fixtureTargetUri, runFixtureFile } from './fixtureRuns';

const filePaths = (uris: string[]) => uris.filter((f) => f.startsWith('file:')).map((f) => fileURLToPath(f));

/** The language server in Node: reads the workspace from the disk. `packageRoot`: where package.json and docs/rules are. */
export function nodeHost(packageRoot: string): ServerHost {
  return {
    definitions: (_connection, log) => new WorkspaceDefinitions(log),
    quotaFiles: (log) => {
      const files = new QuotaFiles(log);
      return {
        table: (setting, folders) => files.table(setting, filePaths(folders)),
        usages: (settingFiles, folders, documentUri, root) => files.usages(settingFiles, filePaths(folders), documentUri, root),
      };
    },
    configs: (warn) => new WorkspaceConfigs(warn),
    readFile: (uri) => {
      if (!uri.startsWith('file:')) return undefined;
      try {
        // UTF-16 and a byte order mark read as their text, as the CLI reads them (service/json/encoding.ts).
        return decodeText(readUserFileSync(fileURLToPath(uri), 'document')).text;
      } catch {
        return undefined;
      }
    },
    sourceUri: (source) =>
      /^[a-z][a-z0-9+.-]+:\/\//i.test(source) ? source : path.isAbsolute(source) ? pathToFileURL(source).href : undefined,
    docsBaseUrl: pathToFileURL(path.join(packageRoot, 'docs', 'rules')).href,
    idleCollection: (threshold, quietMs, lowRateMs) => new IdleCollection(threshold, quietMs, lowRateMs),
    yieldToEvents: () => new Promise((resolve) => setImmediate(resolve)),
    runFixture: runFixtureFile,
    findFixtures: findFixtureFiles,
    fixtureTarget: fixtureTargetUri,
    workspaceLint: (context) => new WorkspaceLint({ ...context, docsBaseUrl: pathToFileURL(path.join(packageRoot, 'docs', 'rules')).href }),
  };
}
