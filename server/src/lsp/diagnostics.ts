// Diagnostics, pushed or pulled: one interface, two ways, chosen once at initialize by what the client can
// do (registerDiagnostics). A client that pulls (textDocument/diagnostic: VS Code, Neovim 0.10) asks when it
// wants them and is asked to ask again when they may have changed; to one that cannot (Neovim 0.7, Emacs
// eglot 1.9) the server pushes them, on type after a short debounce, and for documents opened (or checked
// again after a settings or definitions change) one at a time in a background queue. In the spirit of
// json-language-features' server/src/utils/validation.ts.
import {
  DocumentDiagnosticReportKind,
  ErrorCodes,
  ResponseError,
  type Connection,
  type Diagnostic,
  type ServerCapabilities,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentChecks } from './checks';
import { cancelled } from './runner';
import type { WorkspaceChecks } from './workspace';

/** Short enough to feel immediate, long enough that a burst of keystrokes is validated once. */
export const DEBOUNCE_MS = 100;
/**
 * Background checks wait while documents are still arriving: until no open, change or close has come for
 * this long (see waitForInput). The client's messages come through a pipe that holds 64 KB: a server that
 * validates while a burst of didOpens is coming in reads one pipeful per slice and leaves the rest waiting.
 */
const INPUT_QUIET_MS = 2;

/** What the rest of the adapter asks of the diagnostics, whichever way they reach the client. */
export interface DiagnosticsSupport extends WorkspaceChecks {
  /** What the server declares for them (pull: diagnosticProvider; push: nothing). */
  readonly capabilities: ServerCapabilities;
  /** One document's inputs changed (its earlier text): check it again now. */
  recheck(document: TextDocument): void;
}

export interface DiagnosticsContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  checks: DocumentChecks;
  /** Whether documents are checked on save only (policySet.validate.run). */
  onSave(): boolean;
  idleCollection: { note(work?: number): void };
  /** Lets waiting messages be handled. */
  yieldToEvents(): Promise<void>;
}

/** Pull when the client can (`textDocument.diagnostic`), push otherwise: the one place that asks. */
export function registerDiagnostics(context: DiagnosticsContext, pull: boolean, workspaceDiagnostics = false): DiagnosticsSupport {
  // The version each document was opened with (the change event that follows an open needs no second run).
  const openedVersions = new Map<string, number>();
  const support = pull ? registerPull(context, openedVersions, workspaceDiagnostics) : registerPush(context);
  const { documents, checks, idleCollection } = context;
  documents.onDidOpen((event) => {
    openedVersions.set(event.document.uri, event.document.version);
    support.opened(event.document);
  });
  documents.onDidChangeContent((event) => {
    idleCollection.note();
    // Also fired on open, whose version is being validated already.
    support.changed(event.document, openedVersions.get(event.document.uri) === event.document.version);
  });
  documents.onDidSave((event) => {
    if (context.onSave()) support.saved(event.document);
  });
  documents.onDidClose((event) => {
    const uri = event.document.uri;
    checks.forget(uri);
    openedVersions.delete(uri);
    support.closed(uri);
  });
  return support;
}

/** The document events each way handles after what both do. */
interface DocumentEvents {
  opened(document: TextDocument): void;
  /** `justOpened`: the change event of an open, whose version is being checked already. */
  changed(document: TextDocument, justOpened: boolean): void;
  /** In onSave mode. */
  saved(document: TextDocument): void;
  closed(uri: string): void;
}

/**
 * The client pulls: nothing is computed until it asks. Changes of what the checks depend on forget the
 * last results and ask the client to pull again (workspace/diagnostic/refresh).
 */
