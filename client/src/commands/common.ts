import * as vscode from 'vscode';
import {
  ApiError,
  CancelledError,
  PolicySetClient,
  ServiceError,
  SettingsError,
  type HttpClientOptions,
  type ServiceSettings,
} from '../api';
import type { Auth } from './auth';
import { authSettings, serviceSettings } from './settings';

export interface ServiceCommandDeps {
  auth: Auth;
  /** Where a line about each call goes (never a token). */
  log?: vscode.LogOutputChannel;
}

/** Network commands are off in a restricted workspace: its settings could send a token anywhere. */
export async function requireTrust(): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const choice = await vscode.window.showWarningMessage(
    'Policy Set: fetching and deploying talk to the service with your credentials, so they are disabled in a restricted workspace. Trust this workspace to use them.',
    'Manage Workspace Trust',
  );
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
  return false;
}

/** The service settings (with the address the command needs), or undefined after telling the user what to set. */
export async function settingsOrExplain(needs: 'baseUrl' | 'itemsBaseUrl' = 'baseUrl'): Promise<ServiceSettings | undefined> {
  try {
    return serviceSettings(needs);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const choice = await vscode.window.showErrorMessage(`Policy Set: ${error.message}`, 'Open Settings');
    if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', 'policySet.service');
    return undefined;
  }
}

/** What every service client of the commands takes: the user's token (for `scopes` when given), the time limit, a log line per retry. */
export function clientOptions(
  service: ServiceSettings,
  deps: ServiceCommandDeps,
  scopes?: readonly string[],
): Omit<HttpClientOptions, 'baseUrl'> {
  return {
    token: deps.auth.tokenProvider(service, true, scopes),
    timeoutMs: authSettings(service).timeoutMs,
    onRetry: (info) => deps.log?.warn(`${info.reason}; retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1})`),
  };
}

export function clientFor(service: ServiceSettings, deps: ServiceCommandDeps): PolicySetClient {
  return new PolicySetClient(service, clientOptions(service, deps));
}

/** Runs a call under a cancellable progress notification; the VS Code token becomes an AbortSignal. */
export function withProgress<T>(
  title: string,
  work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    return work(controller.signal, progress).finally(() => subscription.dispose());
  });
}

/**
 * Shows an api failure: the service's code and message; a cancellation quietly. A 401 also forgets the
 * stored token, so the next command signs in again.
 */
export async function showFailure(what: string, error: unknown, deps: ServiceCommandDeps, service?: ServiceSettings): Promise<void> {
  if (error instanceof CancelledError) return;
  let message =
    error instanceof ApiError || error instanceof SettingsError
      ? error.message
      : `unexpected failure: ${(error as Error)?.message ?? String(error)}`;
  if (error instanceof ServiceError && error.status === 401 && service) {
    await deps.auth.signOut(service);
    message += ' The stored token was refused and forgotten: sign in again.';
  }
  deps.log?.error(`${what}: ${message}`);
  // Not awaited: the command ends now, not when the message is dismissed.
  void vscode.window.showErrorMessage(`Policy Set: ${what}: ${message}`);
}

/** A new untitled document: never over an open or unsaved one. */
export async function openUntitled(content: string): Promise<vscode.TextEditor> {
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument({ language: 'policyset', content });
  } catch {
    document = await vscode.workspace.openTextDocument({ language: 'json', content });
  }
  return vscode.window.showTextDocument(document, { preview: false });
}
