import * as vscode from 'vscode';
import type { Eventstream } from '../api';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { askItemIds, eventstreamClientFor } from './serviceClients';

export const OPEN_EVENTSTREAM_COMMAND = 'policySet.openEventstream';
/** Read-only documents of workspace items: VS Code gives a content provider's documents no way to save or edit. */
export const ITEM_SCHEME = 'policyset-item';

/** The text of opened items, by URI; the provider serves it (and again when the document is reopened). */
export class ItemDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** `policyset-item:/<workspaceId>/eventstreams/<id>/<display name>.json`: the tab shows the name. */
  set(workspaceId: string, item: Eventstream, id: string): vscode.Uri {
    const name = (item.displayName ?? id).replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || id;
    const uri = vscode.Uri.from({ scheme: ITEM_SCHEME, path: `/${workspaceId}/eventstreams/${id}/${name}.json` });
    this.texts.set(uri.toString(), JSON.stringify(item, null, 2) + '\n');
    this.changes.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changes.dispose();
  }
}

/** "Policy Set: Open Eventstream...": E4, opened read-only as a workspace item the language server checks. */
export async function openEventstream(
  context: vscode.ExtensionContext,
  deps: ServiceCommandDeps,
  documents: ItemDocuments,
  given?: { workspaceId?: unknown; eventstreamId?: unknown },
): Promise<vscode.TextDocument | undefined> {
  if (!(await requireTrust())) return undefined;
  const service = await settingsOrExplain('itemsBaseUrl');
  if (!service) return undefined;
  const ids = await askItemIds(context, 'Open Eventstream', given);
  if (!ids) return undefined;
  const client = eventstreamClientFor(service, deps, 'read');
  try {
    const response = await withProgress(`Reading eventstream ${ids.eventstreamId}...`, (signal) =>
      client.get(ids.workspaceId, ids.eventstreamId, { signal }),
    );
    deps.log?.info(
      `GET eventstream ${ids.eventstreamId} in workspace ${ids.workspaceId}: ${response.status}${response.requestId ? ` (request id ${response.requestId})` : ''}`,
    );
    const uri = documents.set(ids.workspaceId, response.body, ids.eventstreamId);
    let document = await vscode.workspace.openTextDocument(uri);
    // The policyset language: the server checks it as a workspace item (PS2007, PS2008).
    document = await vscode.languages.setTextDocumentLanguage(document, 'policyset').then(
      (d) => d,
      () => document,
    );
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  } catch (error) {
    await showFailure(`opening eventstream ${ids.eventstreamId} failed`, error, deps, service);
    return undefined;
  }
}
