import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test, suiteTeardown } from 'mocha';
import { SERVER_FEATURES_SUITE } from './suiteNames';
import { codeOf, open, openDocument, poll, positionAfter, waitForDiagnostic } from './helpers';

suite(SERVER_FEATURES_SUITE, () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('completion inside metadata.strongType offers the documented values', async () => {
    const uri = await open('undefinedGroup.json');
    await waitForDiagnostic(uri, 'PS5001');
    const document = openDocument(uri)!;
    const position = positionAfter(document, '"strongType": "');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position);
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label).replace(/"/g, ''));
    for (const value of ['location', 'resourceTypes'])
      assert.ok(labels.includes(value), `'${value}' is offered; got ${JSON.stringify(labels.slice(0, 30))}`);
  });

  test('a quick fix declares the undefined group in policyDefinitionGroups', async () => {
    const uri = await open('undefinedGroup.json');
    const diagnostic = await waitForDiagnostic(uri, 'PS5001');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix =
      actions.find((action) => action.title.includes('Monitoring') && (action.diagnostics ?? []).some((d) => codeOf(d) === 'PS5001')) ??
      actions.find((action) => action.title.includes('Monitoring'));
    assert.ok(fix, `a quick fix for PS5001 names the group; got ${JSON.stringify(actions.map((a) => a.title))}`);
    if (fix.edit) assert.ok(await vscode.workspace.applyEdit(fix.edit), 'the edit applies');
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const document = openDocument(uri)!;
    const declared = (
      JSON.parse(document.getText()) as { properties: { policyDefinitionGroups: Array<{ name: string }> } }
    ).properties.policyDefinitionGroups.map((g) => g.name);
    assert.deepEqual(declared.sort(), ['Monitoring', 'Network']);
    await poll('PS5001 to go away', () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'PS5001') ? undefined : true));
  });
});
