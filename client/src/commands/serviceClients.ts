import * as vscode from 'vscode';
import { AdvisorMetadataClient, ENV, EventstreamClient, SettingsError, checkItemId, eventstreamScopes, resolveServiceSettings, type ServiceSettings } from '../api';
import type { ServiceCommandDeps } from './common';
import { authSettings } from './settings';

// The clients of the advisor metadata (E3) and eventstream (E4, E5) commands, and what they ask the user.

/** The settings with the workspace-items address (`policySet.service.itemsBaseUrl`), or undefined after saying what to set. */
export async function itemsSettingsOrExplain(): Promise<ServiceSettings | undefined> {
  const config = vscode.workspace.getConfiguration('policySet.service');
  try {
    return resolveServiceSettings(
      [{ baseUrl: config.get<string>('baseUrl'), itemsBaseUrl: config.get<string>('itemsBaseUrl'), authUrl: config.get<string>('authUrl'), providerNamespace: config.get<string>('providerNamespace') }],
      process.env,
      `set policySet.service.baseUrl in the settings (or ${ENV.baseUrl} in the environment VS Code starts in)`,
      'itemsBaseUrl',
      `set policySet.service.itemsBaseUrl in the settings (or ${ENV.itemsBaseUrl} in the environment VS Code starts in)`,
    );
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const choice = await vscode.window.showErrorMessage(`Policy Set: ${error.message}`, 'Open Settings');
    if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', 'policySet.service');
    return undefined;
  }
}

const onRetry = (deps: ServiceCommandDeps) => (info: { reason: string; delayMs: number; attempt: number }) =>
  deps.log?.warn(`${info.reason}; retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1})`);

/** E4/E5 with a token for the scope the operation needs (read for get, write for delete). */
export function eventstreamClientFor(service: ServiceSettings, deps: ServiceCommandDeps, access: 'read' | 'write'): EventstreamClient {
  return new EventstreamClient(service, {
    token: deps.auth.tokenProvider(service, true, eventstreamScopes(service.itemsBaseUrl ?? '', access)),
    timeoutMs: authSettings(service).timeoutMs,
    onRetry: onRetry(deps),
  });
}

export function metadataClientFor(service: ServiceSettings, deps: ServiceCommandDeps): AdvisorMetadataClient {
  return new AdvisorMetadataClient(service, { token: deps.auth.tokenProvider(service, true), timeoutMs: authSettings(service).timeoutMs, onRetry: onRetry(deps) });
}

const LAST_WORKSPACE_KEY = 'policySet.items.workspaceId';

/** The workspace and eventstream IDs: given (a command's arguments), or asked, the last workspace offered again. */
export async function askItemIds(context: vscode.ExtensionContext, title: string, given?: { workspaceId?: unknown; eventstreamId?: unknown }): Promise<{ workspaceId: string; eventstreamId: string } | undefined> {
  let workspaceId = typeof given?.workspaceId === 'string' ? given.workspaceId.trim() : undefined;
  let eventstreamId = typeof given?.eventstreamId === 'string' ? given.eventstreamId.trim() : undefined;
  workspaceId ??= (
    await vscode.window.showInputBox({
      title,
      prompt: 'Workspace ID (a UUID)',
      value: context.workspaceState.get<string>(LAST_WORKSPACE_KEY) ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? checkItemId(v.trim(), 'workspace') : undefined),
    })
  )?.trim();
  if (!workspaceId) return undefined;
  eventstreamId ??= (await vscode.window.showInputBox({ title, prompt: 'Eventstream ID (a UUID)', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? checkItemId(v.trim(), 'eventstream') : undefined) }))?.trim();
  if (!eventstreamId) return undefined;
  const problem = checkItemId(workspaceId, 'workspace') ?? checkItemId(eventstreamId, 'eventstream');
  if (problem) {
    void vscode.window.showErrorMessage(`Policy Set: ${problem}`);
    return undefined;
  }
  await context.workspaceState.update(LAST_WORKSPACE_KEY, workspaceId);
  return { workspaceId, eventstreamId };
}
