// What the workspace says about a document: the known definitions it is checked against (from the disk or
// the client: see the hosts), the `.policysetrc.json` of its folder, the quota files, its earlier text for
// the version check, and the settings; and when they change (watched files, folders, open definitions).
import { MessageType, ShowMessageNotification, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { cloudOfPath, type PolicyDocument } from '../service';
import { workspaceSymbolsOfDocument, type DocumentWorkspaceSymbols, type FeatureOptions, type SymbolSources } from '../service/features';
import {
  isConfigChange,
  type FileChange,
  type KnownDefinitions,
  type QuotaSources,
  type ServerHost,
  type WorkspaceConfigSource,
} from './serverHost';
import type { ServerSettings } from './settings';

/** Watched-file changes and edits of open definitions are gathered this long before the definitions are read again. */
const WATCH_DEBOUNCE_MS = 300;

/** A document's earlier text (policySet/setPreviousText). */
export interface PreviousText {
  text: string;
  /** How messages name it ('HEAD'). */
  label: string;
}

/** What the workspace asks of the diagnostics (see diagnostics.ts). */
export interface WorkspaceChecks {
  /** Every open document may have other diagnostics now: check them again. */
  recheckAll(): void;
  /** Runs `call` once the documents being opened have their first diagnostics; false: none is waiting (`call` is not run). */
  deferUntilOpened(call: () => void): boolean;
}

export class Workspace {
  /** The workspace folders' URIs: the host reads the config and quota files under them (Node: as paths; the browser: none). */
  folders: string[] = [];
  /** Set at initialize, once the client's capabilities chose the diagnostics. */
  checks: WorkspaceChecks | undefined;
  /** Called whenever every open document is checked again (the server asks the client for inlay hints again). */
  onRecheck: (() => void) | undefined;
  /** Known definitions come from the disk (Node) or from the client (the browser: see browser/browserHost.ts). */
  readonly definitions: KnownDefinitions;
  readonly quotaFiles: QuotaSources;
  /**
   * .policysetrc.json of each workspace folder: where it and the extension's settings both say something,
   * the file wins (it is the team's, shared with CI; the settings are one user's). See docs/editor.md.
   */
  readonly configs: WorkspaceConfigSource;
  /** The earlier text of a document (its committed version), from policySet/setPreviousText: the version check compares with it. */
  readonly previousTexts = new Map<string, PreviousText>();
  /**
   * The known definitions the open documents were last all queued against (the catalogue's fingerprint):
   * reading them again to the same catalogue (a scan that finds what the open files already said, in a
   * repository whose files are all open) checks nothing again.
   */
  private checkedAgainst: string;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private fileChanges: FileChange[] = [];
  private fileChangeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each open document's workspace symbols, for the version they were made of (a few names and ranges: kept until it closes). */
  private readonly symbolsByUri = new Map<string, { version: number; symbols: DocumentWorkspaceSymbols }>();

  /**
   * Called when the known definitions were read again (a scan, changed files, an open definition edited):
   * work that allocates megabytes outside any document's check (the server's idle collection counts it).
   */
  definitionsRead: () => void = () => undefined;

  constructor(
    private readonly connection: Connection,
    private readonly host: ServerHost,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly settings: () => ServerSettings,
  ) {
    const log = (message: string) => connection.console.log(message);
    this.definitions = host.definitions(connection, log, () => this.recheckAll());
    this.quotaFiles = host.quotaFiles(log);
    this.configs = host.configs((message) => {
      connection.console.warn(message);
      // A notification (no answer awaited): the user reads it, nothing waits on it.
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `policyset: ${message}` });
    });
    this.checkedAgainst = this.definitions.catalog.fingerprint();
  }

  configOf(uri: string) {
    return this.configs.forUri(uri)?.config;
  }

  /** A document the config file's 'ignore' leaves out: no diagnostics, as the CLI reports none. */
  isIgnored(uri: string): boolean {
    return !!this.configs.forUri(uri)?.ignores(uri);
  }

  featureOptions(uri: string): FeatureOptions {
    return {
      definitions: this.definitions.catalog,
      cloud: this.configOf(uri)?.cloud || this.settings().cloud || cloudOfPath(uri),
      quota: { table: this.quotaFiles.table(this.configOf(uri)?.capacityUnits ?? this.settings().quota.capacityUnitsFile, this.folders) },
    };
  }

  /** The capacity-unit table of the settings (the quota requests, which are about no document). */
  quotaTable() {
    return this.quotaFiles.table(this.settings().quota.capacityUnitsFile, this.folders);
  }

  /** The options of a check; `policyDocument` is the parse being checked (a deployment plan reads its usage files). */
  validationOptions(document: TextDocument, policyDocument?: PolicyDocument) {
    const settings = this.settings();
    const features = this.featureOptions(document.uri);
    const config = this.configOf(document.uri);
    return {
      uri: document.uri,
      // The file's rules over the settings' severities (both keyed by code win over a name).
      severities: config?.rules ? { ...settings.severities, ...config.rules } : settings.severities,
      minSeverity: config?.minSeverity,
      ...features,
      // Deployment plans read their usage files (the settings', the config file's and the plan's own) on each check.
      quota:
        policyDocument?.kind === 'deploymentPlan'
          ? {
              ...features.quota,
              usages: this.quotaFiles.usages(
                [...settings.quota.usageFiles, ...(config?.usage ?? [])],
                this.folders,
                document.uri,
                policyDocument.parsed.root,
              ),
            }
          : undefined,
      definitions: this.definitions.catalog.size || this.definitions.catalog.setCount ? this.definitions.catalog : undefined,
      assumePolicyDocument: document.languageId === 'policyset',
      docsBaseUrl: this.host.docsBaseUrl,
      previous: this.previousOf(document.uri),
    };
  }

  previousOf(uri: string) {
    const previous = this.previousTexts.get(uri);
    // The workspace's .policysetrc.json over the setting, as for the rules.
    const versions = this.configOf(uri)?.versions;
    return previous
      ? {
          ...previous,
          referenceAdded: versions?.referenceAdded ?? this.settings().versions?.referenceAdded,
          referenceRemoved: versions?.referenceRemoved ?? this.settings().versions?.referenceRemoved,
        }
      : undefined;
  }

  /** After settings or known definitions change. In onSave mode documents wait for their next save (see diagnostics.ts). */
  recheckAll(): void {
    this.checkedAgainst = this.definitions.catalog.fingerprint();
    this.checks?.recheckAll();
    this.onRecheck?.();
  }

  /**
   * What workspace symbols are found in: the open documents (parsed with `parse` when their symbols of this
   * version are not made yet), and the definitions and sets known from files of their own (an index file holds many: it is left out).
   */
  symbolSources(parse: (document: TextDocument) => PolicyDocument): SymbolSources {
    const catalog = this.definitions.catalog;
    const withUri = <T extends { source?: string }>(info: T) => {
      const uri = info.source ? this.host.sourceUri(info.source) : undefined;
      return uri ? [{ info, uri }] : [];
    };
    // A document's symbols are made once per version: a query per keystroke parses nothing again.
    const symbolsOf = (document: TextDocument) => {
      const known = this.symbolsByUri.get(document.uri);
      if (known?.version === document.version) return known.symbols;
      const symbols = workspaceSymbolsOfDocument(document.uri, parse(document));
      this.symbolsByUri.set(document.uri, { version: document.version, symbols });
      return symbols;
    };
    return {
      documents: this.documents.all().map(symbolsOf),
      definitions: [...catalog.named()].filter((info) => !info.indexed).flatMap(withUri),
      sets: catalog.sets().flatMap(withUri),
    };
  }

  /** After the known definitions may have changed: every open document is checked again if they did. */
  private recheckIfChanged(): void {
    if (this.definitions.catalog.fingerprint() === this.checkedAgainst) {
      this.connection.console.log('The known definitions did not change: the open documents are not checked again.');
      return;
    }
    this.connection.console.log('The known definitions changed: the open documents are checked again.');
    this.recheckAll();
  }

  private openDefinitionTexts() {
    return this.documents
      .all()
      .map((d) => ({ uri: d.uri, text: d.getText() }))
      .filter((d) => d.text.includes('policyRule'));
  }

  /** `afterOpened`: once the documents being opened have their first diagnostics (the scan at start-up waits for them). */
  reloadDefinitions(delay = 0, afterOpened = false): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      if (afterOpened && this.checks?.deferUntilOpened(() => this.reloadDefinitions(0))) return;
      const settings = this.settings();
      this.definitions
        .reload(
          {
            ...settings.definitions,
            paths: [...settings.definitions.paths, ...this.configs.all().flatMap((c) => c.config.definitions ?? [])],
          },
          this.folders,
          this.openDefinitionTexts(),
        )
        .then((current) => current && this.recheckIfChanged())
        .catch((error: Error) => this.connection.console.error(`loading policy definitions failed: ${error.message}`))
        .finally(() => this.definitionsRead());
    }, delay);
  }

  /** The workspace folders changed: their configs and definitions are read again, and every document checked. */
  foldersChanged(event: { added: Array<{ uri: string }>; removed: Array<{ uri: string }> }): void {
    this.folders = [...this.folders.filter((f) => !event.removed.some((r) => r.uri === f)), ...event.added.map((a) => a.uri)];
    this.configs.load(this.folders);
    this.reloadDefinitions();
    this.recheckAll();
  }

  /** Watched-file changes, gathered for a moment: only the changed files are read again (see WorkspaceDefinitions). */
  filesChanged(changes: FileChange[]): void {
    // A config file changed: read them again and check every open document with the new settings.
    if (changes.some((c) => isConfigChange(c.uri))) {
      const definitionPaths = () => JSON.stringify(this.configs.all().map((c) => c.config.definitions ?? []));
      const before = definitionPaths();
      this.configs.load(this.folders);
      // The known definitions are read again only when the file's list of them changed.
      if (definitionPaths() !== before) this.reloadDefinitions();
      this.recheckAll();
    }
    this.fileChanges.push(...changes);
    clearTimeout(this.fileChangeTimer);
    this.fileChangeTimer = setTimeout(() => {
      const gathered = this.fileChanges;
      this.fileChanges = [];
      this.definitions
        .applyChanges(gathered, this.openDefinitionTexts())
        .then((changed) => changed && this.recheckIfChanged())
        .catch((error: Error) => this.connection.console.error(`reading changed policy definitions failed: ${error.message}`))
        .finally(() => this.definitionsRead());
    }, WATCH_DEBOUNCE_MS);
  }

  /** An open document changed: an open policy definition's unsaved text is what sets referencing it are checked against. */
  documentChanged(document: TextDocument): void {
    if (!document.getText().includes('policyRule')) return;
    clearTimeout(this.openTimer);
    this.openTimer = setTimeout(() => {
      this.definitions.refreshOpen(this.openDefinitionTexts());
      this.recheckIfChanged();
      this.definitionsRead();
    }, WATCH_DEBOUNCE_MS);
  }

  documentClosed(uri: string): void {
    this.previousTexts.delete(uri);
    this.symbolsByUri.delete(uri);
  }
}
