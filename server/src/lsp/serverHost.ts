import type { Connection, Diagnostic } from 'vscode-languageserver';
import type { DefinitionCatalog, FixtureRun, SeveritySetting } from '../service';
import type { CapacityTable, SavedUsage } from '../service/quota';
import type { Node } from '../service/json';
import { CONFIG_FILE_NAME, type PolicySetConfig } from '../service/config';

/** A file event as workspace/didChangeWatchedFiles sends it (type: 1 created, 2 changed, 3 deleted). */
export interface FileChange {
  uri: string;
  type: number;
}

/** The definition paths of the settings (policySet.definitions.paths). */
export interface DefinitionSettings {
  /** Index files and folders of policy definition files; relative paths are resolved against each workspace folder. */
  paths: string[];
}

/** The policy definitions and sets the server knows of: from the disk (Node) or sent by the client (browser). */
export interface KnownDefinitions {
  readonly catalog: DefinitionCatalog;
  /** Reads again. Resolves to whether what is known may have changed. */
  reload(settings: DefinitionSettings, workspaceFolders: string[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean>;
  /** Watched-file changes. Resolves to whether what is known changed. */
  applyChanges(changes: FileChange[], openDefinitions: Array<{ uri: string; text: string }>): Promise<boolean>;
  /** Overlays the open documents that are policy definitions or sets. */
  refreshOpen(openDefinitions: Array<{ uri: string; text: string }>): void;
  /**
   * The workspace's files that hold consumers of sets (assignments, exemptions): paths, as read at the last
   * scan. Absent where the workspace's files are not read (the browser).
   */
  consumerFiles?(): string[];
}

/** The files a deployment plan's quota checks read (see quotaFiles.ts). */
export interface QuotaSources {
  table(setting: string, workspaceFolders: string[]): CapacityTable;
  usages(settingFiles: string[], workspaceFolders: string[], documentUri: string, root: Node | undefined): SavedUsage[];
}

/** The `.policysetrc.json` that applies to a document. */
export interface FolderConfigView {
  config: PolicySetConfig;
  /** Whether the file's `ignore` patterns leave this document out. */
  ignores(uri: string): boolean;
}

/** The `.policysetrc.json` of each workspace folder (see workspaceConfig.ts for Node). */
export interface WorkspaceConfigSource {
  /** Reads the file of each folder (URIs) again; a broken one is reported through `warn` and left out. */
  load(folderUris: string[]): void;
  /** The config of the innermost workspace folder that holds the document. */
  forUri(uri: string): FolderConfigView | undefined;
  all(): FolderConfigView[];
}

/** Whether a watched-file change concerns a config file. */
export function isConfigChange(uri: string): boolean {
  return uri.endsWith(`/${CONFIG_FILE_NAME}`);
}

/** One file's diagnostics in the workspace check, with the id of that result (equal diagnostics, equal ids). */
export interface WorkspaceFileReport {
  uri: string;
  resultId: string;
  /** Kept as JSON text between checks (a fraction of the objects' memory): made when a report needs them. */
  diagnostics(): Diagnostic[];
  /** The bytes checked (0 when unreadable): the work the idle collection counts. */
  size: number;
}

/** How much the workspace check did (policySet/workspaceStats): a test asserts that unaffected files were not checked again. */
export interface WorkspaceLintStats {
  /** Files of the workspace check (not ignored, .json or .jsonc). */
  files: number;
  /** Files checked since the server started, every check counted. */
  checked: number;
  /** Runs that checked at least one file, and how many the last one checked. */
  batches: number;
  lastBatch: number;
  /** Files waiting to be checked. */
  pending: number;
}

/** The whole workspace checked as `policyset lint <folder>` checks it (Node: lsp/node/workspaceLint.ts). */
export interface WorkspaceLinter {
  readonly stats: WorkspaceLintStats;
  /** Finds the folders' files (URIs) and marks every one to check. */
  load(folderUris: string[], pause: () => Promise<void>): Promise<void>;
  /** Files changed on disk or in the editor: marks them and their dependents to check. */
  changed(changes: FileChange[]): { changed: boolean };
  /** Settings changed: every file is checked again. */
  recheckAll(): void;
  opened(uri: string, text: () => string): void;
  closed(uri: string): { changed: boolean };
  pending(): number;
  takeRemoved(): string[];
  checkPending(pause: () => Promise<boolean>, report: (report: WorkspaceFileReport) => void): Promise<void>;
  reports(): IterableIterator<WorkspaceFileReport>;
  knows(uri: string): boolean;
  uriOf(file: string): string;
}

/** What the workspace check asks of the server. */
export interface WorkspaceLintContext {
  configOf(uri: string): FolderConfigView | undefined;
  editorSettings(): { severities: Record<string, SeveritySetting>; cloud: string };
  log(message: string): void;
}

/**
 * What the language server needs from where it runs. startServer (the LSP adapter) is the same in Node and
 * in a browser's Web Worker; Node reads the disk (nodeHost.ts), the browser is sent the workspace's files
 * by the client (browser/browserHost.ts).
 */
export interface ServerHost {
  /** `changed`: call when what is known changed outside reload/applyChanges (the browser's client sent files). */
  definitions(connection: Connection, log: (message: string) => void, changed: () => void): KnownDefinitions;
  quotaFiles(log: (message: string) => void): QuotaSources;
  configs(warn: (message: string) => void): WorkspaceConfigSource;
  /** The text of a file that is not open (the other parts of a split set), or undefined. */
  readFile(uri: string): string | undefined;
  /** The URI of a definition's `source` (a path or a URI), or undefined. */
  sourceUri(source: string): string | undefined;
  /** Where each diagnostic's rule page is. */
  docsBaseUrl: string;
  /** Collections after bulk work (Node); `note` counts the work. */
  idleCollection(threshold: number, quietMs: number, lowRateMs: number): { note(work?: number): void };
  /** Lets waiting messages be handled. */
  yieldToEvents(): Promise<void>;
  /**
   * Runs a `policyset test` fixture (its URI, and its text in the editor), reading the files it names; undefined
   * for a fixture that is not a file. None where there is no file system (the browser): fixtures are not run there.
   */
  runFixture?(uri: string, text: string): Promise<FixtureRun | undefined>;
  /** The fixture files (`*.policytest.json`) under the workspace folders (URIs), as URIs; none in the browser. */
  findFixtures?(folderUris: string[]): Promise<string[]>;
  /** The URI a fixture's `target` path names (relative to the fixture's folder). */
  fixtureTarget?(fixtureUri: string, target: string): string | undefined;
  /** The whole workspace's check (workspace diagnostics); none where the files cannot be walked (the browser). */
  workspaceLint?(context: WorkspaceLintContext): WorkspaceLinter;
}
