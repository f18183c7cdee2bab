import {
  TextDocuments,
  TextDocumentSyncKind,
  DocumentDiagnosticReportKind,
  ResponseError,
  ErrorCodes,
  LSPErrorCodes,
  type Connection,
  type InitializeResult,
  type Diagnostic,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateText, cloudOfPath, type SeveritySetting } from './service';

export interface ServerSettings {
  severities: Record<string, SeveritySetting>;
}

const DEBOUNCE_MS = 150;
/** Each diagnostic links to its rule's page in the installed docs. */
const DOCS_URL = pathToFileURL(path.resolve(__dirname, '../../docs/rules')).href;

/**
 * A thin adapter: documents in, diagnostics out, all computed by the pure service. Push diagnostics for
 * clients that cannot pull (Neovim 0.7, Emacs eglot 1.9), pull for those that can.
 */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let pull = false;
  let settings: ServerSettings = { severities: {} };
  const timers = new Map<string, NodeJS.Timeout>();

  const diagnose = (document: TextDocument): Diagnostic[] => {
    const result = validateText(document.getText(), {
      uri: document.uri,
      severities: settings.severities,
      cloud: cloudOfPath(document.uri),
      assumePolicyDocument: document.languageId === 'policyset',
      docsBaseUrl: DOCS_URL,
    });
    for (const failure of result.internalErrors) connection.console.error(`rule ${failure.rule} failed on ${document.uri}: ${failure.message}`);
    return result.diagnostics;
  };

  const publish = (document: TextDocument) => {
    try {
      void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: diagnose(document) });
    } catch (error) {
      connection.console.error(`validation of ${document.uri} failed: ${(error as Error).message}`);
    }
  };

  const schedule = (document: TextDocument) => {
    if (pull) return;
    clearTimeout(timers.get(document.uri));
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        // Only the version still open is worth validating.
        const current = documents.get(document.uri);
        if (current) publish(current);
      }, DEBOUNCE_MS),
    );
  };

  connection.onInitialize((params): InitializeResult => {
    pull = !!params.capabilities.textDocument?.diagnostic;
    const options = params.initializationOptions as { severities?: ServerSettings['severities'] } | undefined;
    if (options?.severities) settings = { severities: options.severities };
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        ...(pull ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
      },
      serverInfo: { name: 'policyset-language-server' },
    };
  });

  connection.languages.diagnostics.on((params, token) => {
    const document = documents.get(params.textDocument.uri);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    if (!document) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    try {
      return { kind: DocumentDiagnosticReportKind.Full, items: diagnose(document) };
    } catch (error) {
      throw new ResponseError(ErrorCodes.InternalError, `validation failed: ${(error as Error).message}`);
    }
  });

  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as { policySet?: { severities?: ServerSettings['severities'] } } | undefined)?.policySet;
    if (section?.severities) settings = { severities: section.severities };
    if (pull) void connection.languages.diagnostics.refresh();
    else documents.all().forEach(schedule);
  });

  documents.onDidOpen((event) => {
    if (!pull) publish(event.document);
  });
  documents.onDidChangeContent((event) => schedule(event.document));
  documents.onDidClose((event) => {
    clearTimeout(timers.get(event.document.uri));
    timers.delete(event.document.uri);
    if (!pull) void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  documents.listen(connection);
  connection.listen();
}
