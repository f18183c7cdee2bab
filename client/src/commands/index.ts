import * as vscode from 'vscode';
import { createAuth } from './auth';
import type { ServiceCommandDeps } from './common';
import { DEPLOY_COMMAND, deployVersion } from './deployVersion';
import { FETCH_COMMAND, fetchBuiltIn } from './fetchBuiltIn';
import { SIGN_IN_COMMAND, signIn } from './signIn';
import { SIGN_OUT_COMMAND, signOut } from './signOut';
import { SHOW_QUOTA_USAGE_COMMAND, showQuotaUsage } from './showQuotaUsage';
import { DEPLOY_MODEL_COMMAND, deployModel, type DeployModelArgs } from './deployModel';
import type { QuotaFiguresProvider } from './quotaCommon';

export { FETCH_COMMAND, DEPLOY_COMMAND, SIGN_IN_COMMAND, SIGN_OUT_COMMAND, SHOW_QUOTA_USAGE_COMMAND, DEPLOY_MODEL_COMMAND };

/** Registers the commands that talk to the service (fetch, deploy, sign in, sign out). */
export function registerServiceCommands(context: vscode.ExtensionContext, deps: Partial<ServiceCommandDeps> & { quotaFigures?: QuotaFiguresProvider } = {}): void {
  const full: ServiceCommandDeps = { auth: deps.auth ?? createAuth(context), log: deps.log };
  context.subscriptions.push(
    vscode.commands.registerCommand(FETCH_COMMAND, (name?: unknown) => fetchBuiltIn(full, typeof name === 'string' ? name : undefined)),
    vscode.commands.registerCommand(DEPLOY_COMMAND, () => deployVersion(context, full)),
    vscode.commands.registerCommand(SIGN_IN_COMMAND, () => signIn(full)),
    vscode.commands.registerCommand(SIGN_OUT_COMMAND, () => signOut(full)),
  );
  const figures: QuotaFiguresProvider = deps.quotaFigures ?? (() => Promise.reject(new Error('the language server is not running')));
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_QUOTA_USAGE_COMMAND, (given?: { subscriptionId?: string; location?: string }) => showQuotaUsage(context, full, figures, given ?? {})),
    vscode.commands.registerCommand(DEPLOY_MODEL_COMMAND, (given?: DeployModelArgs) => deployModel(context, full, figures, given)),
  );
}
