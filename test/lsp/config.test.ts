// .policysetrc.json through the real language server over stdio: a rule the workspace's file turns off is
// off in the editor, the file wins over the extension's settings, a change to the file (didChangeWatchedFiles)
// is applied to the open documents, 'ignore' leaves a document unreported, and a broken file is said.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer } from '../support/lspClient';
import { cleanSet } from '../support/sets';

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; severity: number }>;
}

/** One PS7003 (unused-parameter, a warning by default). */
function setWithWarning(name: string): string {
  const set = cleanSet(name, name) as { properties: { parameters: Record<string, unknown> } };
  set.properties.parameters.unused = { type: 'String' };
  return JSON.stringify(set, null, 2);
}

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-lsp-config-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function workspace(name: string, config: string | undefined) {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, 'sets'), { recursive: true });
  if (config !== undefined) fs.writeFileSync(path.join(root, '.policysetrc.json'), config);
  return { root, rootUri: pathToFileURL(root).href, configUri: pathToFileURL(path.join(root, '.policysetrc.json')).href };
}

/** A publication for the document; with `codes`, one whose diagnostics are these [code, severity] pairs (a check may be published more than once). */
const published = (uri: string, version: number, codes?: Array<[string, number]>) => (n: { method: string; params: PublishParams }) =>
  n.method === 'textDocument/publishDiagnostics' &&
  n.params.uri === uri &&
  n.params.version === version &&
  (!codes || JSON.stringify(n.params.diagnostics.map((d) => [d.code, d.severity])) === JSON.stringify(codes));

describe('.policysetrc.json in the language server', () => {
  test('a rule turned off in the workspace file is off in the editor, over the settings; a change to the file is applied', async () => {
    const { root, rootUri, configUri } = workspace('off', '// team choices\n{ "rules": { "PS7003": "off" }, }');
    // The extension's settings say error: the file wins where both say something.
    const client = await startLanguageServer({
      rootUri,
      initializationOptions: { policySet: { severities: { 'unused-parameter': 'error' } } },
    });
    const uri = pathToFileURL(path.join(root, 'sets', 'set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'policyset', version: 1, text: setWithWarning('s') } });
    const opened = await client.waitFor<PublishParams>(published(uri, 1));
    assert.deepEqual(opened.params.diagnostics, []);

    // The team turns it back on, as a warning: the open document is checked again.
    fs.writeFileSync(path.join(root, '.policysetrc.json'), '{ "rules": { "unused-parameter": "warning" } }');
    const since = client.notifications.length;
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: 2 }] });
    // Waits for the warning: a publication without it times out and fails.
    await client.waitFor<PublishParams>(published(uri, 1, [['PS7003', 2]]), 10000, { since });

    // The file deleted: the settings apply again (error).
    fs.rmSync(path.join(root, '.policysetrc.json'));
    const since2 = client.notifications.length;
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: 3 }] });
    await client.waitFor<PublishParams>(published(uri, 1, [['PS7003', 1]]), 10000, { since: since2 });
  });

  test('pull diagnostics (as VS Code asks): the file applies, and a change to it asks the client to pull again', async () => {
    const { root, rootUri, configUri } = workspace('pull', '{ "rules": { "PS7003": "off" } }');
    const client = await startLanguageServer({ rootUri, pull: true });
    const uri = pathToFileURL(path.join(root, 'sets', 'set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'policyset', version: 1, text: setWithWarning('s') } });
    const pullCodes = async () =>
      (
        await client.request<{ items: PublishParams['diagnostics'] }>('textDocument/diagnostic', { textDocument: { uri } }, 20000)
      ).result!.items.map((d) => d.code);
    assert.deepEqual(await pullCodes(), []);
    const refreshes = () => client.serverRequests.filter((r) => r.method === 'workspace/diagnostic/refresh').length;
    const before = refreshes();
    fs.writeFileSync(path.join(root, '.policysetrc.json'), '{ "rules": { "PS7003": "error" } }');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: 2 }] });
    // Polls for the server's refresh request (no fixed sleep); fails after 10 s without one.
    for (const deadline = Date.now() + 10000; refreshes() === before;) {
      assert.ok(Date.now() < deadline, 'no workspace/diagnostic/refresh after the config file changed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(await pullCodes(), ['PS7003']);
  });

  test("'ignore' leaves a document unreported; without the file it is reported", async () => {
    const { root, rootUri } = workspace('ignore', '{ "ignore": ["legacy/"] }');
    const client = await startLanguageServer({ rootUri });
    const ignored = pathToFileURL(path.join(root, 'legacy', 'old.json')).href;
    const checked = pathToFileURL(path.join(root, 'sets', 'new.json')).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri: ignored, languageId: 'policyset', version: 1, text: setWithWarning('o') },
    });
    client.notify('textDocument/didOpen', {
      textDocument: { uri: checked, languageId: 'policyset', version: 1, text: setWithWarning('n') },
    });
    assert.deepEqual((await client.waitFor<PublishParams>(published(ignored, 1))).params.diagnostics, []);
    assert.deepEqual(
      (await client.waitFor<PublishParams>(published(checked, 1))).params.diagnostics.map((d) => d.code),
      ['PS7003'],
    );
  });

  test('a broken file is said (naming the key), and the editor checks as if it were not there', async () => {
    const { root, rootUri } = workspace('broken', '{ "rulez": { "PS7003": "off" } }');
    const client = await startLanguageServer({ rootUri });
    const message = await client.waitFor<{ type: number; message: string }>((n) => n.method === 'window/showMessage');
    assert.match(message.params.message, /\.policysetrc\.json: unknown key 'rulez'; did you mean 'rules'\?/);
    assert.equal(message.params.type, 2);
    const uri = pathToFileURL(path.join(root, 'sets', 'set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'policyset', version: 1, text: setWithWarning('s') } });
    assert.deepEqual(
      (await client.waitFor<PublishParams>(published(uri, 1))).params.diagnostics.map((d) => d.code),
      ['PS7003'],
    );
  });
});