function registerPull(
  context: DiagnosticsContext,
  openedVersions: Map<string, number>,
  workspaceDiagnostics: boolean,
): DiagnosticsSupport & DocumentEvents {
  const { connection, documents, checks, idleCollection } = context;
  const refresh = () => void connection.languages.diagnostics.refresh();
  connection.languages.diagnostics.on((params, token) => {
    if (token.isCancellationRequested) throw cancelled();
    const document = documents.get(params.textDocument.uri);
    if (!document) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    try {
      const last = checks.last(document.uri);
      // A document pulled as it was opened is bulk work when many are (an editor restoring a session): its
      // parse is not kept, as for a document checked in the queue when pushing (a request about it parses again).
      const asOpened = document.version === openedVersions.get(document.uri);
      // In onSave mode a pull between saves answers with the last saved state's diagnostics.
      const items =
        context.onSave() && last?.json !== undefined ? (JSON.parse(last.json) as Diagnostic[]) : checks.diagnose(document, !asOpened);
      idleCollection.note(asOpened ? document.getText().length : 0);
      return { kind: DocumentDiagnosticReportKind.Full, items };
    } catch (error) {
      throw new ResponseError(ErrorCodes.InternalError, `validation failed: ${(error as Error).message}`);
    }
  });
  return {
    // workspaceDiagnostics: the whole workspace through workspace/diagnostic (workspaceDiagnostics.ts), where the host can walk it.
    capabilities: { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics } },
    recheckAll: () => {
      if (context.onSave()) return;
      checks.forgetAll();
      refresh();
    },
    recheck: (document) => {
      checks.forget(document.uri);
      refresh();
    },
    deferUntilOpened: () => false,
    opened: () => undefined,
    changed: () => undefined,
    saved: (document) => {
      checks.forget(document.uri);
      refresh();
    },
    closed: () => undefined,
  };
}

/**
 * The server pushes (textDocument/publishDiagnostics, with the document version). An edited document is
 * checked after a short debounce; documents opened, or checked again after a settings or definitions
 * change, are checked one at a time, in the order they came, opened ones first: a client that opens
 * hundreds at once has one validation's working memory in use, not hundreds. An edited document does not
 * wait for them.
 */
function registerPush(context: DiagnosticsContext): DiagnosticsSupport & DocumentEvents {
  const { connection, documents, checks, idleCollection } = context;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
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
   * Validates and pushes the diagnostics; `keep`: keep the parse (a document being worked on), see DocumentParses;
   * `background`: a check of the queue (opened documents, re-checks), which gives way to input and to edits
   * (`giveWay`) unless it is the one that started the queue.
   */
  const publish = async (document: TextDocument, keep = true, background = false, giveWay = background) => {
    if (!background) foreground++;
    try {
      const pause = async () => {
        await context.yieldToEvents();
        if (giveWay) await waitForInput();
      };
      const diagnostics = await checks.diagnoseInSteps(document, keep, pause);
      // Drop the result when the document changed meanwhile: the newer version has its own run scheduled.
      if (!diagnostics || documents.get(document.uri)?.version !== document.version) return;
      void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    } catch (error) {
      connection.console.error(`validation of ${document.uri} failed: ${(error as Error).message}`);
    } finally {
      if (!background) foreground--;
    }
  };

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

  /** Validates again after a short debounce (an edited document: it does not wait for the queue). */
  const schedule = (document: TextDocument, delay = DEBOUNCE_MS) => {
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

  return {
    capabilities: {},
    recheckAll: () => {
      if (context.onSave()) return;
      documents.all().forEach((d) => publishInBackground(d.uri));
    },
    recheck: (document) => {
      checks.forget(document.uri);
      schedule(document, 0);
    },
    deferUntilOpened: (call) => {
      if (!opening.size) return false;
      whenOpened.push(call);
      return true;
    },
    opened: (document) => {
      arrivals++;
      publishInBackground(document.uri, true);
      for (const sibling of checks.openSiblings(document.uri)) schedule(sibling);
    },
    changed: (document, justOpened) => {
      arrivals++;
      if (justOpened) return;
      for (const sibling of checks.openSiblings(document.uri)) schedule(sibling);
      if (!context.onSave()) schedule(document);
    },
    saved: (document) => schedule(document, 0),
    closed: (uri) => {
      arrivals++;
      clearTimeout(timers.get(uri));
      timers.delete(uri);
      dequeue(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    },
  };
}
