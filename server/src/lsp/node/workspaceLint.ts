// The whole workspace checked as `policyset lint <workspace folder>` checks it (the language server's
// workspace diagnostics, see ../workspaceDiagnostics.ts): the CLI's own discovery (node/files.ts), config
// (the folder's .policysetrc.json: rules, minSeverity, cloud, ignore, definitions), known definitions
// (the config's, and the definitions and sets among the files, sorted out by the lint engine's
// scanForDefinitions) and the engine's per-file check (cli/lint/lintFile.ts, splitSets.ts). What it adds is
// memory of what each check read, so that a change re-checks only the files whose diagnostics can depend
// on it, and that per unopened file only what the next check needs is kept: its diagnostics and their
// result id, the definition keys its check looked up, what the file itself adds to the known definitions,
// and its size, time and hash. Never its text or its tree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { DefinitionCatalog, siblingsOf, type SeveritySetting } from '../../service';
import { hashText } from '../../service/text';
import { discover, notWalkedNotes, readUserFileSync } from '../../node/files';
import { configDefinitions, lintSettings, toPath, type FolderState } from './workspaceFolders';
import { bytesHash } from './sharedInfos';
import { contributionJson, contributionOf, keysOfContribution, recordingCatalog, shapeOf, type FileState } from './workspaceDependencies';
import type { FileResult } from '../../cli/lint/lintFile';
import { checkWith, dependents, isCsv, rolesOf, ROLE_CSV, type PassFiles } from './workspacePasses';
import type { FileChange, FolderConfigView, WorkspaceLinter, WorkspaceFileReport, WorkspaceLintStats } from '../serverHost';

const DELETED = 3;
/** The workspace check covers at most this many files (a home folder opened by mistake costs a bounded time); said in the log. */
const MAX_WORKSPACE_FILES = 20000;

export interface WorkspaceLintOptions {
  /** The `.policysetrc.json` that applies to a file (the workspace's, see workspaceConfig.ts). */
  configOf(uri: string): FolderConfigView | undefined;
  editorSettings(): { severities: Record<string, SeveritySetting>; cloud: string };
  docsBaseUrl: string;
  log(message: string): void;
}

export class WorkspaceLint implements WorkspaceLinter {
  private folders: FolderState[] = [];
  private readonly files = new Map<string, FileState>();
  /** Files to check, in the order they were asked for. */
  private readonly dirty = new Set<string>();
  /** Files whose report must say they are gone (deleted, or now ignored). */
  private readonly removed = new Set<string>();
  /** Open documents (their text, not the disk's, is what the dependents are checked against), by path. */
  private readonly open = new Map<string, () => string>();
  /** What the checks made with other files read (workspacePasses.ts). */
  private readonly passFiles: PassFiles = {
    files: this.files,
    dirty: this.dirty,
    isOpen: (file) => this.open.has(file),
    bytesOf: (file) => this.bytesOf(file),
  };
  readonly stats: WorkspaceLintStats = { files: 0, checked: 0, batches: 0, lastBatch: 0, pending: 0 };
  /**
   * One string per key read: the checks of a repository's sets look up the same built-in definitions, and
   * each check's keys are new strings (lowercased, sliced). Grows with the distinct keys only.
   */
  private readonly keys = new Map<string, string>();
  private intern(key: string): string {
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    this.keys.set(key, key);
    return key;
  }

  constructor(private readonly options: WorkspaceLintOptions) {}

