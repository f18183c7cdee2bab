import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { suite, test, suiteSetup, suiteTeardown } from 'mocha';
import { CHANGES_SCREENSHOT, VERSIONS_SUITE } from './suiteNames';
import { askRunner } from './localService';
import { codeOf, poll, waitForDiagnostic, workspaceFile } from './helpers';

const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';

function set(version: string, withTag: boolean): string {
  return JSON.stringify(
    {
      name: 'e2e-versioned',
      properties: {
        displayName: 'E2E versioned set',
        version,
        parameters: {
          effect: { type: 'String', defaultValue: 'Audit', allowedValues: ['Audit', 'Disabled'] },
          ...(withTag ? { tagName: { type: 'String' } } : {}),
        },
        policyDefinitions: [
          {
            policyDefinitionReferenceId: 'ref1',
            policyDefinitionId: DEF_A,
            parameters: {
              effect: { value: "[parameters('effect')]" },
              ...(withTag ? { tagName: { value: "[parameters('tagName')]" } } : {}),
            },
          },
        ],
      },
    },
    null,
    2,
  );
}

interface GitApi {
  openRepository?(root: vscode.Uri): Promise<unknown>;
  getRepository(uri: vscode.Uri): unknown;
}

suite(VERSIONS_SUITE, () => {
  const folder = () => workspaceFile('versioned');
  const file = () => vscode.Uri.joinPath(folder(), 'set.json');

  suiteSetup(async () => {
    // A repository of its own inside the workspace: the set committed at 1.2.3, then a parameter removed under 1.3.0.
    const root = folder().fsPath;
    fs.mkdirSync(root, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', ...args], {
        cwd: root,
        stdio: 'pipe',
      });
    git('init', '-q');
    fs.writeFileSync(path.join(root, 'set.json'), set('1.2.3', true));
    git('add', '-A');
    git('commit', '-q', '-m', 'set');
    fs.writeFileSync(path.join(root, 'set.json'), set('1.3.0', false));
    const api = (await vscode.extensions.getExtension<{ getAPI(v: 1): GitApi }>('vscode.git')!.activate()).getAPI(1);
    await api.openRepository?.(folder());
    await poll('the git extension to know the repository', () => (api.getRepository(file()) ? true : undefined), 20_000);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('PS3006 on the version of a set changed since HEAD, and the quick fix writes 2.0.0', async () => {
    const document = await vscode.workspace.openTextDocument(file());
    await vscode.window.showTextDocument(document);
    const diagnostic = await waitForDiagnostic(file(), 'PS3006', 30_000);
    assert.equal(document.lineAt(diagnostic.range.start.line).text.trim(), '"version": "1.3.0",');
    assert.match(diagnostic.message, /since HEAD \(1\.2\.3\)/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      file(),
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title === "Change the version to '2.0.0'");
    assert.ok(fix?.edit, `the fix is offered; got ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(document.getText(), /"version": "2\.0\.0"/);
    await poll('PS3006 to go away', () => (vscode.languages.getDiagnostics(file()).some((d) => codeOf(d) === 'PS3006') ? undefined : true));
  });

  test('Show Changes Against HEAD: the report, grouped by bump, in a page beside the editor', async () => {
    const document = await vscode.workspace.openTextDocument(file());
    await vscode.window.showTextDocument(document);
    const answer = await vscode.commands.executeCommand<{
      compared: boolean;
      reports: Array<{ requiredBump: string; versionOk: boolean; changes: Array<{ kind: string; bump: string }> }>;
    }>('policySet.showChangesAgainstHead');
    assert.ok(answer?.compared, 'compared with the committed text');
    assert.equal(answer.reports[0].requiredBump, 'major');
    assert.equal(answer.reports[0].versionOk, true, 'after the quick fix, 2.0.0');
    assert.ok(answer.reports[0].changes.some((c) => c.kind === 'parameter-removed' && c.bump === 'major'));
    const tab = await poll(
      'the report tab',
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.label === 'Changes: versioned/set.json' && t.input instanceof vscode.TabInputWebview) ?? undefined,
    );
    assert.ok(tab);
  });

  test('Show Changes Against HEAD from the palette, as a person runs it: a readable page, grouped by bump, each change with its line', async () => {
    const document = await vscode.workspace.openTextDocument(file());
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.closeEditorsInOtherGroups');
    await askRunner({ kind: 'runCommand', title: 'Policy Set: Show Changes Against HEAD' });
    const page = (await askRunner({ kind: 'readPage', text: 'existing assignments break', name: CHANGES_SCREENSHOT })).text ?? '';
    assert.match(page, /Changes of versioned\/set\.json against HEAD/);
    assert.match(page, /Major \(1\): existing assignments break/);
    assert.match(page, /Parameter 'tagName' is removed/);
    assert.match(page, /parameter-removed · line \d+ \(removed from here\)/);
    assert.match(page, /1\.2\.3 → 2\.0\.0/);
    assert.doesNotMatch(page, /"kind"|"bump"/, 'not raw JSON');
  });
});
