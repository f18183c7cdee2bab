// What the server keeps per document (see server/README.md): parses only for the documents in use, opened
// documents validated one at a time, last diagnostics as counts. None of it may change an answer.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer, type LspClient } from '../support/lspClient';
import { REPO_ROOT } from '../support/corpus';

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; message: string; range: unknown }>;
}

const EXAMPLES = ['clean', 'mistakes'].flatMap((dir) =>
  fs
    .readdirSync(path.join(REPO_ROOT, 'examples', dir))
    .map((name) => ({ name: `${dir}-${name}`, text: fs.readFileSync(path.join(REPO_ROOT, 'examples', dir, name), 'utf8') })),
);
// More documents than the server keeps parses for (8), each example several times under other names.
const DOCUMENTS = [0, 1, 2].flatMap((copy) => EXAMPLES.map((e) => ({ uri: `file:///work/many/${copy}/${e.name}`, text: e.text })));

const published = (client: LspClient, uri: string, version = 1, since = 0) =>
  client.waitFor<PublishParams>(
    (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === version,
    20000,
    { since },
  );

function open(client: LspClient, uri: string, text: string, version = 1) {
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version, text } });
}

const SET = `{
  "properties": {
    "displayName": "Documents",
    "parameters": { "effect": { "type": "String", "defaultValue": "Audit" } },
    "policyDefinitionGroups": [{ "name": "Network" }],
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/watched-def",
        "groupNames": ["Network"],
        "parameters": { "effect": { "value": "[parameters('effect')]" }, "extra": { "value": 1 } }
      }
    ]
  }
}`;

describe('documents held lightly', () => {
  test('documents opened together get the diagnostics each gets alone; features on a document whose parse was dropped answer the same', async () => {
    const together = await startLanguageServer();
    for (const d of DOCUMENTS) open(together, d.uri, d.text);
    const all = await Promise.all(DOCUMENTS.map((d) => published(together, d.uri)));
    assert.ok(
      all.some((p) => p.params.diagnostics.length > 0),
      'the examples with mistakes have diagnostics',
    );

    const alone = await startLanguageServer();
    for (const [i, d] of DOCUMENTS.entries()) {
      open(alone, d.uri, d.text);
      const one = await published(alone, d.uri);
      assert.deepEqual(all[i].params.diagnostics, one.params.diagnostics, d.uri);
      alone.notify('textDocument/didClose', { textDocument: { uri: d.uri } });
    }

    // The first document's parse is long gone in `together`: it is made again, to the same answers.
    const first = DOCUMENTS.find((d) => d.uri.includes('mistakes'))!;
    open(alone, first.uri, first.text, 7);
    await published(alone, first.uri, 7);
    const position = { line: 3, character: 8 };
    for (const [method, params] of [
      ['textDocument/documentSymbol', { textDocument: { uri: first.uri } }],
      ['textDocument/hover', { textDocument: { uri: first.uri }, position }],
      ['textDocument/completion', { textDocument: { uri: first.uri }, position }],
      ['textDocument/foldingRange', { textDocument: { uri: first.uri } }],
      ['policySet/documentInfo', { textDocument: { uri: first.uri } }],
    ] as const) {
      const [a, b] = await Promise.all([together.request(method, params, 20000), alone.request(method, params, 20000)]);
      assert.equal(a.error, undefined, `${method}: ${a.error?.message}`);
      assert.deepEqual(a.result, b.result, method);
    }
    const info = (await together.request<{ problems: number }>('policySet/documentInfo', { textDocument: { uri: first.uri } })).result;
    assert.equal(
      info?.problems,
      all[DOCUMENTS.indexOf(first)].params.diagnostics.filter((d) => !('severity' in d) || (d as { severity: number }).severity <= 3)
        .length,
    );

    // An edit to one of many open documents is validated as usual.
    const since = together.notifications.length;
    together.notify('textDocument/didChange', { textDocument: { uri: first.uri, version: 2 }, contentChanges: [{ text: SET }] });
    const edited = await published(together, first.uri, 2, since);
    assert.ok(edited.params.diagnostics.every((d) => d.code !== 'PS1001'));
  });

  test('pull in onSave mode: between saves the last saved state is the answer', async () => {
    const client = await startLanguageServer({
      pull: true,
      capabilities: { workspace: { configuration: true, diagnostics: { refreshSupport: true } } },
      setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ validate: { run: 'onSave' } }]),
    });
    await client.waitForServerRequest('workspace/configuration');
    const uri = 'file:///work/pull-on-save.json';
    const broken = SET.replace('"groupNames": ["Network"]', '"groupNames": ["Netwrk"]');
    open(client, uri, broken);
    const pull = async () =>
      (await client.request<{ items: PublishParams['diagnostics'] }>('textDocument/diagnostic', { textDocument: { uri } }, 20000)).result!
        .items;
    const first = await pull();
    assert.ok(
      first.some((d) => d.code === 'PS5001'),
      'the undeclared group',
    );
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: SET }] });
    assert.deepEqual(await pull(), first, 'not saved yet: the saved state answers');
    // The save is taken when the server asks the client to pull again (workspace/diagnostic/refresh): no sleep.
    const refreshes = client.serverRequestCount('workspace/diagnostic/refresh');
    client.notify('textDocument/didSave', { textDocument: { uri } });
    await client.waitForServerRequest('workspace/diagnostic/refresh', 20000, { after: refreshes });
    assert.ok(!(await pull()).some((d) => d.code === 'PS5001'), 'saved: the new state answers');
  });

  describe('workspace definitions follow file changes', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'policyset-watch-'));
    after(() => rmSync(folder, { recursive: true, force: true }));

    test('a folder of definitions that appears is read, and forgotten when it is deleted', async () => {
      writeFileSync(path.join(folder, 'set.json'), SET);
      const client = await startLanguageServer({
        rootUri: pathToFileURL(folder).href,
        capabilities: { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } } },
        setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ validate: { run: 'onType' } }]),
      });
      const uri = pathToFileURL(path.join(folder, 'set.json')).href;
      open(client, uri, SET);
      const known = (n: { params: PublishParams }) => n.params.diagnostics.some((d) => d.code === 'PS8001');
      // Nothing knows watched-def yet: its parameters are not checked.
      await published(client, uri);
      await client.waitFor(
        (n) => n.method === 'window/logMessage' && /Known policy definitions: 0/.test((n.params as { message: string }).message),
        20000,
      );

      const sub = path.join(folder, 'defs');
      mkdirSync(sub);
      writeFileSync(
        path.join(sub, 'watched-def.json'),
        JSON.stringify({
          id: '/providers/Microsoft.Authorization/policyDefinitions/watched-def',
          properties: { policyRule: { if: {}, then: { effect: 'audit' } }, parameters: { effect: { type: 'String' } } },
        }),
      );
      let since = client.notifications.length;
      // Only the folder's creation is reported (as some watchers do when a folder is moved in).
      client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(sub).href, type: 1 }] });
      const withDefinition = await client.waitFor<PublishParams>(
        (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && known(n),
        20000,
        { since },
      );
      assert.ok(withDefinition.params.diagnostics.some((d) => d.code === 'PS8001' && /extra/.test(d.message)));

      rmSync(sub, { recursive: true, force: true });
      since = client.notifications.length;
      client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(sub).href, type: 3 }] });
      await client.waitFor<PublishParams>(
        (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && !known(n),
        20000,
        { since },
      );
    });
  });
});
