/// <reference types="mocha" />
// The extension in VS Code for the Web (test-web, headless Chromium): the workspace folder is
// test/web/fixtures/workspace, mounted at vscode-test-web://mount/. Nothing here reads a disk: the server
// runs in a Web Worker and learns the custom definition from the files the extension sends it.
import * as vscode from 'vscode';
import { RESULT_PREFIX } from './protocol';

const EXTENSION_ID = 'policyset.policy-set-tools';
/** The Done-when: each finding within 20 s of opening. */
const WITHIN_MS = 20_000;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const fileUri = (name: string) => vscode.Uri.joinPath(folder(), name);

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = WITHIN_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** [code, 0-based line] of each diagnostic. */
const found = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).map((d) => `${codeOf(d)}@${d.range.start.line}`);

function positionAfter(document: vscode.TextDocument, text: string, occurrence = 1): vscode.Position {
  let at = -1;
  for (let i = 0; i < occurrence; i++) at = document.getText().indexOf(text, at + 1);
  check(at >= 0, `'${text}' is in ${document.uri.toString()}`);
  return document.positionAt(at + text.length);
}

const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label).replace(/"/g, '');
const hoverText = (hovers: vscode.Hover[]) =>
  hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');

suite('web: the extension in VS Code for the Web', () => {
  suiteTeardown(async () => {
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a set with mistakes: the undeclared group, the undeclared parameter and the parameter the custom definition does not declare, each on its line', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    check(extension, `${EXTENSION_ID} is installed`);
    const activeBefore = extension.isActive;
    const opened = Date.now();
    const document = await vscode.workspace.openTextDocument(fileUri('tagging.json'));
    await vscode.window.showTextDocument(document);
    // tagging.json: "groupNames": ["Tags", "Cost"] on line 22, "tagValue": [parameters('tagValue')] on line 20 (1-based).
    const first = await waitFor('the first diagnostics', () => (found(document.uri).length ? Date.now() : undefined));
    const expected = ['PS5001@21', 'PS7001@19', 'PS8001@19'];
    const all = await waitFor(`${expected.join(', ')} (got ${JSON.stringify(found(document.uri))})`, () =>
      expected.every((e) => found(document.uri).includes(e)) ? Date.now() : undefined,
    );
    check(extension.isActive, 'the extension is active');
    // Detected by content, the set is switched to the policyset language (a new document object).
    const languageId = vscode.workspace.textDocuments.find((d) => d.uri.toString() === document.uri.toString())?.languageId;
    check(languageId === 'policyset', `the set is in the policyset language (is ${languageId})`);
    console.log(
      `${RESULT_PREFIX}metric ${JSON.stringify({ activatedByOpening: !activeBefore, openToFirstDiagnosticsMs: first - opened, openToCrossFileDiagnosticMs: all - opened })}`,
    );
  });

  test('completion offers the declared groups in groupNames, and hover describes the referenced custom definition', async () => {
    const document = await vscode.workspace.openTextDocument(fileUri('tagging.json'));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      positionAfter(document, '"groupNames": ["'),
    );
    const labels = list.items.map(labelOf);
    check(labels.includes('Tags'), `'Tags' is offered in groupNames; got ${JSON.stringify(labels.slice(0, 20))}`);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      positionAfter(document, 'policyDefinitions/require-'),
    );
    const text = hoverText(hovers);
    check(
      text.includes('Require a tag on resources'),
      `the hover names the custom definition (read from the workspace); got ${JSON.stringify(text)}`,
    );
  });

  test('rename of a group renames its declaration and its uses', async () => {
    const document = await vscode.workspace.openTextDocument(fileUri('tagging.json'));
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      document.uri,
      positionAfter(document, '{ "name": "T'),
      'Tagging',
    );
    const edits = edit.get(document.uri);
    check(edits.length === 2, `two edits (the declaration and the use); got ${JSON.stringify(edits)}`);
    check(
      edits.every((e) => e.newText === 'Tagging' && document.getText(e.range) === 'Tags'),
      `each replaces 'Tags' by 'Tagging'; got ${JSON.stringify(edits.map((e) => [document.getText(e.range), e.newText]))}`,
    );
    check(await vscode.workspace.applyEdit(edit), 'the rename applies');
    check(document.getText().includes('"groupNames": ["Tagging", "Cost"]'), 'the use is renamed in the text');
  });

  test('a definition changed in the workspace reaches the server: declaring the parameter clears PS8001', async () => {
    const definition = fileUri('definitions/require-tag.json');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(definition));
    const declared = text.replace(
      '"parameters": {',
      '"parameters": {\n      "tagValue": { "type": "String", "metadata": { "displayName": "Tag value" } },',
    );
    check(declared !== text, 'the definition has a parameters object');
    const set = fileUri('tagging.json');
    try {
      await vscode.workspace.fs.writeFile(definition, new TextEncoder().encode(declared));
      await waitFor(`PS8001 to go away (got ${JSON.stringify(found(set))})`, () =>
        found(set).some((f) => f.startsWith('PS8001')) ? undefined : true,
      );
    } finally {
      await vscode.workspace.fs.writeFile(definition, new TextEncoder().encode(text));
    }
    await waitFor(`PS8001 to come back (got ${JSON.stringify(found(set))})`, () => (found(set).includes('PS8001@19') ? true : undefined));
  });
});