  /** Discovers the files of the folders (URIs) as the CLI does, reads what each adds to the known definitions, and marks every file to check. */
  async load(folderUris: string[], pause: () => Promise<void>): Promise<void> {
    const dirs = [...new Set(folderUris.map(toPath).filter((p): p is string => !!p))];
    const before = new Set(this.files.keys());
    this.files.clear();
    this.dirty.clear();
    this.folders = [];
    // Innermost folder first: a file belongs to the innermost workspace folder that holds it.
    for (const dir of dirs.sort((a, b) => b.length - a.length)) {
      const folder = await this.loadFolder(dir);
      this.folders.push(folder);
      const { files, parameterFiles, problems, notWalked } = await discover([dir]);
      for (const problem of problems) this.options.log(`workspace diagnostics: ${problem}`);
      const ignored = this.options.configOf(pathToFileURL(dir).href);
      for (const note of notWalkedNotes(notWalked, 'editor', (file) => ignored?.ignores(pathToFileURL(file).href) ?? false))
        this.options.log(`workspace diagnostics: ${note}`);
      let n = 0;
      // The .csv files too: parameter files when an assignment file names them (workspacePasses.ts).
      for (const file of [...files.map((f) => f.path), ...parameterFiles]) {
        if (this.files.has(file) || ignored?.ignores(pathToFileURL(file).href)) continue;
        if (this.files.size >= MAX_WORKSPACE_FILES) {
          this.options.log(
            `workspace diagnostics: more than ${MAX_WORKSPACE_FILES} .json, .jsonc and .csv files in ${dir}: only the first ${MAX_WORKSPACE_FILES} (in path order) are checked; the others when they are opened, and by policyset lint`,
          );
          break;
        }
        this.readState(file, folder);
        this.dirty.add(file);
        if (++n % 200 === 0) await pause();
      }
    }
    for (const folder of this.folders) this.rebuildCatalog(folder);
    for (const file of before) if (!this.files.has(file)) this.removed.add(file);
    this.stats.files = this.files.size;
    this.stats.pending = this.dirty.size;
  }

  private async loadFolder(dir: string): Promise<FolderState> {
    const config = this.options.configOf(pathToFileURL(dir).href)?.config;
    const definitions = config?.definitions ?? [];
    const base = await configDefinitions(definitions, (problem) =>
      this.options.log(`workspace diagnostics: the definitions of ${dir}'s config: ${problem}`),
    );
    return {
      dir,
      settings: lintSettings(config, this.options.editorSettings(), this.options.docsBaseUrl),
      base,
      hasConfigDefinitions: definitions.length > 0,
      catalog: undefined,
      shape: 'none',
    };
  }

  private folderOf(file: string): FolderState | undefined {
    return this.folders.find((f) => file.startsWith(f.dir + path.sep));
  }

  private bytesOf(file: string): Uint8Array {
    const open = this.open.get(file);
    return open ? Buffer.from(open(), 'utf8') : readUserFileSync(file, 'document');
  }

  /** Reads a file's definition contribution and stamps (the check reads it again: nothing of it is kept). */
  private readState(file: string, folder: FolderState, previous?: FileState): FileState | undefined {
    let bytes: Uint8Array;
    let stat: { size: number; mtimeMs: number } = { size: 0, mtimeMs: 0 };
    try {
      if (!this.open.has(file)) stat = fs.statSync(file);
      // A .csv file is read only when an assignment file names it (as by the CLI): known by its size and time.
      bytes = isCsv(file) && !this.open.has(file) ? Buffer.from(`${stat.size}:${stat.mtimeMs}`) : this.bytesOf(file);
    } catch {
      // Unreadable: checked all the same (the check reports it, as the CLI does).
      const state: FileState = {
        ...(previous ?? { importsGroups: false, readsShape: false }),
        folder,
        size: -1,
        mtimeMs: -1,
        hash: '',
        contribution: undefined,
        roles: isCsv(file) ? ROLE_CSV : 0,
      };
      this.files.set(file, state);
      return state;
    }
    const hash = bytesHash(bytes);
    if (previous && previous.hash === hash) {
      previous.size = stat.size;
      previous.mtimeMs = stat.mtimeMs;
      return undefined;
    }
    const { contribution, importsGroups, consumer } = isCsv(file)
      ? { contribution: undefined, importsGroups: false, consumer: false }
      : contributionOf(bytes, file, hash);
    const state: FileState = {
      ...(previous ?? { readsShape: false }),
      folder,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      hash,
      contribution,
      importsGroups,
      roles: isCsv(file) ? ROLE_CSV : rolesOf(file, bytes, consumer),
    };
    this.files.set(file, state);
    return state;
  }

  /** The folder's catalogue as the CLI builds it (loadCatalog: the config's definitions, then the files' in path order). */
  private rebuildCatalog(folder: FolderState): boolean {
    const mine = [...this.files].filter(([, s]) => s.folder === folder).sort(([a], [b]) => a.localeCompare(b));
    const importsGroups = mine.some(([, s]) => s.importsGroups);
    const extra = mine.filter(([, s]) => s.contribution && (s.contribution.fromRule || importsGroups));
    let catalog: DefinitionCatalog | undefined;
    if (folder.hasConfigDefinitions || extra.length) {
      catalog = folder.base ? folder.base.clone() : new DefinitionCatalog();
      for (const [, { contribution }] of extra) {
        if (contribution?.definition) catalog.add(contribution.definition.info, contribution.definition.key);
        if (contribution?.set) catalog.addSet(contribution.set);
      }
    }
    const shape = shapeOf(catalog);
    const shapeChanged = shape !== folder.shape || !catalog !== !folder.catalog;
    folder.catalog = catalog;
    folder.shape = shape;
    return shapeChanged;
  }

