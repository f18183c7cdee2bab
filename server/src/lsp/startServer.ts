import {
  TextDocuments,
  TextDocumentSyncKind,
  DocumentDiagnosticReportKind,
  DidChangeWatchedFilesNotification,
  ShowMessageNotification,
  MessageType,
  DiagnosticSeverity,
  ResponseError,
  ErrorCodes,
  LSPErrorCodes,
  type CancellationToken,
  type Connection,
  type InitializeResult,
  type Diagnostic,
  type WorkspaceEdit,
  type CompletionList,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  validateDocument,
  validationSteps,
  parsePolicyDocument,
  withModel,
  cloudOfPath,
  siblingsOf,
  splitSetOf,
  validateSplitSet,
  NOT_A_POLICY_DOCUMENT,
  DIAGNOSTIC_SOURCE,
  type DocumentKind,
  type PolicyDocument,
  type SeveritySetting,
  type ValidationResult,
} from '../service';
import {
  doHover,
  findDefinition,
  referencedDefinitionAt,
  findReferences,
  prepareRename,
  rename,
  documentSymbols,
  foldingRanges,
  selectionRanges,
  format,
  getCodeActions,
  getCompletions,
  COMPLETION_TRIGGER_CHARACTERS,
  QUICK_FIX,
  type FeatureOptions,
} from '../service/features';
import { isConfigChange, type FileChange, type ServerHost } from './serverHost';
import { DocumentCache } from './documentCache';
import { applyPlanAnswer, quotaFigures, regionsWithRoom, type ApplyPlanParams, type QuotaFiguresParams, type Usage } from '../service/quota';
import { previousTextParams, changeReport, PREVIOUS_TEXT_REQUEST, CHANGE_REPORT_REQUEST, type PreviousText } from './versionRequests';

/** The `policySet` settings the server reads (see server/README.md). */
export interface ServerSettings {
  severities: Record<string, SeveritySetting>;
  validate: { run: 'onType' | 'onSave' };
  definitions: { paths: string[] };
  /** The cloud whose definitions win; empty: inferred from the document's path. */
  cloud: string;
  /** Deployment plans: a capacity-unit file over the built-in table, and saved usage files. */
  quota: { capacityUnitsFile: string; usageFiles: string[] };
  /** The version check (version-not-bumped): what a reference added asks of the version. */
  versions?: { referenceAdded: 'minor' | 'major' };
}

/**
 * No silent pass: a document opened as a policy set (language 'policyset') that is valid JSON of no known
 * kind gets one information diagnostic on its first line saying why nothing else is reported.
 */
function notCheckedNotice(document: TextDocument, result: ValidationResult): Diagnostic[] | undefined {
  if (document.languageId !== 'policyset' || result.kind !== 'unknown' || result.diagnostics.length > 0) return undefined;
  const firstLine = document.getText({ start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }).replace(/\r?\n$/, '');
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: firstLine.length } },
      severity: DiagnosticSeverity.Information,
      source: DIAGNOSTIC_SOURCE,
      message: `Not checked: ${NOT_A_POLICY_DOCUMENT}. A set needs properties.policyDefinitions; a definition needs properties.policyRule.`,
      data: { rule: 'not-checked', messageId: 'notChecked' },
    },
  ];
}

const DEFAULT_SETTINGS: ServerSettings = { severities: {}, validate: { run: 'onType' }, definitions: { paths: [] }, cloud: '', quota: { capacityUnitsFile: '', usageFiles: [] } };

/** Short enough to feel immediate, long enough that a burst of keystrokes is validated once. */
const DEBOUNCE_MS = 100;
const WATCH_DEBOUNCE_MS = 300;
/**
 * Parses kept (see DocumentCache): the documents being edited and the last few used. A parse holds about 6
 * bytes of heap per byte of text, so 2M characters of text keep at most about 13 MB (three of the largest
 * corpus sets), and an editor with hundreds of documents open holds little more than their text.
 */
const PARSE_CACHE_ENTRIES = 8;
const PARSE_CACHE_TEXT = 2_000_000;
/** Full garbage collections after 2M characters of text were validated in the background, once quiet (see IdleCollection). */
const IDLE_COLLECTION_WORK = 2_000_000;
const IDLE_COLLECTION_QUIET_MS = 1000;
const IDLE_COLLECTION_LOW_RATE_MS = 6000;
/** Validation yields to waiting requests after this much work. */
const VALIDATION_SLICE_MS = 8;
/**
 * Background checks wait while documents are still arriving: until no open, change or close has come for
 * this long (see waitForInput). The client's messages come through a pipe that holds 64 KB: a server that
 * validates while a burst of didOpens is coming in reads one pipeful per slice and leaves the rest waiting.
 */
