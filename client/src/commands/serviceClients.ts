import * as vscode from 'vscode';
import { AdvisorMetadataClient, EventstreamClient, checkItemId, eventstreamScopes, type ServiceSettings } from '../api';
import { clientOptions, type ServiceCommandDeps } from './common';

// The clients of the advisor metadata (E3) and eventstream (E4, E5) commands, and what they ask the user.

/** E4/E5 with a token for the scope the operation needs (read for get, write for delete). */
export function eventstreamClientFor(service: ServiceSettings, deps: ServiceCommandDeps, access: 'read' | 'write'): EventstreamClient {
  return new EventstreamClient(service, clientOptions(service, deps, eventstreamScopes(service.itemsBaseUrl ?? '', access)));
}

export function metadataClientFor(service: ServiceSettings, deps: ServiceCommandDeps): AdvisorMetadataClient {
  return new AdvisorMetadataClient(service, clientOptions(service, deps));
}

const LAST_WORKSPACE_KEY = 'policySet.items.workspaceId';

/** The workspace and eventstream IDs: given (a command's arguments), or asked, the last workspace offered again. */
export async function askItemIds(
  context: vscode.ExtensionContext,
  title: string,
  given?: { workspaceId?: unknown; eventstreamId?: unknown },
): Promise<{ workspaceId: string; eventstreamId: string } | undefined> {
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
  eventstreamId ??= (
    await vscode.window.showInputBox({
      title,
      prompt: 'Eventstream ID (a UUID)',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? checkItemId(v.trim(), 'eventstream') : undefined),
    })
  )?.trim();
  if (!eventstreamId) return undefined;
  const problem = checkItemId(workspaceId, 'workspace') ?? checkItemId(eventstreamId, 'eventstream');
  if (problem) {
    void vscode.window.showErrorMessage(`Policy Set: ${problem}`);
    return undefined;
  }
  await context.workspaceState.update(LAST_WORKSPACE_KEY, workspaceId);
  return { workspaceId, eventstreamId };
}