  /** Marks every file to check again (settings changed). */
  recheckAll(): void {
    for (const folder of this.folders)
      folder.settings = lintSettings(
        this.options.configOf(pathToFileURL(folder.dir).href)?.config,
        this.options.editorSettings(),
        this.options.docsBaseUrl,
      );
    for (const file of this.files.keys()) this.dirty.add(file);
    this.stats.pending = this.dirty.size;
  }

  opened(uri: string, text: () => string): void {
    const file = toPath(uri);
    if (file) this.open.set(file, text);
  }

  closed(uri: string): { changed: boolean } {
    const file = toPath(uri);
    if (!file || !this.open.delete(file)) return { changed: false };
    // Its disk text is what counts again (for the files that depend on it), and it is reported again.
    this.changed([{ uri, type: 2 }]);
    if (!this.files.has(file)) return { changed: false };
    this.dirty.add(file);
    this.stats.pending = this.dirty.size;
    return { changed: true };
  }

  isOpen(file: string): boolean {
    return this.open.has(file);
  }

  /**
   * Files created, changed or deleted (on disk, or an open document's text): each is read again, and marked
   * to check with the files whose last check read what it adds to the known definitions, the other parts of
   * its split set, and, when the catalogue's shape changed, the checks that read the shape.
   */
  changed(changes: FileChange[]): { changed: boolean } {
    const affected = new Set<string>();
    const changedKeys = new Set<string>();
    const foldersChanged = new Set<FolderState>();
    const importsBefore = new Map(this.folders.map((f) => [f, [...this.files.values()].some((s) => s.folder === f && s.importsGroups)]));
    /** Per folder, the roles of the files changed (workspacePasses.ts): the checks made with them are made again. */
    const touched = new Map<FolderState, number>();
    const touch = (state: FileState | undefined) =>
      state?.roles && touched.set(state.folder, (touched.get(state.folder) ?? 0) | state.roles);
    for (const change of changes) {
      const file = toPath(change.uri);
      if (!file) continue;
      const folder = this.folderOf(file);
      if (!folder) continue;
      const before = this.files.get(file);
      const gone = change.type === DELETED || (!this.open.has(file) && !fs.existsSync(file));
      if (gone) {
        // A deleted folder takes its files with it.
        const prefix = file + path.sep;
        for (const [known, state] of [...this.files]) {
          if (known !== file && !known.startsWith(prefix)) continue;
          for (const key of keysOfContribution(state.contribution)) changedKeys.add(key);
          if (state.contribution) foldersChanged.add(state.folder);
          touch(state);
          this.files.delete(known);
          this.dirty.delete(known);
          this.removed.add(known);
          for (const sibling of siblingsOf(known)) if (this.files.has(sibling)) affected.add(sibling);
        }
        continue;
      }
      let isFile = true;
      try {
        isFile = this.open.has(file) || fs.statSync(file).isFile();
      } catch {
        continue;
      }
      if (
        !isFile ||
        !/\.(jsonc?|csv)$/i.test(file) ||
        file.split(path.sep).some((part) => part === 'node_modules' || part === '.git' || part === '.hg' || part === '.svn')
      )
        continue;
      if (this.options.configOf(change.uri)?.ignores(change.uri)) continue;
      this.removed.delete(file);
      const after = this.readState(file, folder, before);
      if (!after) continue; // Same bytes as last read.
      affected.add(file);
      touch(before);
      touch(after);
      if (contributionJson(before?.contribution) !== contributionJson(after.contribution)) {
        for (const key of [...keysOfContribution(before?.contribution), ...keysOfContribution(after.contribution)]) changedKeys.add(key);
        foldersChanged.add(folder);
      }
      if (!!before?.importsGroups !== after.importsGroups) foldersChanged.add(folder);
      for (const sibling of siblingsOf(file)) if (this.files.has(sibling)) affected.add(sibling);
    }
    for (const folder of foldersChanged) {
      const importsNow = [...this.files.values()].some((s) => s.folder === folder && s.importsGroups);
      // Sets become (or stop being) known definitions: every set's keys changed.
      if (importsNow !== importsBefore.get(folder))
        for (const state of this.files.values())
          if (state.folder === folder) for (const key of keysOfContribution(state.contribution)) changedKeys.add(key);
      const shapeChanged = this.rebuildCatalog(folder);
      for (const [file, state] of this.files) {
        if (state.folder !== folder) continue;
        if (state.diagnostics === undefined || (shapeChanged && state.readsShape) || state.reads?.some((key) => changedKeys.has(key)))
          affected.add(file);
      }
    }
    for (const [folder, roles] of touched) for (const file of dependents(this.files, folder, roles)) affected.add(file);
    for (const file of affected) this.dirty.add(file);
    this.stats.files = this.files.size;
    this.stats.pending = this.dirty.size;
    return { changed: affected.size > 0 || this.removed.size > 0 };
  }

