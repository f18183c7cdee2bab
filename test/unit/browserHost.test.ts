// The browser server's host (server/src/lsp/browser/browserHost.ts): what it does without a file system.
// Run in Node over a recording connection; the web tests (test/web) run the same code in a worker.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'vscode-languageserver';
import { browserHost, docsBaseUrlOf } from '#server/lsp/browser/browserHost';
import { BUILT_IN_CAPACITY_TABLE } from '#server/service/quota/index';
import { WORKSPACE_FILES_NOTIFICATION } from '#server/lsp/protocol';

/** A connection that keeps the notification handlers and what was said on its console. */
function recordingConnection() {
  const handlers = new Map<string, (params: unknown) => void>();
  const errors: string[] = [];
  const connection = {
    onNotification: (method: string, handler: (params: unknown) => void) => handlers.set(method, handler),
    console: { error: (message: string) => errors.push(message) },
  } as unknown as Connection;
  return { connection, handlers, errors };
}

const definition = JSON.stringify({
  name: 'def-a',
  properties: { displayName: 'a', policyRule: { if: {}, then: { effect: 'audit' } }, parameters: {} },
});

describe('browserHost: the language server without a file system', () => {
  test('the files the client sends make the known definitions; changed() only when they changed; a bad notification is logged', () => {
    const host = browserHost('');
    const { connection, handlers, errors } = recordingConnection();
    let changes = 0;
    const known = host.definitions(
      connection,
      () => undefined,
      () => changes++,
    );
    const receive = handlers.get(WORKSPACE_FILES_NOTIFICATION);
    assert.ok(receive, 'the host listens to the client');
    receive({ complete: true, files: [{ uri: 'memfs:/a.json', text: definition }] });
    assert.equal(changes, 1);
    assert.equal(known.catalog.lookupName('def-a').length, 1);
    receive({ complete: false, files: [{ uri: 'memfs:/a.json', text: definition }] });
    assert.equal(changes, 1, 'the same text: nothing changed');
    receive(undefined);
    assert.equal(changes, 1, 'no params: nothing changed, nothing thrown');
    receive({ complete: false, files: [], removed: 5 });
    assert.equal(changes, 1);
    assert.equal(errors.length, 1, 'the failure is said on the console');
    assert.match(errors[0], new RegExp(`^${WORKSPACE_FILES_NOTIFICATION.replace('/', '\\/')}: `));
    assert.equal(host.readFile('memfs:/a.json'), undefined, 'a definition is kept as its facts, not text');
  });

  test('readFile answers the small files the client sent, and nothing before any was sent', () => {
    const host = browserHost('');
    assert.equal(host.readFile('memfs:/.policysetrc.json'), undefined);
    const { connection, handlers } = recordingConnection();
    host.definitions(
      connection,
      () => undefined,
      () => undefined,
    );
    handlers.get(WORKSPACE_FILES_NOTIFICATION)!({ complete: true, files: [{ uri: 'memfs:/.policysetrc.json', text: '{}' }] });
    assert.equal(host.readFile('memfs:/.policysetrc.json'), '{}');
  });

  test('quota: the built-in table; a capacity-units file setting is said once not to be read', () => {
    const lines: string[] = [];
    const quota = browserHost('').quotaFiles((line) => lines.push(line));
    assert.equal(quota.table('', []), BUILT_IN_CAPACITY_TABLE);
    assert.equal(lines.length, 0, 'no setting: nothing to say');
    assert.equal(quota.table('units.json', []), BUILT_IN_CAPACITY_TABLE);
    assert.equal(quota.table('units.json', []), BUILT_IN_CAPACITY_TABLE);
    assert.equal(lines.length, 1, 'said once');
    assert.match(lines[0], /capacityUnitsFile is not read in the browser/);
    assert.deepEqual(quota.usages([], [], 'memfs:/a.json', undefined), []);
  });

  test('.policysetrc.json: the innermost folder, parsed again only when its text changes, a broken one warned about and ignored', () => {
    const host = browserHost('');
    const { connection, handlers } = recordingConnection();
    host.definitions(
      connection,
      () => undefined,
      () => undefined,
    );
    const send = (files: Array<{ uri: string; text: string }>) => handlers.get(WORKSPACE_FILES_NOTIFICATION)!({ complete: false, files });
    const warnings: string[] = [];
    const configs = host.configs((message) => warnings.push(message));
    configs.load(['memfs:/repo', 'memfs:/repo/inner/']);
    send([
      { uri: 'memfs:/repo/.policysetrc.json', text: '{ "rules": { "PS7003": "off" }, }' },
      { uri: 'memfs:/repo/inner/.policysetrc.json', text: '{ "rules": { "PS7003": "error" } }' },
    ]);
    assert.deepEqual(configs.forUri('memfs:/repo/set.json')?.config.rules, { PS7003: 'off' }, 'a trailing comma is taken');
    assert.deepEqual(configs.forUri('memfs:/repo/inner/set.json')?.config.rules, { PS7003: 'error' }, 'the innermost folder');
    assert.equal(configs.forUri('memfs:/repository/set.json'), undefined, 'a folder is matched by whole segments');
    assert.equal(configs.forUri('memfs:/elsewhere/set.json'), undefined);
    assert.equal(configs.forUri('memfs:/repo/set.json')?.ignores('memfs:/repo/set.json'), false, 'ignore is not used here');
    assert.equal(configs.all().length, 2);
    const first = configs.forUri('memfs:/repo/set.json');
    assert.equal(configs.forUri('memfs:/repo/x.json'), first, 'the same text is not parsed again');
    send([{ uri: 'memfs:/repo/.policysetrc.json', text: '{ "rules": { "PS7003": "hint" } }' }]);
    assert.deepEqual(configs.forUri('memfs:/repo/set.json')?.config.rules, { PS7003: 'hint' }, 'a change applies with no reload');
    assert.equal(warnings.length, 0);
    send([{ uri: 'memfs:/repo/.policysetrc.json', text: '{ "rules": ' }]);
    assert.equal(configs.forUri('memfs:/repo/set.json'), undefined, 'broken: checked as if it were not there');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^memfs:\/repo\/\.policysetrc\.json: not valid JSON; the editor checks as if the file were not there/);
    configs.forUri('memfs:/repo/set.json');
    assert.equal(warnings.length, 1, 'warned once for the same text');
    send([{ uri: 'memfs:/repo/.policysetrc.json', text: '{ "rulez": {} }' }]);
    assert.equal(configs.forUri('memfs:/repo/set.json'), undefined);
    assert.match(warnings[1], /unknown key 'rulez'/);
    assert.equal(configs.all().length, 1, 'only the inner one is good');
  });

  test('.policysetrc.json before any file was sent, and a folder without one: no view, no warning', () => {
    const host = browserHost('');
    const warnings: string[] = [];
    const configs = host.configs((message) => warnings.push(message));
    configs.load(['memfs:/repo']);
    assert.equal(configs.forUri('memfs:/repo/set.json'), undefined, 'the client has sent nothing yet');
    const { connection, handlers } = recordingConnection();
    host.definitions(
      connection,
      () => undefined,
      () => undefined,
    );
    handlers.get(WORKSPACE_FILES_NOTIFICATION)!({ complete: true, files: [{ uri: 'memfs:/repo/set.json', text: '{}' }] });
    assert.equal(configs.forUri('memfs:/repo/set.json'), undefined, 'no .policysetrc.json in the folder');
    assert.deepEqual(configs.all(), []);
    assert.deepEqual(warnings, [], 'a missing file is not a broken one');
  });

  test("the rule pages' address: beside dist/ when the worker came over http(s), none from a Blob URL", () => {
    assert.equal(docsBaseUrlOf('https://host.test/ext/dist/browser/server.js'), 'https://host.test/ext/docs/rules');
    assert.equal(docsBaseUrlOf('HTTP://host.test:8080/ext/dist/browser/server.js'), 'http://host.test:8080/ext/docs/rules');
    assert.equal(docsBaseUrlOf('blob:https://host.test/0f6c'), '', 'a Blob URL has no folder beside it');
    assert.equal(docsBaseUrlOf('vscode-file://vscode-app/https:/x/dist/browser/server.js'), '', 'only an address that starts with http(s)');
  });

  test('source URIs, docs, the idle collection and the yield', async () => {
    const host = browserHost('https://example.test/docs/rules');
    assert.equal(host.docsBaseUrl, 'https://example.test/docs/rules');
    assert.equal(host.sourceUri('vscode-vfs://github/o/r/a.json'), 'vscode-vfs://github/o/r/a.json');
    assert.equal(host.sourceUri('memfs:/a.json'), 'memfs:/a.json');
    assert.equal(host.sourceUri('/home/a.json'), undefined, 'a path is no URI in the browser');
    assert.equal(host.sourceUri('c:/a.json'), undefined, 'a drive letter is not a scheme');
    assert.equal(host.sourceUri('index.json'), undefined);
    assert.equal(host.sourceUri('/home/me/weird:name.json'), undefined, 'a colon later in a path makes no scheme');
    assert.doesNotThrow(() => host.idleCollection(1, 1, 1).note());
    let later = false;
    setTimeout(() => (later = true), 0);
    await host.yieldToEvents();
    assert.ok(later, 'a timer queued before it ran first: it yields to the event loop');
  });
});
