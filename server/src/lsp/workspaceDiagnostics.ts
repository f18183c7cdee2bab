// Workspace diagnostics: every policy document of the workspace folders, checked as `policyset lint
// <folder>` checks it (the host's WorkspaceLinter: lsp/node/workspaceLint.ts), open or not. A client that
// pulls gets them through LSP 3.17's workspace/diagnostic (previousResultIds answered with unchanged
// reports, partial results streamed as files are checked, and, with a partial result token, the request
// held open and fed as files change); to one that only takes pushed diagnostics they are pushed, when
// policySet.validate.workspace is on. Nothing runs until one of them asks: with the setting off and no
// workspace pull, the server does what it did before.
//
// Live: changes (watched files, edits of open documents) are gathered for a moment (a branch switch's
// thousand events make one batch) and re-check the changed files and the files whose last check read what
// they add (see workspaceLint.ts). The check yields to waiting messages between files, so a keystroke in an
// open document is answered while the workspace is being checked; a file that changes again before its
// turn is checked once, with its newest text.
import type {
  CancellationToken,
  Connection,
  ResultProgressReporter,
  TextDocuments,
  WorkDoneProgressReporter,
  WorkspaceDiagnosticReport,
  WorkspaceDocumentDiagnosticReport,
  WorkspaceDiagnosticReportPartialResult,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isConfigChange, type FileChange, type WorkspaceFileReport, type WorkspaceLinter } from './serverHost';
import { WORKSPACE_PROGRESS_NOTIFICATION, WORKSPACE_STATS_REQUEST, type WorkspaceProgress, type WorkspaceStats } from './protocol';
import { cancelled } from './runner';

/** Changes are gathered this long: a burst (a branch switch, a pull) is checked as one batch. */
export const WORKSPACE_CHANGE_DEBOUNCE_MS = 150;
/** Partial results go out in chunks of this many files, or after this long. */
const PARTIAL_CHUNK = 200;
const PARTIAL_FLUSH_MS = 50;
/** The language status is told of progress at most this often. */
const PROGRESS_MS = 100;

export interface WorkspaceDiagnosticsContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  linter: WorkspaceLinter;
  /** Whether the client pulls diagnostics (else they are pushed). */
  pull: boolean;
  folders(): string[];
  /** policySet.validate.workspace: undefined is as the client can (pull: on; push: off). */
  setting(): boolean | undefined;
  yieldToEvents(): Promise<void>;
  /** Collections once quiet after bulk work (see IdleCollection): each file checked counts its bytes. */
  idleCollection: { note(work?: number): void };
}

export interface WorkspaceDiagnostics {
  /** The client is ready: pushing starts if the setting asks for it. */
  initialized(): void;
  filesChanged(changes: FileChange[]): void;
  foldersChanged(): void;
  /** `recheck`: settings the checks read changed (severities, cloud). */
  settingsChanged(recheck: boolean): void;
}