const INPUT_QUIET_MS = 2;

/** For clients without code action literals: applies a quick fix's edit. */
const APPLY_EDIT_COMMAND = 'policySet.applyFix';

/** Custom request: the quota figures the extension's quota commands show (see service/quota/figures.ts). */
export const QUOTA_FIGURES_REQUEST = 'policySet/quotaFigures';

/** Custom request: the extension's Apply Deployment Plan (see service/quota/apply.ts, applyPlanAnswer). */
export const APPLY_PLAN_REQUEST = 'policySet/applyPlan';
/** Custom request: the extension's Find a Region with Quota (service/quota/where.ts). */
export const REGIONS_WITH_ROOM_REQUEST = 'policySet/regionsWithRoom';

/** Custom request: what the extension's status item shows. */
export const DOCUMENT_INFO_REQUEST = 'policySet/documentInfo';
export interface DocumentInfo {
  kind: DocumentKind;
  /** Errors, warnings and information (hints are not counted). */
  problems: number;
  errors: number;
  warnings: number;
}

interface LastDiagnostics {
  version: number;
  /** Errors, warnings and information. */
  problems: number;
  errors: number;
  warnings: number;
  /** The diagnostics as JSON, in onSave mode only: a pull between saves answers with them. */
  json?: string;
}

function lastDiagnostics(version: number, diagnostics: Diagnostic[], keep: boolean): LastDiagnostics {
  let problems = 0;
  let errors = 0;
  let warnings = 0;
  for (const { severity } of diagnostics) {
    if ((severity ?? 1) <= 3) problems++;
    if (severity === 1) errors++;
    else if (severity === 2) warnings++;
  }
  return { version, problems, errors, warnings, json: keep ? JSON.stringify(diagnostics) : undefined };
}

function readSettings(raw: unknown): ServerSettings {
  const s = (raw ?? {}) as Partial<Record<keyof ServerSettings, unknown>>;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const run = isObject(s.validate) && s.validate['run'] === 'onSave' ? 'onSave' : 'onType';
  const paths = isObject(s.definitions) && Array.isArray(s.definitions['paths']) ? s.definitions['paths'].filter((p): p is string => typeof p === 'string' && p.length > 0) : [];
  return {
    severities: isObject(s.severities) ? (s.severities as ServerSettings['severities']) : {},
    validate: { run },
    definitions: { paths },
    cloud: typeof s.cloud === 'string' ? s.cloud : '',
    quota: {
      capacityUnitsFile: isObject(s.quota) && typeof s.quota['capacityUnitsFile'] === 'string' ? s.quota['capacityUnitsFile'] : '',
      usageFiles: isObject(s.quota) && Array.isArray(s.quota['usageFiles']) ? s.quota['usageFiles'].filter((p): p is string => typeof p === 'string' && p.length > 0) : [],
    },
    versions: { referenceAdded: isObject(s.versions) && s.versions['referenceAdded'] === 'major' ? 'major' : 'minor' },
  };
}

/**
 * A thin adapter: documents in, answers out, all computed by the pure service. Push diagnostics for
 * clients that cannot pull (Neovim 0.7, Emacs eglot 1.9), pull for those that can. Every handler is
 * wrapped: a failure answers with an error and the server stays up.
 */
