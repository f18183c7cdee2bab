import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { EVALUATE_SAMPLES_COMMAND, FIXTURE_RESULTS_REQUEST, type FixtureResultsAnswer } from '#protocol';

export { EVALUATE_SAMPLES_COMMAND };

interface SampleItem extends vscode.QuickPickItem {
  /** Where the expectation is in its fixture. */
  at?: { uri: string; line: number; character: number };
}

/** One item per expectation (its outcome, and the member's result in one sentence), under a separator per fixture. */
export function sampleItems(answer: FixtureResultsAnswer, nameOf: (uri: string) => string): SampleItem[] {
  const items: SampleItem[] = [];
  for (const fixture of answer.fixtures) {
    items.push({ label: nameOf(fixture.uri), kind: vscode.QuickPickItemKind.Separator });
    if (fixture.error)
      items.push({ label: '$(error) the fixture cannot run', detail: fixture.error, at: { uri: fixture.uri, line: 0, character: 0 } });
    for (const c of fixture.cases)
      for (const e of c.expectations)
        items.push({
          label: `${e.passed ? '$(pass)' : '$(error)'} ${e.referenceId}: ${e.actual ?? 'no such member'}`,
          description: `${c.name}${e.resource ? ` (${e.resource})` : ''}${e.passed ? '' : `: expected ${e.expected}`}`,
          detail: e.explanation ?? e.reason,
          at: { uri: fixture.uri, line: e.range.start.line, character: e.range.start.character },
        });
  }
  return items;
}

/**
 * The code lens "evaluate N samples: k fail" on a set or definition runs this: the fixtures that name it, run by
 * the language server (policySet/fixtureResults), each expectation in a quick pick; picking one opens the fixture
 * at it. From the palette it takes the active editor's file.
 */
export function registerEvaluateSamples(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(EVALUATE_SAMPLES_COMMAND, async (arg?: { uri?: unknown } | vscode.Uri) => {
      const uri =
        arg instanceof vscode.Uri
          ? arg.toString()
          : typeof arg?.uri === 'string'
            ? arg.uri
            : vscode.window.activeTextEditor?.document.uri.toString();
      if (!uri) {
        void vscode.window.showInformationMessage('Open a policy set or definition that fixtures (*.policytest.json) name.');
        return undefined;
      }
      let answer: FixtureResultsAnswer;
      try {
        answer = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Evaluating samples' }, () =>
          client.sendRequest<FixtureResultsAnswer>(FIXTURE_RESULTS_REQUEST, { textDocument: { uri } }),
        );
      } catch (error) {
        void vscode.window.showErrorMessage(`Policy Set: the samples could not be evaluated: ${(error as Error).message}`);
        return undefined;
      }
      if (!answer.fixtures.length) {
        void vscode.window.showInformationMessage('No fixture (*.policytest.json) of the workspace names this file as its target.');
        return answer;
      }
      const items = sampleItems(answer, (fixture) => vscode.workspace.asRelativePath(vscode.Uri.parse(fixture)));
      const failed = items.filter((i) => i.label.startsWith('$(error)')).length;
      const picked = await vscode.window.showQuickPick(items, {
        title: `Samples of ${vscode.workspace.asRelativePath(vscode.Uri.parse(uri))}: ${failed ? `${failed} failed` : 'all pass'}`,
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (picked?.at) {
        const position = new vscode.Position(picked.at.line, picked.at.character);
        await vscode.window.showTextDocument(vscode.Uri.parse(picked.at.uri), { selection: new vscode.Range(position, position) });
      }
      return answer;
    }),
  );
}
