// Rename and find references from a set to its consumers through the real language server over stdio: a
// workspace with the real policy-as-code set and assignment (test/fixtures/consumers) and a landing-zone
// assignment of another set. The rename edits the set and the assignment that passes the parameter, in one
// WorkspaceEdit, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Location, WorkspaceEdit } from 'vscode-languageserver-types';
import { startLanguageServer } from '../support/lspClient';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');

function positionOf(text: string, needle: string, shift = 2) {
  const offset = text.indexOf(needle) + shift;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

test('rename of a set parameter edits every consumer in the workspace that passes it; find references lists them', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-lsp-consumers-'));
  try {
    fs.cpSync(FIXTURES, root, { recursive: true });
    const setPath = path.join(root, 'epac', 'policySetDefinitions', 'allowed-locations-initiative.jsonc');
    const assignmentPath = path.join(root, 'epac', 'policyAssignments', 'allowed-locations-assignments.jsonc');
    const setText = fs.readFileSync(setPath, 'utf8');
    const assignmentText = fs.readFileSync(assignmentPath, 'utf8');
    const setUri = pathToFileURL(setPath).href;
    const assignmentUri = pathToFileURL(assignmentPath).href;
    const client = await startLanguageServer({ rootUri: pathToFileURL(root).href });
    client.notify('textDocument/didOpen', { textDocument: { uri: setUri, languageId: 'policyset', version: 1, text: setText } });
    const at = positionOf(setText, '"AllowedLocations": {');
    // The workspace scan runs after the first diagnostics: asked until the consumer is known (10 s at most).
    let edit: WorkspaceEdit | null | undefined;
    for (let i = 0; i < 100; i++) {
      edit = (
        await client.request<WorkspaceEdit>('textDocument/rename', {
          textDocument: { uri: setUri },
          position: at,
          newName: 'allowedRegions',
        })
      ).result;
      if (edit?.changes?.[assignmentUri]) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(
      Object.keys(edit?.changes ?? {}).sort(),
      [assignmentUri, setUri].sort(),
      'the set and its one consumer, no other file',
    );
    const renamed = TextDocument.applyEdits(TextDocument.create(assignmentUri, 'json', 1, assignmentText), edit!.changes![assignmentUri]);
    assert.equal(renamed, assignmentText.replace('"AllowedLocations"', '"allowedRegions"'));
    const setRenamed = TextDocument.applyEdits(TextDocument.create(setUri, 'json', 1, setText), edit!.changes![setUri]);
    assert.equal(
      setRenamed,
      setText
        .replace('"AllowedLocations": {', '"allowedRegions": {')
        .replaceAll("parameters('AllowedLocations')", "parameters('allowedRegions')"),
    );

    const references = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: setUri },
      position: at,
      context: { includeDeclaration: true },
    });
    assert.deepEqual([...new Set((references.result ?? []).map((l) => l.uri))].sort(), [assignmentUri, setUri].sort());
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
