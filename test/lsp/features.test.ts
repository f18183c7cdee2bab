import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  DocumentSymbol,
  Hover,
  Range,
  Location,
  MarkupContent,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import { startLanguageServer, type LspClient } from '../support/lspClient';

const SET = `{
  "properties": {
    "displayName": "Features",
    "parameters": {
      "effect": { "type": "String", "defaultValue": "Audit", "metadata": { "strongType": "location" } }
    },
    "policyDefinitionGroups": [{ "name": "Network", "category": "Networking" }, { "name": "Storage" }],
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/workspace-def",
        "groupNames": ["Network", "Netwrk"],
        "parameters": { "effect": { "value": "[parameters('effect')]" }, "extra": { "value": 1 } }
      }
    ]
  }
}`;

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; range: Range }>;
}

const positionOf = (text: string, needle: string, delta = 1) =>
  TextDocument.create('x', 'json', 1, text).positionAt(text.indexOf(needle) + delta);
const lineOf = (needle: string) => positionOf(SET, needle).line;

async function open(client: LspClient, uri: string, text: string, version = 1) {
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version, text } });
  return (
    await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === version,
    )
  ).params;
}

describe('language server features over stdio', () => {
  let client: LspClient;
  const uri = 'file:///work/features.json';
  // Started in the suite's body: the helper's cleanup hook belongs to the suite.
  const started = startLanguageServer({
    capabilities: { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } },
  });
  let opened: PublishParams;
  before(async () => {
    client = await started;
    opened = await open(client, uri, SET);
  });

  test('hover on a parameter reference shows the declared parameter', async () => {
    const { result } = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(SET, "parameters('effect')", 13),
    });
    assert.match((result?.contents as MarkupContent).value, /`effect`: String[\s\S]*Default: `"Audit"`[\s\S]*strongType: `location`/);
  });

  test('definition of a group reference lands on the declaration', async () => {
    const { result } = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri },
      position: positionOf(SET, '"Network"', 2),
    });
    // The first "Network" is the declaration; ask from the use.
    const fromUse = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri },
      position: positionOf(SET, '["Network"', 3),
    });
    assert.equal(result?.[0].range.start.line, lineOf('"name": "Network"'));
    assert.equal(fromUse.result?.[0].range.start.line, lineOf('"name": "Network"'));
  });

  test('references of a parameter: declaration and use', async () => {
    const { result } = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri },
      position: positionOf(SET, '"effect": {', 2),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      result?.map((l) => l.range.start.line),
      [lineOf('"effect": { "type"'), lineOf("parameters('effect')")],
    );
  });

  test('rename of a group edits the declaration and every use; a bad rename is refused with an error', async () => {
    const prepared = await client.request<{ placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri },
      position: positionOf(SET, '["Network"', 3),
    });
    assert.equal(prepared.result?.placeholder, 'Network');
    const { result } = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri },
      position: positionOf(SET, '["Network"', 3),
      newName: 'Perimeter',
    });
    const edits = result?.changes?.[uri] ?? [];
    assert.equal(edits.length, 2);
    const renamed = TextDocument.applyEdits(TextDocument.create(uri, 'json', 1, SET), edits);
    assert.match(renamed, /"name": "Perimeter"/);
    assert.match(renamed, /\["Perimeter", "Netwrk"\]/);
    const refused = await client.request('textDocument/rename', {
      textDocument: { uri },
      position: positionOf(SET, '"Features"'),
      newName: 'x',
    });
    assert.ok(refused.error, 'renaming a display name is refused');
  });

  test('outline, folding and formatting', async () => {
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      symbols.result?.[0].children?.map((c) => c.name),
      ['parameters', 'policyDefinitionGroups', 'policyDefinitions'],
    );
    const folding = await client.request<unknown[]>('textDocument/foldingRange', { textDocument: { uri } });
    assert.ok((folding.result?.length ?? 0) > 3);
    const formatted = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 4, insertSpaces: true },
    });
    const text = TextDocument.applyEdits(TextDocument.create(uri, 'json', 1, SET), formatted.result ?? []);
    assert.deepEqual(JSON.parse(text), JSON.parse(SET));
    assert.match(text, /\n {4}"properties"/);
  });

  test('completion: strongType values, declared groups, set parameters in parameters()', async () => {
    const labels = async (needle: string, delta: number) => {
      const { result } = await client.request<{ items: Array<{ label: string }> }>('textDocument/completion', {
        textDocument: { uri },
        position: positionOf(SET, needle, delta),
      });
      return result?.items.map((i) => i.label) ?? [];
    };
    const strongTypes = await labels('"strongType": "location"', 15);
    assert.ok(strongTypes.includes('location') && strongTypes.includes('resourceTypes'), strongTypes.join());
    assert.deepEqual(await labels('"Netwrk"', 1), ['Storage'], 'declared groups not yet in the list');
    assert.ok((await labels("parameters('effect')", 12)).includes('effect'));
  });

  test('a quick fix declares the missing group', async () => {
    const diagnostic = opened.diagnostics.find((d) => d.code === 'PS5001');
    assert.ok(diagnostic);
    const { result } = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const declare = result?.find((a) => /declare/i.test(a.title));
    assert.ok(declare?.edit?.changes?.[uri], JSON.stringify(result?.map((a) => a.title)));
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'json', 1, SET), declare.edit.changes[uri]);
    client.notify('textDocument/didChange', { textDocument: { uri: `${uri}`, version: 2 }, contentChanges: [{ text: fixed }] });
    const after = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 2,
    );
    assert.ok(!after.params.diagnostics.some((d) => d.code === 'PS5001'));
    client.notify('textDocument/didChange', { textDocument: { uri: `${uri}`, version: 3 }, contentChanges: [{ text: SET }] });
    await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 3,
    );
    const none = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: ['refactor'] },
    });
    assert.deepEqual(none.result, []);
  });

  test('policySet/documentInfo: the kind and the problem count for the status item', async () => {
    const { result } = await client.request<{ kind: string; problems: number; errors: number }>('policySet/documentInfo', {
      textDocument: { uri },
    });
    assert.equal(result?.kind, 'policySetDefinition');
    assert.ok((result?.errors ?? 0) >= 1, 'the undefined group is an error');
    const short = await client.request<{ kind: string }>('policySet/documentInfo', { uri });
    assert.equal(short.result?.kind, 'policySetDefinition');
  });

  test('requests on a document that is not open answer empty; unknown positions answer null', async () => {
    const missing = await client.request('textDocument/hover', {
      textDocument: { uri: 'file:///work/none.json' },
      position: { line: 0, character: 0 },
    });
    assert.equal(missing.result, null);
    const far = await client.request('textDocument/definition', { textDocument: { uri }, position: { line: 999, character: 0 } });
    assert.deepEqual(far.result, []);
  });
});

