import * as vscode from 'vscode';
import { ErrorCodes, ResponseError, type BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { looksLikePolicySet, POLICY_SET_LANGUAGE } from './languageDetection';

import {
  DOCUMENT_INFO_REQUEST,
  WORKSPACE_PROGRESS_NOTIFICATION,
  type DocumentInfo as ServerDocumentInfo,
  type DocumentInfoParams,
  type WorkspaceProgress,
} from '#protocol';

/** What the status shows: the server's answer to its custom request (what a document is and how many problems it has), or what is known without it. */
type DocumentInfo = Pick<ServerDocumentInfo, 'kind' | 'problems'>;

const KIND_LABELS: Record<string, string> = {
  policySetDefinition: 'Policy set definition',
  policySetDefinitionVersion: 'Policy set definition version',
  armTemplate: 'ARM template',
  policyDefinition: 'Policy definition',
  unknown: 'Not a policy document',
};

export const SELECTOR: vscode.DocumentSelector = [{ language: POLICY_SET_LANGUAGE }, { language: 'json' }, { language: 'jsonc' }];

/** A language status item with the kind of the active document and its problem count. */
export class PolicySetStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('policySet.status', SELECTOR);
  private readonly disposables: vscode.Disposable[] = [];
  /** False once the server said it does not know the request: then the status is computed here. */
  private serverAnswers = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(
    private readonly client: LanguageClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'Policy Set';
    this.item.text = 'Policy set';
    this.item.command = { title: 'Show problems', command: 'workbench.actions.view.problems' };
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
      vscode.languages.onDidChangeDiagnostics((event) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && event.uris.some((uri) => uri.toString() === active)) this.schedule();
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === vscode.window.activeTextEditor?.document) this.schedule();
      }),
    );
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), 100);
  }

  private async update(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    if (!document) return;
    const generation = ++this.generation;
    const info = await this.infoOf(document);
    if (generation !== this.generation) return; // a newer update is on its way
    const label = KIND_LABELS[info.kind] ?? info.kind;
    this.item.text =
      info.kind === 'unknown'
        ? label
        : `${label}: ${info.problems === 0 ? 'no problems' : `${info.problems} problem${info.problems === 1 ? '' : 's'}`}`;
    this.item.detail = info.kind === 'unknown' ? 'not validated as a policy set' : 'Policy Set';
    this.item.severity =
      info.problems > 0 && info.kind !== 'unknown' ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  private async infoOf(document: vscode.TextDocument): Promise<DocumentInfo> {
    if (this.serverAnswers && this.client.isRunning()) {
      try {
        const params: DocumentInfoParams = { uri: document.uri.toString() };
        const info = await this.client.sendRequest<ServerDocumentInfo | null>(DOCUMENT_INFO_REQUEST, params);
        // null: the server could not tell (the document is not open there, or the handler failed).
        if (info && typeof info.kind === 'string' && typeof info.problems === 'number') return info;
      } catch (error) {
        if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) {
          this.serverAnswers = false;
          this.log.info(`the server does not answer ${DOCUMENT_INFO_REQUEST}: the status counts the diagnostics it published`);
        } else {
          this.log.warn(`${DOCUMENT_INFO_REQUEST} failed: ${(error as Error).message}`);
        }
      }
    }
    return this.localInfo(document);
  }

  /** Without the server's answer: the language id or a look at the content, and the diagnostics the server published. */
  private localInfo(document: vscode.TextDocument): DocumentInfo {
    const problems = vscode.languages
      .getDiagnostics(document.uri)
      .filter((d) => d.source === 'policyset' && d.severity !== vscode.DiagnosticSeverity.Hint).length;
    const isSet = document.languageId === POLICY_SET_LANGUAGE || looksLikePolicySet(document.getText()) || problems > 0;
    return { kind: isSet ? 'policySetDefinition' : 'unknown', problems };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}

/** Thousands separators, as the status says them ("Checking 1,234 of 3,018 files"). */
const count = (n: number) => n.toLocaleString('en-US');

/**
 * A language status item for the workspace check (workspace diagnostics: every policy document of the
 * workspace in the Problems panel): "Checking 1,234 of 3,018 files" while the server checks, then how many
 * files it checked. The server tells its progress with a notification (WORKSPACE_PROGRESS_NOTIFICATION).
 */
export class WorkspaceCheckStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('policySet.workspaceCheck', SELECTOR);
  private readonly subscription: vscode.Disposable;

  constructor(client: LanguageClient) {
    this.item.name = 'Policy Set workspace check';
    this.item.text = 'Workspace: not checked yet';
    this.item.detail = 'policySet.validate.workspace';
    this.item.command = { title: 'Show problems', command: 'workbench.actions.view.problems' };
    this.subscription = client.onNotification(WORKSPACE_PROGRESS_NOTIFICATION, (progress: WorkspaceProgress) => this.show(progress));
  }

  /** What the item says of a progress notification (kept apart from VS Code for the tests). */
  static text(progress: WorkspaceProgress): string {
    return progress.done
      ? `Workspace: ${count(progress.files)} file${progress.files === 1 ? '' : 's'} checked`
      : `Checking ${count(progress.checked)} of ${count(progress.total)} files`;
  }

  private show(progress: WorkspaceProgress): void {
    this.item.text = WorkspaceCheckStatus.text(progress);
    this.item.busy = !progress.done;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
