// Issue 22 through the real language server: a workspace cloned from an untrusted repository holds a
// deployment plan whose "usage" names /dev/zero or a FIFO. The server must answer and stay small.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { startLanguageServer } from '../support/lspClient';
import { positionAt } from '../support/lspProcess';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-hostile-lsp-'));
  execFileSync('mkfifo', [path.join(dir, 'usage.fifo')]);
  fs.writeFileSync(path.join(dir, 'shadow'), 'root:*:20222:0:99999:7:::\n');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const PLAN = (usage: string) => `{
  "region": "eastus",
  "usage": ${JSON.stringify(usage)},
  "deployments": [
    { "account": "ai-east", "name": "chat", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 6 } }
  ]
}`;

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe('hostile files in the language server', () => {
  for (const usage of ['/dev/zero', 'usage.fifo']) {
    test(`a plan whose usage is ${usage}: diagnostics and a hover answered, the server stays small`, async (t) => {
      const client = await startLanguageServer({ rootUri: pathToFileURL(dir).href });
      const uri = pathToFileURL(path.join(dir, `plan-${path.basename(usage)}.json`)).href;
      const text = PLAN(usage);
      client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
      // A liveness deadline, not a timing: before the bounded reader the FIFO blocked the server for good
      // and /dev/zero grew it by gigabytes without an answer.
      const published = await client.waitFor(
        (n) => n.method === 'textDocument/publishDiagnostics' && (n.params as { uri: string }).uri === uri,
        20000,
      );
      assert.ok(published);
      const started = performance.now();
      const hover = await client.request<{ contents: { value: string } }>(
        'textDocument/hover',
        { textDocument: { uri }, position: positionAt(text, text.indexOf('"capacity": 6') + 2) },
        20000,
      );
      assert.equal(hover.error, undefined);
      assert.match(hover.result?.contents.value ?? '', /6,000/);
      const rss = rssMb(client.child.pid!);
      t.diagnostic(`hover answered in ${(performance.now() - started).toFixed(0)} ms; server resident memory ${rss.toFixed(0)} MB`);
      assert.ok(rss < 400, `the server holds ${rss.toFixed(0)} MB`);
    });
  }

  test('a usage file that is not JSON: the log names the file and where, never its content', async () => {
    const client = await startLanguageServer({ rootUri: pathToFileURL(dir).href });
    const uri = pathToFileURL(path.join(dir, 'plan-shadow.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: PLAN('shadow') } });
    const logged = await client.waitFor(
      (n) => n.method === 'window/logMessage' && /shadow/.test((n.params as { message: string }).message),
      20000,
    );
    const message = (logged.params as { message: string }).message;
    assert.match(message, /not valid JSON.*line 1, column 1/);
    assert.doesNotMatch(message, /root|20222/);
    const all = client.notifications.map((n) => JSON.stringify(n.params)).join('\n') + client.stderr;
    assert.doesNotMatch(all, /root:|20222/);
  });

  test('a document nested 200,000 levels deep: PS1003, and hover, outline, folding and selection answer without an error', async () => {
    const client = await startLanguageServer();
    const uri = 'file:///tmp/policyset-hostile-deep.json';
    const text = '['.repeat(200_000) + ']'.repeat(200_000);
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'policyset', version: 1, text } });
    const published = await client.waitFor<{ uri: string; diagnostics: Array<{ code: string }> }>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri,
      20000,
    );
    assert.deepEqual(
      published.params.diagnostics.map((d) => d.code),
      ['PS1003'],
    );
    const middle = { line: 0, character: 100_000 };
    const asks: Array<[string, object, unknown]> = [
      ['textDocument/hover', { position: middle }, null],
      ['textDocument/documentSymbol', {}, []],
      ['textDocument/foldingRange', {}, []],
      ['textDocument/selectionRange', { positions: [middle] }, []],
      ['textDocument/completion', { position: middle }, { isIncomplete: false, items: [] }],
    ];
    for (const [method, params, expected] of asks) {
      const response = await client.request(method, { textDocument: { uri }, ...params }, 20000);
      assert.equal(response.error, undefined, `${method}: ${JSON.stringify(response.error)}`);
      assert.deepEqual(response.result, expected, method);
    }
  });
});