export function registerWorkspaceDiagnostics(context: WorkspaceDiagnosticsContext): WorkspaceDiagnostics {
  const { connection, documents, linter, pull } = context;
  const enabled = () => context.setting() ?? pull;
  let loaded: Promise<void> | undefined;
  let isLoaded = false;
  const ensureLoaded = () =>
    (loaded ??= linter
      .load(context.folders(), () => context.yieldToEvents())
      .then(
        () => {
          isLoaded = true;
        },
        (error: Error) => connection.console.error(`workspace diagnostics: finding the workspace's files failed: ${error.message}`),
      ));

  /** Requests held open (pull with a partial result token) wait here for the next change. */
  let waiters: Array<() => void> = [];
  const waitForChange = (token: CancellationToken) =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      token.onCancellationRequested(() => resolve());
    });

  // --- Progress: the extension's language status, and the pull's work-done progress.
  let runChecked = 0;
  let runTotal = 0;
  let lastProgress = 0;
  const progress = (done: boolean) => {
    const now = performance.now();
    if (!done && now - lastProgress < PROGRESS_MS) return;
    lastProgress = now;
    const params: WorkspaceProgress = { checked: runChecked, total: runTotal, done, files: linter.stats.files };
    void connection.sendNotification(WORKSPACE_PROGRESS_NOTIFICATION, params);
  };

  /** One check of the files waiting, reported through `report`; `keepGoing` is asked between files. */
  let checking: Promise<void> | undefined;
  const checkPending = async (
    report: (r: WorkspaceFileReport) => void,
    keepGoing: () => boolean = enabled,
    onProgress?: (checked: number, total: number) => void,
  ): Promise<void> => {
    // One run at a time: a second asker waits for the first, then checks what is left.
    while (checking) await checking;
    if (!linter.pending()) return;
    runChecked = 0;
    runTotal = linter.pending();
    const run = linter.checkPending(
      async () => {
        await context.yieldToEvents();
        runTotal = Math.max(runTotal, runChecked + linter.pending());
        progress(false);
        onProgress?.(runChecked, runTotal);
        return keepGoing();
      },
      (r) => {
        runChecked++;
        context.idleCollection.note(r.size);
        report(r);
      },
    );
    checking = run;
    try {
      await run;
    } finally {
      checking = undefined;
      progress(true);
    }
  };

  // --- Changes, gathered (see WORKSPACE_CHANGE_DEBOUNCE_MS).
  let gathered: FileChange[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wake = () => {
    const waiting = waiters;
    waiters = [];
    for (const resolve of waiting) resolve();
  };
  /**
   * Something changed: the files to check are checked now, in the background (pull: so that the results are
   * ready when the client asks, and a held request is woken with them; push: and pushed).
   */
  const changed = () => {
    if (!pull) return void push();
    if (!enabled() || !isLoaded) return wake();
    void checkPending(() => undefined).then(wake, wake);
  };
  const gather = (changes: FileChange[]) => {
    if (!isLoaded) return;
    gathered.push(...changes);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = gathered;
      gathered = [];
      // A config file governs its folder's every file: found and checked again.
      if (batch.some((c) => isConfigChange(c.uri))) {
        reload();
        return;
      }
      if (linter.changed(batch).changed) changed();
    }, WORKSPACE_CHANGE_DEBOUNCE_MS);
  };
  const reload = () => {
    if (!loaded) return;
    isLoaded = false;
    loaded = undefined;
    void ensureLoaded().then(changed);
  };

  /** Push: what was pushed of each file (its result id). */
  const pushed = new Map<string, string>();
  documents.onDidOpen((event) => {
    const uri = event.document.uri;
    linter.opened(uri, () => documents.get(uri)?.getText() ?? '');
  });
  documents.onDidChangeContent((event) => {
    // An open document's text is what the files depending on it are checked against.
    if (isLoaded && linter.knows(event.document.uri)) gather([{ uri: event.document.uri, type: 2 }]);
  });
  /** What each held request's client holds: a closed document's report is sent again whatever it holds. */
  const heldByRequest = new Set<Map<string, string>>();
  documents.onDidClose((event) => {
    // Its text on disk is what counts again, and it is reported with the workspace's files (the client
    // cleared what the document diagnostics said of it).
    const uri = event.document.uri;
    pushed.delete(uri);
    for (const held of heldByRequest) held.delete(uri);
    // Told whether or not the workspace is checked: it forgets the document either way.
    const closed = linter.closed(uri);
    if (isLoaded && closed.changed) changed();
  });

  // --- Push: every file's diagnostics, sent when they differ from what was sent.
  let pushing = false;
  const push = async () => {
    if (pull || pushing) return;
    pushing = true;
    try {
      if (!enabled()) {
        for (const uri of pushed.keys()) if (!documents.get(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
        pushed.clear();
        return;
      }
      await ensureLoaded();
      while (enabled()) {
        for (const file of linter.takeRemoved()) {
          const uri = linter.uriOf(file);
          if (pushed.delete(uri) && !documents.get(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
        }
        if (!linter.pending()) break;
        await checkPending((r) => {
          if (pushed.get(r.uri) === r.resultId || documents.get(r.uri)) return;
          pushed.set(r.uri, r.resultId);
          void connection.sendDiagnostics({ uri: r.uri, diagnostics: r.diagnostics() });
        });
      }
    } finally {
      pushing = false;
    }
    // Turned off meanwhile: what was pushed is taken back.
    if (!enabled() && pushed.size) void push();
  };

  // --- Pull: workspace/diagnostic.
  if (pull) {
    connection.languages.diagnostics.onWorkspace(async (params, token, workDone, resultProgress) => {
      // The library takes partialResultToken out of the params and hands a reporter instead.
      const streaming = resultProgress !== undefined;
      /** What the client holds, by URI: updated as reports go out. */
      const held = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
      heldByRequest.add(held);
      try {
        return await answer(held, streaming, token, workDone, resultProgress);
      } finally {
        heldByRequest.delete(held);
      }
    });
  }

  /** A workspace/diagnostic's answer; `held`: what the client holds, by URI, updated as reports go out. */
  async function answer(
    held: Map<string, string>,
    streaming: boolean,
    token: CancellationToken,
    workDone: WorkDoneProgressReporter,
    resultProgress: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult> | undefined,
  ): Promise<WorkspaceDiagnosticReport> {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    let chunk: WorkspaceDocumentDiagnosticReport[] = [];
    let lastFlush = performance.now();
    const flush = () => {
      if (chunk.length) resultProgress?.report({ items: chunk } satisfies WorkspaceDiagnosticReportPartialResult);
      chunk = [];
      lastFlush = performance.now();
    };
    const emit = (item: WorkspaceDocumentDiagnosticReport) => {
      held.set(item.uri, item.resultId ?? '');
      if (!streaming) return void items.push(item);
      chunk.push(item);
      if (chunk.length >= PARTIAL_CHUNK || performance.now() - lastFlush > PARTIAL_FLUSH_MS) flush();
    };
    const full = (r: WorkspaceFileReport): WorkspaceDocumentDiagnosticReport => ({
      kind: 'full',
      uri: r.uri,
      version: null,
      resultId: r.resultId,
      items: r.diagnostics(),
    });
    /** Unchanged where the client holds this result already. */
    const report = (r: WorkspaceFileReport): WorkspaceDocumentDiagnosticReport =>
      held.get(r.uri) === r.resultId ? { kind: 'unchanged', uri: r.uri, version: null, resultId: r.resultId } : full(r);
    /** A file the client holds diagnostics of that is no longer checked (deleted, ignored, the check turned off): cleared. */
    const clearGone = (all: boolean) => {
      for (const [uri, resultId] of held) {
        if (resultId === 'none' || documents.get(uri) || (!all && linter.knows(uri))) continue;
        emit({ kind: 'full', uri, version: null, resultId: 'none', items: [] });
      }
    };
    let first = true;
    for (;;) {
      if (token.isCancellationRequested) throw cancelled();
      if (!enabled()) {
        clearGone(true);
        flush();
        if (!streaming) return { items };
        await waitForChange(token);
        continue;
      }
      await ensureLoaded();
      if (first) {
        // What is known and current first (unchanged where the client holds it), then the files to check.
        for (const r of linter.reports()) emit(report(r));
        const total = linter.pending();
        if (total) workDone.begin('Policy Set: checking the workspace', 0, `0 of ${total.toLocaleString('en-US')} files`, true);
        await checkPending(
          (r) => emit(report(r)),
          () => enabled() && !token.isCancellationRequested,
          (n, of) =>
            workDone.report(
              Math.floor((n / Math.max(of, 1)) * 100),
              `Checking ${n.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} files`,
            ),
        );
        if (total) workDone.done();
        first = false;
      } else {
        await checkPending(
          (r) => {
            if (held.get(r.uri) !== r.resultId) emit(full(r));
          },
          () => enabled() && !token.isCancellationRequested,
        );
      }
      // Files a check in the background (after a change) or another request checked meanwhile.
      for (const r of linter.reports()) if (held.get(r.uri) !== r.resultId) emit(report(r));
      clearGone(false);
      flush();
      if (token.isCancellationRequested) throw cancelled();
      if (!streaming) return { items };
      // Held open: the next change is reported through the same request.
      if (!linter.pending()) await waitForChange(token);
    }
  }

  connection.onRequest(WORKSPACE_STATS_REQUEST, (): WorkspaceStats => ({ enabled: enabled(), loaded: isLoaded, ...linter.stats }));

  return {
    initialized: () => {
      if (!pull && enabled()) void push();
    },
    filesChanged: gather,
    foldersChanged: reload,
    settingsChanged: (recheck) => {
      if (isLoaded && recheck) linter.recheckAll();
      if (pull) changed();
      else void push();
    },
  };
}