export function startServer(connection: Connection, host: ServerHost): void {
  const documents = new TextDocuments(TextDocument);
  let pull = false;
  let canConfigure = false;
  let canWatch = false;
  let hasWorkspaceFolders = false;
  let codeActionLiterals = false;
  let settings: ServerSettings = DEFAULT_SETTINGS;
  let workspaceFolders: string[] = [];
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The version each document was opened with (the change event that follows an open needs no second run). */
  const openedVersions = new Map<string, number>();
  /** One parse per document version, shared by validation and every feature, for the documents in use. */
  const parses = new DocumentCache<{ document: PolicyDocument; model: boolean }>(PARSE_CACHE_ENTRIES, PARSE_CACHE_TEXT);
  /**
   * The last diagnostics computed per document: their counts (documentInfo) and, in onSave mode, the
   * diagnostics themselves as JSON text (a pull between saves answers with them; nothing else reads them).
   */
  const results = new Map<string, LastDiagnostics>();
  const keepResult = (document: TextDocument, diagnostics: Diagnostic[]) =>
    results.set(document.uri, lastDiagnostics(document.version, diagnostics, settings.validate.run === 'onSave'));
  const log = (message: string) => connection.console.log(message);
  // Known definitions come from the disk (Node) or from the client (the browser: see browser/browserHost.ts).
  const definitions = host.definitions(connection, log, () => revalidateAll());
  /** The earlier text of a document (its committed version), from policySet/setPreviousText: the version check compares with it. */
  const previousTexts = new Map<string, PreviousText>();

  /**
   * The document's parse, once per version. Completion asks for it without the set models (it builds
   * the one it needs, if any): right after an edit that is most of the cost. Everything else gets them,
   * added to the same parse.
   */
  const parsed = (document: TextDocument, model = true, keep = true): PolicyDocument => {
    const cached = parses.get(document.uri, document.version);
    if (cached) {
      if (model && !cached.model) {
        cached.document = withModel(cached.document);
        cached.model = true;
      }
      return cached.document;
    }
    const text = document.getText();
    const policyDocument = parsePolicyDocument(text, { model });
    if (keep) parses.set(document.uri, document.version, { document: policyDocument, model }, text.length);
    return policyDocument;
  };

  const quotaFiles = host.quotaFiles(log);
  // The workspace folders' URIs: the host reads the quota files under them (Node: as paths; the browser: none).
  const folderPaths = () => workspaceFolders;
  /**
   * .policysetrc.json of each workspace folder: where it and the extension's settings both say something,
   * the file wins (it is the team's, shared with CI; the settings are one user's). See docs/editor.md.
   */
  const configs = host.configs((message) => {
    connection.console.warn(message);
    // A notification (no answer awaited): the user reads it, nothing waits on it.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `policyset: ${message}` });
  });
  const configOf = (uri: string) => configs.forUri(uri)?.config;
  const isIgnored = (uri: string) => !!configs.forUri(uri)?.ignores(uri);
  const featureOptions = (uri: string): FeatureOptions => ({
    definitions: definitions.catalog,
    cloud: configOf(uri)?.cloud || settings.cloud || cloudOfPath(uri),
    quota: { table: quotaFiles.table(configOf(uri)?.capacityUnits ?? settings.quota.capacityUnitsFile, folderPaths()) },
  });

  /** The options of a check; `policyDocument` is the parse being checked (a deployment plan reads its usage files). */
  const validationOptions = (document: TextDocument, policyDocument?: PolicyDocument) => {
    const features = featureOptions(document.uri);
    const config = configOf(document.uri);
    return {
      uri: document.uri,
      // The file's rules over the settings' severities (both keyed by code win over a name).
      severities: config?.rules ? { ...settings.severities, ...config.rules } : settings.severities,
      minSeverity: config?.minSeverity,
      ...features,
      // Deployment plans read their usage files (the settings', the config file's and the plan's own) on each check.
      quota:
        policyDocument?.kind === 'deploymentPlan'
          ? { ...features.quota, usages: quotaFiles.usages([...settings.quota.usageFiles, ...(config?.usage ?? [])], folderPaths(), document.uri, policyDocument.parsed.root) }
          : undefined,
      definitions: definitions.catalog.size || definitions.catalog.setCount ? definitions.catalog : undefined,
      assumePolicyDocument: document.languageId === 'policyset',
      docsBaseUrl: host.docsBaseUrl,
      previous: previousOf(document.uri),
    };
  };
  const previousOf = (uri: string) => {
    const previous = previousTexts.get(uri);
    // The workspace's .policysetrc.json over the setting, as for the rules.
    return previous ? { ...previous, referenceAdded: configOf(uri)?.versions?.referenceAdded ?? settings.versions?.referenceAdded } : undefined;
  };

  const remember = (document: TextDocument, result: ValidationResult): Diagnostic[] => {
    for (const failure of result.internalErrors) connection.console.error(`rule ${failure.rule} failed on ${document.uri}: ${failure.message}`);
    const diagnostics = notCheckedNotice(document, result) ?? result.diagnostics;
    keepResult(document, diagnostics);
    return diagnostics;
  };

  /**
   * A part of a set in the split layout (`<base>.definitions.json`, `.parameters.json`, `.groups.json`): the
   * set is assembled from the open parts and, for the others, the files on disk, and checked as one.
   */
  const diagnoseAsPart = (document: TextDocument): Diagnostic[] | undefined => {
    const parts = splitSetOf(document.uri, (sibling) => documents.get(sibling)?.getText() ?? host.readFile(sibling));
    if (!parts) return undefined;
    const diagnostics = validateSplitSet(parts, validationOptions(document)).get(document.uri) ?? [];
    keepResult(document, diagnostics);
    return diagnostics;
  };
  /** The other open parts of a document's split-layout set: a change to one part re-checks them. */
  const openSiblings = (uri: string): TextDocument[] =>
    siblingsOf(uri)
      .map((s) => documents.get(s))
      .filter((d): d is TextDocument => !!d);

  /** A document the config file's 'ignore' leaves out: no diagnostics, as the CLI reports none. */
  const ignoredDocument = (document: TextDocument): Diagnostic[] => {
    keepResult(document, []);
    return [];
  };

  /** Validates at once (a pull request, or a request that needs the diagnostics now); `keep`: keep the parse (see DocumentCache). */
  const diagnose = (document: TextDocument, keep = true): Diagnostic[] => {
    if (isIgnored(document.uri)) return ignoredDocument(document);
    const asPart = diagnoseAsPart(document);
    if (asPart) return asPart;
    const policyDocument = parsed(document, true, keep);
    return remember(document, validateDocument(policyDocument, validationOptions(document, policyDocument)));
  };

  /**
   * Validates a rule at a time, letting requests that arrive meanwhile (completion, hover) be answered
   * between rules, and gives up as soon as the document changes: its newer version has a run of its own.
   */
  const diagnoseInSteps = async (document: TextDocument, keep: boolean, giveWay = false): Promise<Diagnostic[] | undefined> => {
    const current = () => documents.get(document.uri)?.version === document.version;
    if (isIgnored(document.uri)) return ignoredDocument(document);
    const asPart = diagnoseAsPart(document);
    if (asPart) return asPart;
    const policyDocument = parsed(document, true, keep);
    const steps = validationSteps(policyDocument, validationOptions(document, policyDocument));
    let sliceStart = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return remember(document, step.value);
      if (performance.now() - sliceStart > VALIDATION_SLICE_MS) {
        await host.yieldToEvents();
        if (giveWay) await waitForInput();
        if (!current()) return undefined;
        sliceStart = performance.now();
      }
    }
  };

  const idleCollection = host.idleCollection(IDLE_COLLECTION_WORK, IDLE_COLLECTION_QUIET_MS, IDLE_COLLECTION_LOW_RATE_MS);

  /**
   * The client's document messages handled so far (opens, changes, closes), and the edited documents being
   * validated now: background checks give way to both (see waitForInput).
   */
  let arrivals = 0;
  let foreground = 0;
  let seenArrivals = 0;
  /**
   * Lets what the client sends in first: while documents keep arriving (a burst of didOpens) or an edited
   * document is being validated, background checks wait. Reading the whole burst before checking the rest
   * of it keeps the client's pipe flowing, and an edit made meanwhile is checked before the queue goes on.
   */
  const waitForInput = async () => {
    while (foreground > 0 || seenArrivals !== arrivals) {
      seenArrivals = arrivals;
      await new Promise((resolve) => setTimeout(resolve, INPUT_QUIET_MS));
    }
  };

  /**
   * Validates and pushes the diagnostics; `keep`: keep the parse (a document being worked on), see DocumentCache;
   * `background`: a check of the queue (opened documents, re-checks), which gives way to input and to edits
   * (`giveWay`) unless it is the one that started the queue.
   */
  const publish = async (document: TextDocument, keep = true, background = false, giveWay = background) => {
    if (!background) foreground++;
    try {
      const diagnostics = await diagnoseInSteps(document, keep, giveWay);
      // Drop the result when the document changed meanwhile: the newer version has its own run scheduled.
      if (!diagnostics || documents.get(document.uri)?.version !== document.version) return;
      void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    } catch (error) {
      connection.console.error(`validation of ${document.uri} failed: ${(error as Error).message}`);
    } finally {
      if (!background) foreground--;
    }
  };

  /**
   * Documents that were opened, or are checked again after a settings or definitions change, are validated
   * one at a time, in the order they came, opened ones first: a client that opens hundreds at once has one
   * validation's working memory in use, not hundreds. An edited document does not wait for them (see schedule).
   */
  const opening = new Set<string>();
  const rechecking = new Set<string>();
  let backgroundRunning = false;
  /** Called once the documents being opened have been validated. */
  let whenOpened: Array<() => void> = [];
  const dequeue = (uri: string) => {
    opening.delete(uri);
    rechecking.delete(uri);
  };
  const publishInBackground = (uri: string, opened = false) => {
    if (opened) {
      rechecking.delete(uri);
      opening.add(uri);
    } else if (!opening.has(uri)) rechecking.add(uri);
    if (backgroundRunning) return;
    backgroundRunning = true;
    // The document that starts the queue is checked at once (the first diagnostics come as soon as they can);
    // those that arrive with it wait until the client has sent them all.
    seenArrivals = arrivals;
    void (async () => {
      let first = true;
      try {
        for (;;) {
          if (!first) await waitForInput();
          if (!opening.size && whenOpened.length) {
            const waiting = whenOpened;
            whenOpened = [];
            for (const call of waiting) call();
          }
          const [next] = opening.size ? opening : rechecking;
          if (next === undefined) break;
          dequeue(next);
          const document = documents.get(next);
          if (!document) continue;
          idleCollection.note();
          await publish(document, false, true, !first);
          first = false;
          idleCollection.note(document.getText().length);
        }
      } finally {
        backgroundRunning = false;
      }
    })();
  };

  /** Revalidates: pushes after a short debounce, or asks a pulling client to pull again. */
  const schedule = (document: TextDocument, delay = DEBOUNCE_MS) => {
    if (pull) return;
    dequeue(document.uri);
    clearTimeout(timers.get(document.uri));
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        const current = documents.get(document.uri);
        if (current) void publish(current);
      }, delay),
    );
  };

  /**
   * The known definitions the open documents were last all queued against (the catalogue's
   * fingerprint): reading them again to the same catalogue (a scan that finds what the open files already
   * said, in a repository whose files are all open) checks nothing again.
   */
  const catalogHash = () => definitions.catalog.fingerprint();
  let checkedAgainst = catalogHash();
  /** After the known definitions may have changed: every open document is checked again if they did. */
  const revalidateIfChanged = () => {
    const hash = catalogHash();
    if (hash === checkedAgainst) {
      log('The known definitions did not change: the open documents are not checked again.');
      return;
    }
    log('The known definitions changed: the open documents are checked again.');
    revalidateAll();
  };
  /** After settings or known definitions change. In onSave mode documents wait for their next save. */
  const revalidateAll = () => {
    checkedAgainst = catalogHash();
    if (settings.validate.run === 'onSave') return;
    if (pull) {
      results.clear();
      void connection.languages.diagnostics.refresh();
    } else documents.all().forEach((d) => publishInBackground(d.uri));
  };

  const openDefinitionTexts = () =>
    documents
      .all()
      .map((d) => ({ uri: d.uri, text: d.getText() }))
      .filter((d) => d.text.includes('policyRule'));

  let reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** `afterOpened`: once the documents being opened have their first diagnostics (the scan at start-up waits for them). */
  const reloadDefinitions = (delay = 0, afterOpened = false) => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => {
      if (afterOpened && opening.size) {
        whenOpened.push(() => reloadDefinitions(0));
        return;
      }
      definitions
        .reload({ ...settings.definitions, paths: [...settings.definitions.paths, ...configs.all().flatMap((c) => c.config.definitions ?? [])] }, workspaceFolders, openDefinitionTexts())
        .then((current) => current && revalidateIfChanged())
        .catch((error: Error) => connection.console.error(`loading policy definitions failed: ${error.message}`));
    }, delay);
  };

  const fetchSettings = async () => {
    if (!canConfigure) return;
    try {
      const [section] = (await connection.workspace.getConfiguration([{ section: 'policySet' }])) as unknown[];
      if (section !== null && section !== undefined) settings = readSettings(section);
    } catch (error) {
      connection.console.error(`reading the policySet settings failed: ${(error as Error).message}`);
    }
  };

  /**
   * Runs a request handler on the current version of its document: cancelled requests answer
   * RequestCancelled, a document that changed while the answer was computed answers ContentModified
   * (the client asks again), and a failure answers InternalError instead of taking the server down.
   */
  function handle<P extends { textDocument: { uri: string } }, R>(
    name: string,
    work: (document: TextDocument, policyDocument: PolicyDocument, params: P) => R | Promise<R>,
    empty: R,
    options: { model?: boolean } = {},
  ) {
    return async (params: P, token: CancellationToken): Promise<R> => {
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      idleCollection.note();
      const document = documents.get(params.textDocument.uri);
      if (!document) return empty;
      const version = document.version;
      let result: R;
      try {
        result = await work(document, parsed(document, options.model), params);
      } catch (error) {
        if (error instanceof ResponseError) throw error;
        connection.console.error(`${name} failed on ${document.uri}: ${(error as Error).stack ?? error}`);
        throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${(error as Error).message}`);
      }
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      if (documents.get(document.uri)?.version !== version) throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed');
      return result;
    };
  }

  const offsetOf = (document: TextDocument, position: { line: number; character: number }) => document.offsetAt(position);
  const refuse = (answer: object) => {
    if ('error' in answer) throw new ResponseError(ErrorCodes.InvalidRequest, (answer as { error: string }).error);
  };

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    pull = !!capabilities.textDocument?.diagnostic;
    canConfigure = !!capabilities.workspace?.configuration;
    canWatch = !!capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    hasWorkspaceFolders = !!capabilities.workspace?.workspaceFolders;
    codeActionLiterals = !!capabilities.textDocument?.codeAction?.codeActionLiteralSupport;
    workspaceFolders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    const options = params.initializationOptions as Record<string, unknown> | undefined;
    if (options) settings = readSettings(options['policySet'] ?? options);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        ...(pull ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
        completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: false },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        selectionRangeProvider: true,
        codeActionProvider: { codeActionKinds: [QUICK_FIX] },
        executeCommandProvider: { commands: [APPLY_EDIT_COMMAND] },
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'policyset-language-server' },
    };
  });

  connection.onInitialized(async () => {
    configs.load(workspaceFolders);
    await fetchSettings();
    if (canWatch) void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{json,jsonc}' }, { globPattern: '**/.policysetrc.json' }] });
    if (hasWorkspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        workspaceFolders = [...workspaceFolders.filter((f) => !event.removed.some((r) => r.uri === f)), ...event.added.map((a) => a.uri)];
        configs.load(workspaceFolders);
        reloadDefinitions();
        revalidateAll();
      });
    }
    // The workspace scan does not stand in the way of the first diagnostics: it starts once they are out.
    reloadDefinitions(0, true);
  });

  connection.languages.diagnostics.on((params, token) => {
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    const document = documents.get(params.textDocument.uri);
    if (!document) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    try {
      const last = results.get(document.uri);
      // A document pulled as it was opened is bulk work when many are (an editor restoring a session): its
      // parse is not kept, as for a document checked in the queue when pushing (a request about it parses again).
      const asOpened = document.version === openedVersions.get(document.uri);
      // In onSave mode a pull between saves answers with the last saved state's diagnostics.
      const items = settings.validate.run === 'onSave' && last?.json !== undefined ? (JSON.parse(last.json) as Diagnostic[]) : diagnose(document, !asOpened);
      idleCollection.note(asOpened ? document.getText().length : 0);
      return { kind: DocumentDiagnosticReportKind.Full, items };
    } catch (error) {
      throw new ResponseError(ErrorCodes.InternalError, `validation failed: ${(error as Error).message}`);
    }
  });

  connection.onDidChangeConfiguration(async (change) => {
    if (canConfigure) await fetchSettings();
    else {
      const section = (change.settings as { policySet?: unknown } | undefined)?.policySet;
      if (section) settings = readSettings(section);
    }
    reloadDefinitions();
    revalidateAll();
  });

  /** Watched-file changes, gathered for a moment: only the changed files are read again (see WorkspaceDefinitions). */
  let fileChanges: FileChange[] = [];
  let fileChangeTimer: ReturnType<typeof setTimeout> | undefined;
  connection.onDidChangeWatchedFiles((params) => {
    // A config file changed: read them again and check every open document with the new settings.
    if (params.changes.some((c) => isConfigChange(c.uri))) {
      const definitionPaths = () => JSON.stringify(configs.all().map((c) => c.config.definitions ?? []));
      const before = definitionPaths();
      configs.load(workspaceFolders);
      // The known definitions are read again only when the file's list of them changed.
      if (definitionPaths() !== before) reloadDefinitions();
      revalidateAll();
    }
    fileChanges.push(...params.changes);
    clearTimeout(fileChangeTimer);
    fileChangeTimer = setTimeout(() => {
      const changes = fileChanges;
      fileChanges = [];
      definitions
        .applyChanges(changes, openDefinitionTexts())
        .then((changed) => changed && revalidateIfChanged())
        .catch((error: Error) => connection.console.error(`reading changed policy definitions failed: ${error.message}`));
    }, WATCH_DEBOUNCE_MS);
  });

  connection.onCompletion(
    handle('completion', (d, p, params) => getCompletions(p, offsetOf(d, params.position), featureOptions(d.uri)), { isIncomplete: false, items: [] } as CompletionList, { model: false }),
  );
  connection.onHover(handle('hover', (d, p, params) => doHover(p, offsetOf(d, params.position), featureOptions(d.uri)), null));
  connection.onDefinition(
    handle(
      'definition',
      (d, p, params) => {
        const offset = offsetOf(d, params.position);
        // On policyDefinitionId / policyDefinitionName: the file of the known definition, when it was read from one.
        const source = referencedDefinitionAt(p, offset, featureOptions(d.uri))?.source;
        const file = source && host.sourceUri(source);
        if (file) return [{ uri: file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
        return findDefinition(p, d.uri, offset);
      },
      [],
    ),
  );
  connection.onReferences(handle('references', (d, p, params) => findReferences(p, d.uri, offsetOf(d, params.position), params.context.includeDeclaration), []));
  connection.onPrepareRename(
    handle(
      'prepareRename',
      (d, p, params) => {
        const answer = prepareRename(p, offsetOf(d, params.position));
        refuse(answer);
        return answer as { range: never; placeholder: string };
      },
      null,
    ),
  );
  connection.onRenameRequest(
    handle(
      'rename',
      (d, p, params) => {
        const answer = rename(p, d.uri, offsetOf(d, params.position), params.newName);
        refuse(answer);
        return answer as Exclude<typeof answer, { error: string }>;
      },
      null,
    ),
  );
  connection.onCodeAction(
    handle(
      'codeAction',
      (d, p, params) => {
        if (params.context.only && !params.context.only.some((kind) => kind === QUICK_FIX || QUICK_FIX.startsWith(`${kind}.`))) return [];
        const actions = getCodeActions(p, d.uri, params.context.diagnostics, params.range, featureOptions(d.uri));
        // Clients without code action literals get each fix as a command that applies its edit.
        return codeActionLiterals ? actions : actions.map((a) => ({ title: a.title, command: APPLY_EDIT_COMMAND, arguments: [a.edit] }));
      },
      [],
    ),
  );
  connection.onExecuteCommand(async (params) => {
    if (params.command !== APPLY_EDIT_COMMAND || !params.arguments?.[0]) throw new ResponseError(ErrorCodes.InvalidParams, `unknown command '${params.command}'`);
    await connection.workspace.applyEdit(params.arguments[0] as WorkspaceEdit);
  });
  connection.onDocumentSymbol(handle('documentSymbol', (d, p) => documentSymbols(p, featureOptions(d.uri)), []));
  connection.onFoldingRanges(handle('foldingRange', (_d, p) => foldingRanges(p), []));
  connection.onSelectionRanges(handle('selectionRange', (_d, p, params) => selectionRanges(p, params.positions), []));
  connection.onDocumentFormatting(handle('formatting', (_d, p, params) => format(p, params.options), []));
  connection.onDocumentRangeFormatting(handle('rangeFormatting', (_d, p, params) => format(p, params.options, params.range), []));

  const documentInfo = handle(
    DOCUMENT_INFO_REQUEST,
    (d, p): DocumentInfo => {
      let last = results.get(d.uri);
      if (!last || last.version !== d.version) {
        diagnose(d);
        last = results.get(d.uri)!;
      }
      return { kind: p.kind, problems: last.problems, errors: last.errors, warnings: last.warnings };
    },
    null,
  );
  // The extension's quota commands ask here for their figures: one quota model, in the service.
  connection.onRequest(QUOTA_FIGURES_REQUEST, (params: QuotaFiguresParams) => {
    try {
      return quotaFigures(params ?? {}, quotaFiles.table(settings.quota.capacityUnitsFile, folderPaths()));
    } catch (error) {
      throw new ResponseError(-32602, `quota figures: ${(error as Error).message}`);
    }
  });
  // The version check: the client hands over a document's earlier text (the committed one), and asks for the change report.
  connection.onRequest(PREVIOUS_TEXT_REQUEST, (params: unknown) => {
    const { uri, previous } = previousTextParams(params);
    if (previous) previousTexts.set(uri, previous);
    else previousTexts.delete(uri);
    const document = documents.get(uri);
    if (document) {
      results.delete(uri);
      if (pull) void connection.languages.diagnostics.refresh();
      else schedule(document, 0);
    }
    return { uri, previous: !!previous };
  });
  const changeReportOf = handle(CHANGE_REPORT_REQUEST, (d) => changeReport(d.uri, d.getText(), previousOf(d.uri)), null);
  connection.onRequest(CHANGE_REPORT_REQUEST, (params: { textDocument: { uri: string } }, token) => changeReportOf(params, token));
  // Apply Deployment Plan: the plan's targets, then the reconciliation of what the extension read.
  connection.onRequest(APPLY_PLAN_REQUEST, (params: ApplyPlanParams) => {
    try {
      return applyPlanAnswer(params ?? { text: '' }, quotaFiles.table(settings.quota.capacityUnitsFile, folderPaths()));
    } catch (error) {
      throw new ResponseError(-32602, `apply plan: ${(error as Error).message}`);
    }
  });
  connection.onRequest(REGIONS_WITH_ROOM_REQUEST, (params: { model: string; sku?: string; tpm: number; reads: Array<{ location: string; value?: Usage[]; error?: string }> }) => {
    if (typeof params?.model !== 'string' || typeof params.tpm !== 'number' || !Array.isArray(params.reads)) throw new ResponseError(-32602, 'regions with room: give model, tpm and reads');
    return regionsWithRoom(params.model, params.sku ?? 'Standard', params.tpm, params.reads);
  });
  // `{ textDocument: { uri } }` as in every LSP request, or `{ uri }`.
  connection.onRequest(DOCUMENT_INFO_REQUEST, (params: { uri?: string; textDocument?: { uri: string } }, token) =>
    documentInfo({ textDocument: params.textDocument ?? { uri: params.uri ?? '' } }, token),
  );

  documents.onDidOpen((event) => {
    arrivals++;
    openedVersions.set(event.document.uri, event.document.version);
    if (!pull) publishInBackground(event.document.uri, true);
    for (const sibling of openSiblings(event.document.uri)) schedule(sibling);
  });
  documents.onDidChangeContent((event) => {
    arrivals++;
    idleCollection.note();
    if (event.document.getText().includes('policyRule')) reloadOpenDefinitions();
    for (const sibling of openSiblings(event.document.uri)) if (openedVersions.get(event.document.uri) !== event.document.version) schedule(sibling);
    // Also fired on open, whose version is being validated already.
    if (openedVersions.get(event.document.uri) === event.document.version) return;
    if (settings.validate.run === 'onType') schedule(event.document);
  });
  documents.onDidSave((event) => {
    if (settings.validate.run === 'onSave') {
      if (pull) {
        results.delete(event.document.uri);
        void connection.languages.diagnostics.refresh();
      } else schedule(event.document, 0);
    }
  });
  documents.onDidClose((event) => {
    arrivals++;
    const uri = event.document.uri;
    clearTimeout(timers.get(uri));
    timers.delete(uri);
    dequeue(uri);
    parses.delete(uri);
    results.delete(uri);
    openedVersions.delete(uri);
    previousTexts.delete(uri);
    if (!pull) void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  /** An open policy definition's unsaved text is what sets referencing it are checked against. */
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  const reloadOpenDefinitions = () => {
    clearTimeout(openTimer);
    openTimer = setTimeout(() => {
      definitions.refreshOpen(openDefinitionTexts());
      revalidateIfChanged();
    }, WATCH_DEBOUNCE_MS);
  };

  documents.listen(connection);
  connection.listen();
}
