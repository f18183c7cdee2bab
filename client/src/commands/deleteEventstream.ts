import * as vscode from 'vscode';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { askItemIds, eventstreamClientFor } from './serviceClients';

export const DELETE_EVENTSTREAM_COMMAND = 'policySet.deleteEventstream';

/**
 * "Policy Set: Delete Eventstream...": reads the item first (E4), asks in a modal that names it, then E5.
 * Answers 'deleted', 'alreadyDeleted', or undefined when nothing was deleted.
 */
export async function deleteEventstream(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  given?: { workspaceId?: unknown; eventstreamId?: unknown },
): Promise<'deleted' | 'alreadyDeleted' | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain('itemsBaseUrl');
  if (!service) return undefined;
  const ids = await askItemIds(context, 'Delete Eventstream', given);
  if (!ids) return undefined;
  const reader = eventstreamClientFor(service, deps, 'read');
  let name: string;
  try {
    const item = await withProgress(`Reading eventstream ${ids.eventstreamId}...`, (signal) =>
      reader.get(ids.workspaceId, ids.eventstreamId, { signal }),
    );
    name = item.body.displayName ? `'${item.body.displayName}'` : `${ids.eventstreamId} (no display name)`;
  } catch (error) {
    await showFailure(`not deleted: reading eventstream ${ids.eventstreamId} failed`, error, deps, service);
    return undefined;
  }
  const writer = eventstreamClientFor(service, deps, 'write');
  const url = writer.eventstreamUrl(ids.workspaceId, ids.eventstreamId);
  const choice = await vscode.window.showWarningMessage(
    `Delete eventstream ${name}?`,
    { modal: true, detail: `Workspace ${ids.workspaceId}\nEventstream ${ids.eventstreamId}\n\nDELETE ${url}\n\nThis cannot be undone.` },
    'Delete',
  );
  if (choice !== 'Delete') return undefined;
  try {
    const result = await withProgress(`Deleting eventstream ${name}...`, (signal) =>
      writer.delete(ids.workspaceId, ids.eventstreamId, { signal }),
    );
    deps.log?.info(
      `DELETE eventstream ${ids.eventstreamId} in workspace ${ids.workspaceId}: ${result.status}${result.alreadyDeleted ? ' ItemNotFound after a retry: already deleted' : ''}${result.requestId ? ` (request id ${result.requestId})` : ''}`,
    );
    void vscode.window.showInformationMessage(
      result.alreadyDeleted
        ? `Policy Set: eventstream ${name} was already deleted (gone when the retried request arrived).`
        : `Policy Set: deleted eventstream ${name}.`,
    );
    return result.alreadyDeleted ? 'alreadyDeleted' : 'deleted';
  } catch (error) {
    await showFailure(`deleting eventstream ${name} failed`, error, deps, service);
    return undefined;
  }
}
