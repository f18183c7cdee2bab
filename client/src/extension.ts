import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { ITEM_SCHEME, registerServiceCommands } from './commands';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
  type Location as ProtocolLocation,
  type Position as ProtocolPosition,
} from 'vscode-languageclient/node';
import { POLICY_SET_LANGUAGE, registerLanguageDetection } from './languageDetection';
import { PolicySetStatus, WorkspaceCheckStatus } from './languageStatus';
import { CommittedText } from './committedText';
import { registerShowChanges } from './commands/showChangesAgainstHead';
import { registerEvaluateSamples } from './commands/evaluateSamples';
import { registerLanguageModelTools } from './languageModelTools';

import { APPLY_PLAN_REQUEST, QUOTA_FIGURES_REQUEST, REGIONS_WITH_ROOM_REQUEST, SHOW_REFERENCES_COMMAND } from '#protocol';

let client: LanguageClient | undefined;

/** The bundled server in a packaged extension; the compiled one in a checkout. */
function serverModule(context: vscode.ExtensionContext): string {
  const bundled = context.asAbsolutePath('dist/server/server.js');
  return fs.existsSync(bundled) ? bundled : context.asAbsolutePath('server/out/server.js');
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Policy Set', { log: true });
  context.subscriptions.push(log);
  registerServiceCommands(context, {
    log,
    // The quota commands ask the server for their figures: the quota model lives in the service.
    quotaFigures: (params) =>
      client ? client.sendRequest(QUOTA_FIGURES_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
    applyPlan: (params) =>
      client ? client.sendRequest(APPLY_PLAN_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
    regionsWithRoom: (params) =>
      client ? client.sendRequest(REGIONS_WITH_ROOM_REQUEST, params) : Promise.reject(new Error('the language server is not running')),
  });
  registerLanguageDetection(context, log);

  const module = serverModule(context);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  // Opened workspace items (read-only documents) are checked as well.
  const schemes = ['file', 'untitled', ITEM_SCHEME];
  const clientOptions: LanguageClientOptions = {
    // The server recognises policy documents by content, so it is sent every JSON document as well.
    documentSelector: [POLICY_SET_LANGUAGE, 'json', 'jsonc'].flatMap((language) => schemes.map((scheme) => ({ scheme, language }))),
    synchronize: { configurationSection: 'policySet' },
    // The settings as plain data (the configuration object carries functions too).
    initializationOptions: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration('policySet'))) as object,
    outputChannel: log,
    // Workspace diagnostics (the Problems panel lists every policy file's problems, open or not): the client
    // pulls them with workspace/diagnostic because the server declares workspaceDiagnostics (vscode-languageclient
    // 11 has no option of its own for it); policySet.validate.workspace turns the server's check off.
  };
  client = new LanguageClient('policySet', 'Policy Set', serverOptions, clientOptions);
  await client.start();
  log.info(`language server started from ${module}`);
  context.subscriptions.push(new PolicySetStatus(client, log), new WorkspaceCheckStatus(client));
  // The version check: each set file compared with its committed text (from the git extension).
  const committed = new CommittedText(client, log);
  context.subscriptions.push(committed);
  registerShowChanges(context, client, committed);
  // The code lens of a set or definition that fixtures name: their results (the server runs them).
  registerEvaluateSamples(context, client);
  // A set's code lens ("assigned in N places") opens its consumers in the references view.
  const converter = client.protocol2CodeConverter;
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_REFERENCES_COMMAND, (uri: string, position: ProtocolPosition, locations: ProtocolLocation[]) =>
      vscode.commands.executeCommand(
        'editor.action.showReferences',
        vscode.Uri.parse(uri),
        converter.asPosition(position),
        locations.map((location) => converter.asLocation(location)),
      ),
    ),
  );
  // Tools for language models (VS Code 1.95 and later) and the MCP server `policyset mcp` (1.101 and later).
  const running = client;
  registerLanguageModelTools(context, { sendRequest: (method, params) => running.sendRequest(method, params) }, log);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
