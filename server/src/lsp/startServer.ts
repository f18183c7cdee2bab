import {
  TextDocuments,
  TextDocumentSyncKind,
  DidChangeWatchedFilesNotification,
  CodeLensRefreshRequest,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerHost } from './serverHost';
import { DocumentParses } from './documentCache';
import { DocumentChecks } from './checks';
import { FixtureChecks } from './fixtureChecks';
import { FixtureLenses } from './fixtureLenses';
import { registerDiagnostics, type DiagnosticsSupport } from './diagnostics';
import { documentRunner } from './runner';
import { DEFAULT_SETTINGS, changedSettings, fetchSettings, initialSettings, type ServerSettings } from './settings';
import { Workspace } from './workspace';
import { featureCapabilities, registerFeatures } from './features';
import { registerCustomRequests } from './customRequests';
import { registerWorkspaceDiagnostics, type WorkspaceDiagnostics } from './workspaceDiagnostics';
import { splitPartOf, splitSetOf, parsePolicyDocument, type PolicyDocument } from '../service';
import type { ConsumerDocument } from '../service/features';

export type { ServerSettings } from './settings';

/** Full garbage collections after 2M characters of text were validated in the background, once quiet (see IdleCollection). */
const IDLE_COLLECTION_WORK = 2_000_000;
const IDLE_COLLECTION_QUIET_MS = 1000;
const IDLE_COLLECTION_LOW_RATE_MS = 6000;

/**
 * A thin adapter: documents in, answers out, all computed by the pure service. This file declares what the
 * server can do and wires the parts: diagnostics (diagnostics.ts, push or pull as the client can), the
 * language features (features.ts), the custom requests (customRequests.ts), the workspace's settings,
 * configs and known definitions (settings.ts, workspace.ts). Every handler is wrapped (runner.ts): a
 * failure answers with an error and the server stays up.
 */
/**
 * The workspace's consumer documents for a rename or find-references: the files the scan found (read now, or
 * the open document's text), and the open documents that are consumers.
 */
function consumerDocumentsOf(
  files: string[],
  except: string,
  documents: TextDocuments<TextDocument>,
  host: ServerHost,
  parse: (document: TextDocument) => PolicyDocument,
): ConsumerDocument[] {
  const found = new Map<string, ConsumerDocument>();
  for (const document of documents.all()) {
    if (document.uri === except) continue;
    const parsed = parse(document);
    if (parsed.consumers.length) found.set(document.uri, { uri: document.uri, document: parsed });
  }
  for (const file of files) {
    const uri = host.sourceUri(file);
    if (!uri || uri === except || found.has(uri) || documents.get(uri)) continue;
    const text = host.readFile(uri);
    if (text === undefined) continue;
    const document = parsePolicyDocument(text, { model: false });
    if (document.consumers.length) found.set(uri, { uri, document });
  }
  return [...found.values()];
}

const CODE_LENS_REFRESH = 'workspace/codeLens/refresh';
const LENS_REFRESH_DELAY_MS = 300;
/** Text that may hold a consumer of a set (an assignment, the framework's tree or exemptions). */
const CONSUMER_HINT = /policyAssignments|"nodeName"|"policyAssignmentId"|"exemptions"/;

