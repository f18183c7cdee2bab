import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';

/** The palette commands that talk to the service (package.json `contributes.commands`). */
const SERVICE_COMMANDS = [
  'policySet.fetchBuiltIn',
  'policySet.deployVersion',
  'policySet.showAdvisorMetadata',
  'policySet.showQuotaUsage',
  'policySet.refreshAdvisorMetadata',
  'policySet.openEventstream',
  'policySet.deleteEventstream',
  'policySet.deployModel',
  'policySet.signIn',
  'policySet.signOut',
];

/**
 * The service commands in the browser. They are not available there yet (see docs/web.md): each says so,
 * and what can do it instead, rather than leaving "command not found".
 */
export function registerBrowserServiceCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, _client: BaseLanguageClient): void {
  for (const id of SERVICE_COMMANDS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, () => {
        const message = `Policy Set: '${id}' talks to the service, which the extension does not do in the browser yet. Use the desktop extension or the CLI (policyset).`;
        log.warn(message);
        void vscode.window.showWarningMessage(message);
      }),
    );
  }
}
