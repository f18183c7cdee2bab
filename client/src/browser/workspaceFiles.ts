import * as vscode from 'vscode';

import type { WorkspaceFilesParams } from '#protocol';

/** The JSON files looked at, as the desktop server caps its scan. */
const MAX_WORKSPACE_FILES = 20000;
/** A workspace file larger than this is not read (a definition or set is far smaller); configured index files may be larger. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const JSON_FILES = '**/*.{json,jsonc}';
const EXCLUDE = '**/node_modules/**';
/** Files sent in one notification, so that a large workspace reaches the server in steps. */
const BATCH_CHARS = 4 * 1024 * 1024;
const WATCH_DEBOUNCE_MS = 300;

/** What the server is sent of a file: definitions, sets, `.policysetrc.json`, and the parts of split sets. */
const OF_INTEREST = /"policyRule"|"policyDefinitions"|"policyDefinitionGroups"/;
const SMALL_FILES = /(^|\/)\.policysetrc\.json$|\.(definitions|parameters|groups)\.jsonc?$/i;

export type Notify = (params: WorkspaceFilesParams) => Promise<void>;

/**
 * The workspace's policy definitions, sets and `.policysetrc.json`, read through VS Code's workspace file
 * system (it works on any file system a workspace can be on: github.dev, vscode.dev, a test's in-memory
 * folder) and sent to the browser's language server, which cannot read them: once at start, again when
 * the folders or `policySet.definitions.paths` change, and file by file as a watcher sees them change.
 */
export class WorkspaceFileFeeder implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly pending = new Map<string, 'changed' | 'deleted'>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The configured index files (absolute URIs): sent whatever their content. */
  private indexFiles = new Set<string>();
  private scanning: Promise<void> = Promise.resolve();

  constructor(
    private readonly notify: Notify,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(JSON_FILES);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.changed(uri, 'changed')),
      watcher.onDidChange((uri) => this.changed(uri, 'changed')),
      watcher.onDidDelete((uri) => this.changed(uri, 'deleted')),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.scan()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('policySet.definitions.paths')) void this.scan();
      }),
    );
  }

  /** Reads everything of interest and sends it as the complete set; resolves when sent. */
  scan(): Promise<void> {
    this.scanning = this.scanning
      .then(() => this.scanNow())
      .catch((error: Error) => this.log.error(`reading the workspace's policy definitions failed: ${error.message}`));
    return this.scanning;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  private async scanNow(): Promise<void> {
    const started = Date.now();
    const configured = await this.configuredFiles();
    this.indexFiles = new Set(configured.map((u) => u.toString()));
    const found = await vscode.workspace.findFiles(JSON_FILES, EXCLUDE, MAX_WORKSPACE_FILES + 1);
    if (found.length > MAX_WORKSPACE_FILES) {
      this.log.warn(`More than ${MAX_WORKSPACE_FILES} JSON files in the workspace: only the first are read for policy definitions.`);
      found.length = MAX_WORKSPACE_FILES;
    }
    const uris = [...new Map([...configured, ...found].map((u) => [u.toString(), u])).values()];
    let batch: WorkspaceFilesParams['files'] = [];
    let batchChars = 0;
    let first = true;
    let sent = 0;
    for (const uri of uris) {
      const text = await this.read(uri);
      if (text === undefined) continue;
      batch.push({ uri: uri.toString(), text });
      batchChars += text.length;
      sent++;
      if (batchChars >= BATCH_CHARS) {
        await this.notify({ complete: first, files: batch });
        first = false;
        batch = [];
        batchChars = 0;
      }
    }
    if (batch.length || first) await this.notify({ complete: first, files: batch });
    this.log.info(
      `Sent ${sent} of ${uris.length} workspace JSON files (policy definitions, sets, .policysetrc.json) to the language server in ${Date.now() - started} ms.`,
    );
  }

  /** `policySet.definitions.paths`: index files and folders, relative to each workspace folder. */
  private async configuredFiles(): Promise<vscode.Uri[]> {
    const files: vscode.Uri[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const paths = vscode.workspace.getConfiguration('policySet', folder.uri).get<unknown>('definitions.paths');
      for (const p of Array.isArray(paths) ? paths : []) {
        if (typeof p !== 'string' || !p) continue;
        // An absolute path names a file on the machine, which a browser cannot read.
        if (p.startsWith('/') || /^[a-z]:[\\/]/i.test(p)) {
          this.log.warn(
            `policySet.definitions.paths: '${p}' is an absolute path, which the extension cannot read in the browser; use a path relative to the workspace folder.`,
          );
          continue;
        }
        const uri = vscode.Uri.joinPath(folder.uri, p);
        try {
          const stat = await vscode.workspace.fs.stat(uri);
          if (stat.type & vscode.FileType.Directory) {
            files.push(...(await vscode.workspace.findFiles(new vscode.RelativePattern(uri, JSON_FILES), EXCLUDE, MAX_WORKSPACE_FILES)));
          } else files.push(uri);
        } catch (error) {
          this.log.warn(`policySet.definitions.paths: cannot read '${p}': ${(error as Error).message}`);
        }
      }
    }
    return files;
  }

  /** The file's text when it is of interest to the server; undefined otherwise (or when it cannot be read). */
  private async read(uri: vscode.Uri): Promise<string | undefined> {
    const index = this.indexFiles.has(uri.toString());
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (!(stat.type & vscode.FileType.File)) return undefined;
      if (stat.size > (index ? MAX_INDEX_BYTES : MAX_FILE_BYTES)) {
        this.log.warn(
          `${uri.toString(true)} is larger than ${(index ? MAX_INDEX_BYTES : MAX_FILE_BYTES) / 1024 / 1024} MB: not read for policy definitions.`,
        );
        return undefined;
      }
      const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      return index || SMALL_FILES.test(uri.path) || OF_INTEREST.test(text) ? text : undefined;
    } catch (error) {
      if (index) this.log.warn(`policySet.definitions.paths: cannot read '${uri.toString(true)}': ${(error as Error).message}`);
      return undefined;
    }
  }

  private changed(uri: vscode.Uri, kind: 'changed' | 'deleted'): void {
    if (uri.path.includes('/node_modules/')) return;
    this.pending.set(uri.toString(), kind);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), WATCH_DEBOUNCE_MS);
  }

  private async flush(): Promise<void> {
    const pending = [...this.pending];
    this.pending.clear();
    const files: WorkspaceFilesParams['files'] = [];
    const removed: string[] = [];
    for (const [key, kind] of pending) {
      const text = kind === 'deleted' ? undefined : await this.read(vscode.Uri.parse(key));
      // A file that is no longer of interest (its policyRule removed) is dropped as a deleted one is.
      if (text === undefined) removed.push(key);
      else files.push({ uri: key, text });
    }
    await this.scanning;
    await this.notify({ complete: false, files, removed }).catch((error: Error) =>
      this.log.error(`sending changed files failed: ${error.message}`),
    );
  }
}
