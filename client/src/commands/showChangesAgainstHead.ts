import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CHANGE_REPORT_REQUEST, type ChangeReportAnswer, type Bump, type ProtocolRange as Range } from '#protocol';
import type { CommittedText } from '../committedText';

export const SHOW_CHANGES_COMMAND = 'policySet.showChangesAgainstHead';
/** Opens a document at a line: the report's links (command URIs, not in the palette). */
export const REVEAL_CHANGE_COMMAND = 'policySet.revealChange';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const BUMP_TITLES: Record<Exclude<Bump, 'none'>, { title: string; why: string }> = {
  major: { title: 'Major', why: 'existing assignments break' },
  minor: { title: 'Minor', why: 'existing assignments keep working' },
  patch: { title: 'Patch', why: 'words and metadata' },
};

/** The report as a page: a summary per set, then the changes grouped by bump, each linked to its line. */
export function renderChangeReport(answer: ChangeReportAnswer, document: { uri: string; name: string }): string {
  const link = (range: Range, text: string) => {
    const args = encodeURIComponent(JSON.stringify([document.uri, range.start.line, range.start.character]));
    return `<a href="command:${REVEAL_CHANGE_COMMAND}?${args}" title="Go to line ${range.start.line + 1}">${escape(text)}</a>`;
  };
  const body: string[] = [`<h1>Changes of ${escape(document.name)} against ${escape(answer.label ?? 'HEAD')}</h1>`];
  if (!answer.compared)
    body.push(
      `<p class="note">This file has no committed version to compare with (it is not in a git repository, not committed yet, or the comparison is off: <code>policySet.versions.compareWithHead</code>).</p>`,
    );
  else if (answer.problem) body.push(`<p class="note">Nothing compared: ${escape(answer.problem)}</p>`);
  for (const report of answer.reports) {
    const versions = `${escape(report.oldVersion ?? 'no version')} &rarr; ${escape(report.newVersion ?? 'no version')}`;
    const verdict =
      report.versionOk === true
        ? '<span class="ok">Version ok</span>'
        : report.versionOk === false
          ? `<span class="bad">${escape(report.versionProblem ?? 'the version is not bumped enough')}</span>`
          : escape(report.versionProblem ?? '');
    const suggested =
      report.suggestedVersion && report.requiredBump !== 'none'
        ? ` Suggested version: <code>${escape(report.suggestedVersion)}</code>.`
        : '';
    const versionLink =
      report.versionLine !== null
        ? ` (${link({ start: { line: report.versionLine, character: 0 }, end: { line: report.versionLine, character: 0 } }, `line ${report.versionLine + 1}`)})`
        : '';
    body.push(
      `<p class="summary"><strong>${report.requiredBump === 'none' ? 'No change that needs a new version' : `A ${report.requiredBump} change`}</strong>: ${versions}${versionLink}. ${verdict}.${suggested}</p>`,
    );
    if (!report.changes.length)
      body.push('<p>No changes that assignments can see (formatting, key order and whitespace are not changes).</p>');
    for (const bump of ['major', 'minor', 'patch'] as const) {
      const changes = report.changes.filter((c) => c.bump === bump);
      if (!changes.length) continue;
      body.push(`<h2 class="${bump}">${BUMP_TITLES[bump].title} (${changes.length}): ${BUMP_TITLES[bump].why}</h2><ul>`);
      for (const change of changes) {
        const where =
          change.side === 'old' ? `line ${change.range.start.line + 1} (removed from here)` : `line ${change.range.start.line + 1}`;
        body.push(
          `<li>${escape(change.message)} <span class="meta">${escape(change.kind)} &middot; ${link(change.range, where)}</span></li>`,
        );
      }
      body.push('</ul>');
    }
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<title>${escape(document.name)}: changes</title><style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
h2.major { color: var(--vscode-errorForeground); } h2.minor { color: var(--vscode-editorWarning-foreground); } h2.patch { color: var(--vscode-editorInfo-foreground); }
.meta { opacity: 0.75; font-size: 0.9em; margin-left: 0.5em; } .bad { color: var(--vscode-errorForeground); } .note { font-style: italic; }
li { margin: 0.3em 0; }
</style></head><body>${body.join('\n')}</body></html>`;
}

/** The palette command and the reveal command its links run. */
export function registerShowChanges(context: vscode.ExtensionContext, client: LanguageClient, committed: CommittedText): void {
  let panel: vscode.WebviewPanel | undefined;
  context.subscriptions.push(
    // Resolves with the report shown (for tests and other extensions), or undefined when nothing was shown.
    vscode.commands.registerCommand(SHOW_CHANGES_COMMAND, async (uri?: vscode.Uri): Promise<ChangeReportAnswer | undefined> => {
      const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document) {
        void vscode.window.showInformationMessage('Open a policy set file to see its changes against HEAD.');
        return undefined;
      }
      await committed.update(document, true);
      let answer: ChangeReportAnswer;
      try {
        answer = await client.sendRequest<ChangeReportAnswer>(CHANGE_REPORT_REQUEST, { textDocument: { uri: document.uri.toString() } });
      } catch (error) {
        void vscode.window.showErrorMessage(`Policy Set: the change report failed: ${(error as Error).message}`);
        return undefined;
      }
      const name = vscode.workspace.asRelativePath(document.uri);
      if (!panel) {
        panel = vscode.window.createWebviewPanel(
          'policySet.changes',
          '',
          { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
          { enableCommandUris: [REVEAL_CHANGE_COMMAND], enableScripts: false },
        );
        panel.onDidDispose(() => (panel = undefined));
      }
      panel.title = `Changes: ${name}`;
      panel.webview.html = renderChangeReport(answer, { uri: document.uri.toString(), name });
      panel.reveal(vscode.ViewColumn.Beside, true);
      return answer;
    }),
    vscode.commands.registerCommand(REVEAL_CHANGE_COMMAND, async (uri: string, line: number, character = 0) => {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const position = new vscode.Position(Math.max(0, Math.min(line, document.lineCount - 1)), character);
      await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.One,
        selection: new vscode.Range(position, position),
      });
    }),
  );
}