  pending(): number {
    return this.dirty.size;
  }

  /** Files gone since the last call: their reports clear what was said of them. */
  takeRemoved(): string[] {
    const gone = [...this.removed];
    this.removed.clear();
    return gone;
  }

  /**
   * Checks the files marked to check, one at a time (a split set's parts together), `pause` between them
   * (waiting requests are answered; it returns false to stop). Open documents are left to the document
   * diagnostics. Each result goes to `report`.
   */
  async checkPending(pause: () => Promise<boolean>, report: (report: WorkspaceFileReport) => void): Promise<void> {
    let batch = 0;
    while (this.dirty.size) {
      if (!(await pause())) break;
      const [file] = this.dirty;
      this.dirty.delete(file);
      const state = this.files.get(file);
      if (!state) continue;
      if (this.open.has(file)) {
        // Its diagnostics are the open document's; what its check reads is recorded when it is closed.
        state.diagnostics = undefined;
        continue;
      }
      const folder = state.folder;
      const reads = new Set<string>();
      let readsShape = false;
      const catalog = folder.catalog && recordingCatalog(folder.catalog, reads, () => (readsShape = true));
      // With the files it is checked with: a split set's other parts, the CSV files, ... (workspacePasses.ts).
      const results: FileResult[] = checkWith(file, state, this.passFiles, catalog, folder.settings);
      const keys = [...reads].map((key) => this.intern(key));
      for (const result of results) {
        const target = this.files.get(result.file);
        if (!target || this.open.has(result.file)) continue;
        this.dirty.delete(result.file);
        target.reads = keys;
        target.readsShape = readsShape;
        const diagnostics: Diagnostic[] = result.error
          ? [
              {
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                severity: 1,
                source: 'policyset',
                message: result.error,
              },
            ]
          : result.diagnostics;
        const json = JSON.stringify(diagnostics);
        const resultId = hashText(json);
        target.diagnostics = json;
        target.resultId = resultId;
        this.stats.checked++;
        batch++;
        for (const internal of result.internalErrors)
          this.options.log(`rule ${internal.rule} failed on ${result.file}: ${internal.message}`);
        report({ uri: pathToFileURL(result.file).href, resultId, diagnostics: () => diagnostics, size: Math.max(target.size, 0) });
      }
      this.stats.pending = this.dirty.size;
    }
    if (batch) {
      this.stats.batches++;
      this.stats.lastBatch = batch;
    }
    this.stats.pending = this.dirty.size;
  }

  /** The last report of every file checked and not open. */
  *reports(): IterableIterator<WorkspaceFileReport> {
    for (const [file, state] of this.files) {
      if (state.resultId === undefined || state.diagnostics === undefined || this.open.has(file) || this.dirty.has(file)) continue;
      const json = state.diagnostics;
      yield { uri: pathToFileURL(file).href, resultId: state.resultId, diagnostics: () => JSON.parse(json) as Diagnostic[], size: 0 };
    }
  }

  /** Whether a URI is a file of the workspace check (checked or to check), open or not. */
  knows(uri: string): boolean {
    const file = toPath(uri);
    return !!file && this.files.has(file);
  }

  uriOf(file: string): string {
    return pathToFileURL(file).href;
  }
}