describe('settings and workspace definitions', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'policyset-ws-'));
    writeFileSync(
      path.join(folder, 'workspace-def.json'),
      JSON.stringify({
        id: '/providers/Microsoft.Authorization/policyDefinitions/workspace-def',
        name: 'workspace-def',
        properties: {
          displayName: 'From the workspace',
          policyRule: { if: {}, then: { effect: 'audit' } },
          parameters: { effect: { type: 'String' } },
        },
      }),
    );
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  test('policy definitions in the workspace are known; a change on disk is picked up', async () => {
    const client = await startLanguageServer({
      rootUri: pathToFileURL(folder).href,
      capabilities: { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } } },
      setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ validate: { run: 'onType' } }]),
    });
    const uri = pathToFileURL(path.join(folder, 'set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    // 'extra' is not a parameter of the workspace definition: found once the workspace is read.
    const first = await client.waitFor<PublishParams>(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.diagnostics.some((d) => d.code === 'PS8001'),
    );
    assert.equal(first.params.diagnostics.find((d) => d.code === 'PS8001')?.range.start.line, lineOf('"extra"'));
    assert.ok(
      client.serverRequests.some((r) => r.method === 'client/registerCapability'),
      'the server watches JSON files',
    );

    writeFileSync(
      path.join(folder, 'workspace-def.json'),
      JSON.stringify({
        id: '/providers/Microsoft.Authorization/policyDefinitions/workspace-def',
        properties: {
          policyRule: { if: {}, then: { effect: 'audit' } },
          parameters: { effect: { type: 'String' }, extra: { type: 'Integer' } },
        },
      }),
    );
    const count = client.notifications.length;
    client.notify('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(path.join(folder, 'workspace-def.json')).href, type: 2 }],
    });
    await client.waitFor<PublishParams>(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' &&
        n.params.uri === uri &&
        client.notifications.indexOf(n as never) >= count &&
        !n.params.diagnostics.some((d) => d.code === 'PS8001'),
    );
  });

  test('validate.run onSave: edits are not validated until the document is saved', async () => {
    const client = await startLanguageServer({
      capabilities: { workspace: { configuration: true } },
      setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ validate: { run: 'onSave' } }]),
    });
    await client.waitForServerRequest('workspace/configuration');
    const uri = 'file:///work/on-save.json';
    const opened = await open(client, uri, SET.replace('"Netwrk"', '"Network"'));
    assert.ok(!opened.diagnostics.some((d) => d.code === 'PS5001'));
    // Absence shown by an event, not by a sleep: in either mode, an edit to one part of a split set revalidates
    // its open siblings after the debounce of validation on type. So once the sibling's diagnostics for the edit
    // made after ours arrive, an on-type validation of our edit would have arrived before them.
    const parts = Object.fromEntries(['definitions', 'parameters'].map((part) => [part, `file:///work/split/azurepolicyset.${part}.json`]));
    await open(
      client,
      parts.definitions,
      `[{ "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/workspace-def", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]`,
    );
    await open(client, parts.parameters, '{ "effect": { "type": "String" } }');
    const sibling = client.nextNotification<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === parts.definitions,
      20000,
    );
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: SET }] });
    client.notify('textDocument/didChange', {
      textDocument: { uri: parts.parameters, version: 2 },
      contentChanges: [{ text: '{ "effect": { "type": "String", "defaultValue": "Audit" } }' }],
    });
    await sibling;
    assert.ok(
      !client.notifications.some(
        (n) =>
          n.method === 'textDocument/publishDiagnostics' &&
          (n.params as PublishParams).uri === uri &&
          (n.params as PublishParams).version === 2,
      ),
      'no validation on type',
    );
    client.notify('textDocument/didSave', { textDocument: { uri } });
    const saved = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 2,
    );
    assert.ok(saved.params.diagnostics.some((d) => d.code === 'PS5001'));
  });

  test('severities from workspace/configuration apply', async () => {
    const client = await startLanguageServer({
      capabilities: { workspace: { configuration: true } },
      setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ severities: { PS5001: 'off' } }]),
    });
    // Configuration is read after `initialized`: give the server its answer before opening.
    await client.waitForServerRequest('workspace/configuration');
    const diagnostics = await open(client, 'file:///work/severities.json', SET);
    assert.ok(!diagnostics.diagnostics.some((d) => d.code === 'PS5001'));
  });
});
