import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test, suiteSetup, suiteTeardown } from 'mocha';
import { codeOf, open, openDocument, poll, waitForDiagnostic } from './helpers';

const EXTENSION_ID = 'policyset.policy-set-tools';

suite('Extension: language and diagnostics', () => {
  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('policySet').update('detectByContent', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a JSON file whose content is a policy set switches to policyset and shows PS5001 on the undefined group', async () => {
    const uri = await open('undefinedGroup.json');
    await poll('the language to become policyset', () => (openDocument(uri)?.languageId === 'policyset' ? true : undefined));
    const diagnostic = await waitForDiagnostic(uri, 'PS5001');
    const document = openDocument(uri)!;
    const line = document
      .getText()
      .split('\n')
      .findIndex((text) => text.includes('"Monitoring"'));
    assert.equal(diagnostic.range.start.line, line, 'on the line of the undefined group');
    assert.equal(document.getText(diagnostic.range).replace(/"/g, ''), 'Monitoring');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.source, 'policyset');
    assert.match(diagnostic.message, /Monitoring/);
    const target = typeof diagnostic.code === 'object' ? diagnostic.code.target : undefined;
    assert.ok(
      target && /docs\/rules\/[a-z-]+\.md$/.test(target.path),
      `the code links to the rule's page in the extension: ${target?.toString()}`,
    );
  });

  test('a .jsonc set of the policy-as-code framework (policyDefinitionName, comments, trailing commas) is policyset and checked as that dialect', async () => {
    const uri = await open('policyAsCodeSet.jsonc');
    await poll('the language to become policyset', () => (openDocument(uri)?.languageId === 'policyset' ? true : undefined));
    const diagnostic = await waitForDiagnostic(uri, 'PS4004');
    assert.equal(openDocument(uri)!.getText(diagnostic.range), '"policyDefinitionName"');
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'policyset')
        .map(codeOf),
      ['PS4004'],
      'no syntax error for comments or trailing commas',
    );
  });

  test('a JSON file under a policySetDefinitions folder is policyset by its path', async () => {
    const uri = await open('policySetDefinitions/byPath.json');
    assert.equal(openDocument(uri)?.languageId, 'policyset');
  });

  test('a JSON file that is no policy set stays JSON and gets no policy set diagnostics', async () => {
    const plain = await open('notAPolicySet.json');
    // The server answers in order: once a policy set opened after it has its diagnostics, the plain file has had
    // its turn. The set is a fresh copy, so that its diagnostics cannot be those an earlier test produced.
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const sentinel = vscode.Uri.joinPath(folder, 'openedAfterThePlainFile.json');
    await vscode.workspace.fs.writeFile(sentinel, await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'undefinedGroup.json')));
    assert.deepEqual(vscode.languages.getDiagnostics(sentinel), [], 'the copy has no diagnostics before it is opened');
    const set = await open(vscode.workspace.asRelativePath(sentinel, false));
    await waitForDiagnostic(set, 'PS5001');
    assert.equal(openDocument(plain)?.languageId, 'json');
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(plain)
        .filter((d) => d.source === 'policyset')
        .map(codeOf),
      [],
    );
  });

  test('with policySet.detectByContent off, a policy set JSON file stays json and is still validated', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('policySet').update('detectByContent', false, vscode.ConfigurationTarget.Workspace);
    // A copy under another name: the first one is still known to the editor as policyset.
    const copy = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'copyOfUndefinedGroup.json');
    await vscode.workspace.fs.writeFile(
      copy,
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'undefinedGroup.json')),
    );
    const uri = await open('copyOfUndefinedGroup.json');
    await waitForDiagnostic(uri, 'PS5001');
    assert.equal(openDocument(uri)?.languageId, 'json');
  });
});
