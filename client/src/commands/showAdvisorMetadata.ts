import * as vscode from 'vscode';
import type { MetadataEntity, ServiceSettings } from '../api';
import { requireTrust, settingsOrExplain, showFailure, withProgress, type ServiceCommandDeps } from './common';
import { metadataClientFor } from './serviceClients';

export const SHOW_METADATA_COMMAND = 'policySet.showAdvisorMetadata';
export const REFRESH_METADATA_COMMAND = 'policySet.refreshAdvisorMetadata';
export const METADATA_VIEW = 'policySet.advisorMetadata';
/** Context key: the view is shown once the command has run. */
const SHOWN_KEY = 'policySet.advisorMetadataShown';

type Node =
  | { kind: 'entity'; entity: MetadataEntity }
  | { kind: 'fact'; label: string; value: string; icon: string }
  | { kind: 'value'; id: string; displayName: string }
  | { kind: 'message'; text: string };

/** The metadata as a tree: one node per entity, what it depends on and where it applies, then its supported values. */
export class AdvisorMetadataView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private entities: MetadataEntity[] | undefined;
  private note = '';
  private readonly changes = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  private readonly view: vscode.TreeView<Node>;
  /** The filter of the last listing: Refresh lists with it again. */
  filter: string | undefined;

  constructor() {
    this.view = vscode.window.createTreeView(METADATA_VIEW, { treeDataProvider: this, showCollapseAll: true });
  }

  show(entities: MetadataEntity[], pages: number, filter: string | undefined): void {
    this.entities = entities;
    this.filter = filter;
    const values = entities.reduce((n, e) => n + (e.properties?.supportedValues?.length ?? 0), 0);
    this.note = `${entities.length} entities, ${values} values, ${pages} page${pages === 1 ? '' : 's'}${filter ? `, $filter ${filter}` : ''}`;
    this.view.description = this.note;
    this.view.message = entities.length ? undefined : 'The service lists no metadata entities.';
    this.changes.fire(undefined);
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    await vscode.commands.executeCommand(`${METADATA_VIEW}.focus`);
  }

  getChildren(node?: Node): Node[] {
    if (!node) return (this.entities ?? []).map((entity) => ({ kind: 'entity', entity }));
    if (node.kind !== 'entity') return [];
    const p = node.entity.properties ?? {};
    return [
      { kind: 'fact', label: 'Depends on', value: p.dependsOn?.length ? p.dependsOn.join(', ') : 'nothing', icon: 'references' },
      {
        kind: 'fact',
        label: 'Applicable scenarios',
        value: p.applicableScenarios?.length ? p.applicableScenarios.join(', ') : 'none',
        icon: 'bell',
      },
      ...(p.supportedValues ?? []).map((v): Node => ({
        kind: 'value',
        id: String(v.id ?? ''),
        displayName: String(v.displayName ?? v.id ?? ''),
      })),
    ];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'entity': {
        const p = node.entity.properties ?? {};
        const item = new vscode.TreeItem(p.displayName ?? node.entity.name ?? '(no name)', vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${node.entity.name ?? ''} · ${p.supportedValues?.length ?? 0} values`;
        item.tooltip = node.entity.id;
        item.iconPath = new vscode.ThemeIcon('symbol-enum');
        return item;
      }
      case 'fact': {
        const item = new vscode.TreeItem(`${node.label}: ${node.value}`);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        return item;
      }
      case 'value': {
        const item = new vscode.TreeItem(node.displayName);
        item.description = node.id === node.displayName ? undefined : node.id;
        item.tooltip = `${node.displayName}\nid: ${node.id}`;
        item.iconPath = new vscode.ThemeIcon('symbol-enum-member');
        return item;
      }
      case 'message':
        return new vscode.TreeItem(node.text);
    }
  }

  dispose(): void {
    this.view.dispose();
    this.changes.dispose();
  }
}

/**
 * "Policy Set: Show Advisor Recommendation Metadata": E3, every page, under cancellable progress, shown in the
 * view. `filter` ($filter, as given) for callers; Refresh lists again with the last one.
 */
export async function showAdvisorMetadata(
  deps: ServiceCommandDeps,
  view: AdvisorMetadataView,
  options: { filter?: unknown; refresh?: boolean } = {},
): Promise<{ entities: number; pages: number } | undefined> {
  if (!(await requireTrust())) return undefined;
  const service: ServiceSettings | undefined = await settingsOrExplain();
  if (!service) return undefined;
  const filter = options.refresh
    ? view.filter
    : typeof options.filter === 'string' && options.filter.trim()
      ? options.filter.trim()
      : undefined;
  const client = metadataClientFor(service, deps);
  try {
    const result = await withProgress('Listing advisor recommendation metadata...', async (signal, progress) => {
      const entities: MetadataEntity[] = [];
      let pages = 0;
      for await (const page of client.pages({ filter, signal })) {
        entities.push(...page.value);
        pages = page.page;
        progress.report({ message: `page ${pages}, ${entities.length} entities` });
      }
      return { entities, pages };
    });
    deps.log?.info(
      `GET advisor metadata: ${result.entities.length} entities in ${result.pages} page(s)${filter ? ` ($filter ${filter})` : ''}`,
    );
    view.show(result.entities, result.pages, filter);
    await view.reveal();
    return { entities: result.entities.length, pages: result.pages };
  } catch (error) {
    await showFailure('listing the advisor metadata failed', error, deps, service);
    return undefined;
  }
}
