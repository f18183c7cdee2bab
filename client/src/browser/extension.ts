// The extension in VS Code for the Web (github.dev, vscode.dev): the web worker extension host loads this
// (package.json `browser`). The language server runs in a Web Worker, over the same service as on the
// desktop; the workspace's files reach it from here (workspaceFiles.ts). Bundled into dist/browser/extension.js.
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { POLICY_SET_LANGUAGE, registerLanguageDetection } from '../languageDetection';
import { PolicySetStatus } from '../languageStatus';
import { WorkspaceFileFeeder } from './workspaceFiles';
import { registerServiceCommands } from '../commands';
import { fetchTransport, setDefaultTransport } from '../api';

import {
  APPLY_PLAN_REQUEST,
  QUOTA_FIGURES_REQUEST,
  REGIONS_WITH_ROOM_REQUEST,
  WORKSPACE_FILES_NOTIFICATION,
  type WorkspaceFilesParams,
} from '#protocol';

let client: LanguageClient | undefined;

/**
 * The server's worker. Where the extension is served over http(s) (vscode.dev, github.dev, @vscode/test-web)
 * the script's address is used as it is; code-server serves extensions under a `vscode-remote` address,
 * from which a worker cannot be created ("Creating workers from remote extensions is currently not
 * supported"): there the script is fetched and started from a Blob URL.
 */
async function startWorker(context: vscode.ExtensionContext): Promise<Worker> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist/browser/server.js');
  try {
    return new Worker(script.toString(true));
  } catch (error) {
    const response = await fetch(script.toString(true));
    if (!response.ok)
      throw new Error(
        `cannot start the language server: ${(error as Error).message}; fetching ${script.toString(true)} answered ${response.status}`,
      );
    const blob = new Blob([await response.text()], { type: 'text/javascript' });
    return new Worker(URL.createObjectURL(blob));
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Policy Set', { log: true });
  context.subscriptions.push(log);
  // The service commands are the desktop's; their calls go over fetch, sign-in through VS Code's providers.
  setDefaultTransport(fetchTransport());
  registerServiceCommands(context, {
    log,
    quotaFigures: (params) =>
      client ? client.sendRequest(QUOTA_FIGURES_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
    applyPlan: (params) =>
      client ? client.sendRequest(APPLY_PLAN_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
    regionsWithRoom: (params) =>
      client ? client.sendRequest(REGIONS_WITH_ROOM_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
  });
  registerLanguageDetection(context, log);

  const clientOptions: LanguageClientOptions = {
    // Every scheme: a browser workspace is on vscode-vfs (github.dev), a virtual file system, or memory.
    documentSelector: [POLICY_SET_LANGUAGE, 'json', 'jsonc'].map((language) => ({ language })),
    synchronize: { configurationSection: 'policySet' },
    initializationOptions: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration('policySet'))) as object,
    outputChannel: log,
  };
  const worker = await startWorker(context);
  client = new LanguageClient('policySet', 'Policy Set', worker, clientOptions);
  await client.start();
  log.info('language server started in a Web Worker');
  context.subscriptions.push(new PolicySetStatus(client, log));

  const running = client;
  const feeder = new WorkspaceFileFeeder(
    (params: WorkspaceFilesParams) => running.sendNotification(WORKSPACE_FILES_NOTIFICATION, params),
    log,
  );
  context.subscriptions.push(feeder);
  void feeder.scan();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
