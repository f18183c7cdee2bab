import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

// The server's custom requests for the version check (server/src/lsp/protocol.ts, server/README.md).
import { PREVIOUS_TEXT_REQUEST, type PreviousTextParams } from '#protocol';

/** The few members of the built-in git extension's API (extensions/git/src/api/git.d.ts, version 1) used here. */
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD?: { readonly commit?: string }; readonly onDidChange: vscode.Event<void> };
  show(ref: string, path: string): Promise<string>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitExtension {
  getAPI(version: 1): GitApi;
}

const SET_HINT = /"policyDefinitions"|"policyDefinitionGroups"/i;
const LANGUAGES = new Set(['json', 'jsonc', 'policyset']);

/**
 * Hands the language server the committed text (HEAD) of each open set file in a git repository, read
 * through the VS Code git extension's API (the server runs no git): the version check then compares the
 * edited set with it. Sent on open, and again when HEAD moves (a commit, a checkout). Off with the
 * setting policySet.versions.compareWithHead.
 */
export class CommittedText implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private git: GitApi | undefined;
  /** What was last sent per document: the commit it was read at ('' for none), and whether the file was in it. */
  private readonly sent = new Map<string, { commit: string; compared: boolean }>();
  private readonly watched = new WeakSet<GitRepository>();

  constructor(
    private readonly client: LanguageClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => void this.update(document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.sent.delete(document.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('policySet.versions')) void this.updateAll(true);
      }),
    );
    void this.start();
  }

  private async start(): Promise<void> {
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!extension) {
      this.log.info('version check: the git extension is not available; set files are not compared with their committed text');
      return;
    }
    try {
      const exports = extension.isActive ? extension.exports : await extension.activate();
      this.git = exports.getAPI(1);
    } catch (error) {
      this.log.warn(`version check: the git extension's API is not available: ${(error as Error).message}`);
      return;
    }
    const git = this.git;
    this.disposables.push(
      git.onDidOpenRepository((repository) => {
        this.watch(repository);
        void this.updateAll();
      }),
      git.onDidChangeState(() => void this.updateAll()),
    );
    git.repositories.forEach((repository) => this.watch(repository));
    await this.updateAll();
  }

  private watch(repository: GitRepository): void {
    if (this.watched.has(repository)) return;
    this.watched.add(repository);
    let last = repository.state.HEAD?.commit;
    this.disposables.push(
      repository.state.onDidChange(() => {
        const head = repository.state.HEAD?.commit;
        if (head === last) return;
        last = head;
        void this.updateAll();
      }),
    );
  }

  private async updateAll(force = false): Promise<void> {
    if (force) this.sent.clear();
    await Promise.all(vscode.workspace.textDocuments.map((document) => this.update(document)));
  }

  /** Sends the committed text of one document (or forgets it when there is none); resolves when the server has it. */
  async update(document: vscode.TextDocument, force = false): Promise<{ label: string } | undefined> {
    if (document.uri.scheme !== 'file' || !LANGUAGES.has(document.languageId) || !SET_HINT.test(document.getText())) return undefined;
    const key = document.uri.toString();
    const enabled = vscode.workspace.getConfiguration('policySet', document.uri).get<boolean>('versions.compareWithHead', true);
    const repository = enabled ? this.git?.getRepository(document.uri) : null;
    const commit = repository?.state.HEAD?.commit ?? '';
    const last = this.sent.get(key);
    if (!force && last?.commit === commit) return last.compared ? { label: 'HEAD' } : undefined;
    let text: string | null = null;
    if (repository && commit) {
      try {
        text = await repository.show(commit, document.uri.fsPath);
      } catch {
        // Not in the commit (a new file): nothing to compare with.
        text = null;
      }
    }
    try {
      const params: PreviousTextParams = { textDocument: { uri: key }, text, label: 'HEAD' };
      await this.client.sendRequest(PREVIOUS_TEXT_REQUEST, params);
      this.sent.set(key, { commit, compared: text !== null });
    } catch (error) {
      this.log.warn(`version check: the server did not take the committed text of ${document.uri.fsPath}: ${(error as Error).message}`);
      return undefined;
    }
    return text === null ? undefined : { label: 'HEAD' };
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