export function startServer(connection: Connection, host: ServerHost): void {
  const documents = new TextDocuments(TextDocument);
  let settings: ServerSettings = DEFAULT_SETTINGS;
  let canConfigure = false;
  let canWatch = false;
  let hasWorkspaceFolders = false;
  let codeActionLiterals = false;
  /** Chosen at initialize, by the client's capabilities. */
  let diagnostics: DiagnosticsSupport | undefined;
  /** Where the host can walk the workspace (Node); started by a workspace pull or policySet.validate.workspace. */
  let workspaceDiagnostics: WorkspaceDiagnostics | undefined;
  /** What the workspace check reads of the settings: a change of it checks the workspace again. */
  const workspaceCheckSettings = () => JSON.stringify([settings.severities, settings.cloud]);
  const onSave = () => settings.validate.run === 'onSave';
  const logError = (message: string) => connection.console.error(message);

  const parses = new DocumentParses();
  const workspace = new Workspace(connection, host, documents, () => settings);
  const checks = new DocumentChecks(documents, parses, workspace, host, onSave, logError);
  const fixtureLenses = new FixtureLenses(host, documents, () => workspace.folders);
  let refreshCodeLenses = () => undefined as void;
  // A fixture whose run ended is checked again, and gets its results; the lenses that sum it up are asked again.
  checks.fixtures = new FixtureChecks(
    host.runFixture?.bind(host),
    documents,
    (document) => {
      diagnostics?.recheck(document);
      refreshCodeLenses();
    },
    logError,
  );
  const idleCollection = host.idleCollection(IDLE_COLLECTION_WORK, IDLE_COLLECTION_QUIET_MS, IDLE_COLLECTION_LOW_RATE_MS);
  workspace.definitionsRead = () => idleCollection.note();
  const handle = documentRunner({
    documents,
    parsed: (document, model) => parses.parsed(document, model),
    started: () => idleCollection.note(),
    logError,
  });

  const readSettings = async () => {
    if (!canConfigure) return;
    settings = (await fetchSettings(connection)) ?? settings;
  };
  /** After settings or known definitions change. */
  const recheckAll = () => workspace.recheckAll();
  /** Asks the client for code lenses again (when it can be asked), once after a burst of changes. */
  let refreshLenses: (() => void) | undefined;

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    canConfigure = !!capabilities.workspace?.configuration;
    canWatch = !!capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    hasWorkspaceFolders = !!capabilities.workspace?.workspaceFolders;
    codeActionLiterals = !!capabilities.textDocument?.codeAction?.codeActionLiteralSupport;
    if (capabilities.workspace?.codeLens?.refreshSupport)
      refreshCodeLenses = () => void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    // Inlay hints show what the known definitions and settings say: the client asks again when they change.
    const refreshHints = capabilities.workspace?.inlayHint?.refreshSupport
      ? () => void connection.languages.inlayHint.refresh().catch(() => undefined)
      : undefined;
    // A set's code lens counts the workspace's consumers: asked again when they (or the known sets) may have changed.
    if (capabilities.workspace?.codeLens?.refreshSupport) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      refreshLenses = () => {
        clearTimeout(timer);
        timer = setTimeout(() => void connection.sendRequest(CODE_LENS_REFRESH).catch(() => undefined), LENS_REFRESH_DELAY_MS);
      };
    }
    if (refreshHints || refreshLenses)
      workspace.onRecheck = () => {
        refreshHints?.();
        refreshLenses?.();
      };
    workspace.folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    settings = initialSettings(params.initializationOptions) ?? settings;
    // The one choice between pushing and pulling diagnostics.
    const pull = !!capabilities.textDocument?.diagnostic;
    const linter = host.workspaceLint?.({
      configOf: (uri) => workspace.configs.forUri(uri),
      editorSettings: () => ({ severities: settings.severities, cloud: settings.cloud }),
      log: (message) => connection.console.log(message),
    });
    diagnostics = registerDiagnostics(
      { connection, documents, checks, onSave, idleCollection, yieldToEvents: () => host.yieldToEvents() },
      pull,
      !!linter,
    );
    workspace.checks = diagnostics;
    if (linter) {
      workspaceDiagnostics = registerWorkspaceDiagnostics({
        connection,
        documents,
        linter,
        pull,
        folders: () => workspace.folders,
        setting: () => settings.validate.workspace,
        yieldToEvents: () => host.yieldToEvents(),
        idleCollection,
      });
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        ...diagnostics.capabilities,
        ...featureCapabilities(),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'policyset-language-server' },
    };
  });

  connection.onInitialized(async () => {
    workspace.configs.load(workspace.folders);
    await readSettings();
    if (canWatch)
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.{json,jsonc,csv}' }, { globPattern: '**/.policysetrc.json' }],
      });
    if (hasWorkspaceFolders)
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        workspace.foldersChanged(event);
        fixtureLenses.filesChanged(undefined);
        workspaceDiagnostics?.foldersChanged();
      });
    // The workspace scan does not stand in the way of the first diagnostics: it starts once they are out.
    workspace.reloadDefinitions(0, true);
    workspaceDiagnostics?.initialized();
  });

  connection.onDidChangeConfiguration(async (change) => {
    const before = workspaceCheckSettings();
    if (canConfigure) await readSettings();
    else settings = changedSettings(change) ?? settings;
    workspace.reloadDefinitions();
    recheckAll();
    workspaceDiagnostics?.settingsChanged(workspaceCheckSettings() !== before);
  });
  connection.onDidChangeWatchedFiles((params) => {
    // .csv files are watched for the workspace check alone (parameter files: lsp/node/workspacePasses.ts).
    if (params.changes.every((c) => /\.csv$/i.test(c.uri))) return void workspaceDiagnostics?.filesChanged(params.changes);
    refreshLenses?.();
    workspace.filesChanged(params.changes);
    checks.fixtures?.filesChanged();
    fixtureLenses.filesChanged(params.changes);
    // A set, definition or resource a fixture names may have changed: the lenses' counts too.
    if (fixtureLenses.available) refreshCodeLenses();
    workspaceDiagnostics?.filesChanged(params.changes);
  });

  registerFeatures({
    connection,
    handle,
    featureOptions: (uri) => workspace.featureOptions(uri),
    sourceUri: (source) => host.sourceUri(source),
    readText: (uri) => documents.get(uri)?.getText() ?? host.readFile(uri),
    codeActionLiterals: () => codeActionLiterals,
    // No fix-all where there are no diagnostics of the document's own (ignored), or they are the assembled set's (a split part).
    fixAllOptions: (document, parsed) =>
      workspace.isIgnored(document.uri) ||
      (splitPartOf(document.uri) && splitSetOf(document.uri, (sibling) => documents.get(sibling)?.getText() ?? host.readFile(sibling)))
        ? undefined
        : workspace.validationOptions(document, parsed),
    settings: () => settings,
    // A parse made for the symbols alone is not kept: it would push out the parses of the documents in use.
    symbolSources: () => workspace.symbolSources((document) => parses.parsed(document, true, false)),
    consumerDocuments: (except) =>
      consumerDocumentsOf(workspace.definitions.consumerFiles?.() ?? [], except, documents, host, (document) =>
        parses.parsed(document, false, false),
      ),
    fixtureLenses,
    logError,
  });
  registerCustomRequests({ connection, handle, checks, diagnostics: () => diagnostics, workspace, documents, fixtureLenses });

  documents.onDidChangeContent((event) => {
    workspace.documentChanged(event.document);
    // An open consumer counts with its unsaved text (a cheap look at its text: most documents name none of these).
    if (refreshLenses && CONSUMER_HINT.test(event.document.getText())) refreshLenses();
  });
  documents.onDidClose((event) => {
    parses.delete(event.document.uri);
    checks.fixtures?.forget(event.document.uri);
    workspace.documentClosed(event.document.uri);
  });

  documents.listen(connection);
  connection.listen();
}
