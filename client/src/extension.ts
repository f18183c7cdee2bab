import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerServiceCommands } from './commands';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel('Policy Set', { log: true });
  registerServiceCommands(context, { log: outputChannel });
  const module = context.asAbsolutePath(path.join('server', 'out', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // The server recognises policy documents by content; it is sent every JSON document.
    documentSelector: [
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
      { scheme: 'untitled', language: 'json' },
    ],
    outputChannel,
  };
  client = new LanguageClient('policySet', 'Policy Set', serverOptions, clientOptions);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
