import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/corpus';

/** A minimal LSP client over stdio: Content-Length framing, requests, notifications. */
class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  private waiters: Array<() => void> = [];

  constructor(readonly process: ChildProcessWithoutNullStreams) {
    process.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const headerEnd = this.buffer.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())![1]);
        if (this.buffer.length < headerEnd + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
        this.buffer = this.buffer.subarray(headerEnd + 4 + length);
        if (message.id !== undefined && this.pending.has(message.id)) {
          this.pending.get(message.id)!(message);
          this.pending.delete(message.id);
        } else if (message.method) {
          if (message.id !== undefined) this.send({ jsonrpc: '2.0', id: message.id, result: null });
          else this.notifications.push({ method: message.method, params: message.params });
          this.waiters.splice(0).forEach((w) => w());
        }
      }
    });
  }

  private send(message: object) {
    const body = Buffer.from(JSON.stringify(message));
    this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.process.stdin.write(body);
  }

  request<T>(method: string, params: unknown): Promise<{ result?: T; error?: { code: number; message: string } }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve as never);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Polls the notifications received until one matches, instead of sleeping a fixed time. */
  async waitFor<T>(predicate: (n: { method: string; params: T }) => boolean, timeoutMs = 10000): Promise<{ method: string; params: T }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.notifications.find((n) => predicate(n as { method: string; params: T }));
      if (found) return found as { method: string; params: T };
      if (Date.now() > deadline) throw new Error('timed out waiting for a notification');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

const SET = `{
  "properties": {
    "policyDefinitionGroups": [{ "name": "Network" }],
    "policyDefinitions": [
      { "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/x", "groupNames": ["Netwrk"] }
    ]
  }
}`;

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; range: { start: { line: number } } }>;
}

function start(pull: boolean): LspClient {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'policyset-language-server.js'), '--stdio'], { stdio: 'pipe' });
  const client = new LspClient(child);
  after(() => child.kill());
  void client.request('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: pull ? { textDocument: { diagnostic: { dynamicRegistration: false } } } : {},
  });
  client.notify('initialized', {});
  return client;
}

describe('language server over stdio', () => {
  test('push: diagnostics on open, after an edit, and cleared on close', async () => {
    const client = start(false);
    const uri = 'file:///work/set.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    const opened = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 1);
    const group = opened.params.diagnostics.find((d) => d.code === 'PS5001') as { range: { start: { line: number } }; codeDescription?: { href: string } } | undefined;
    assert.ok(group);
    assert.equal(group.range.start.line, 4);
    assert.match(group.codeDescription?.href ?? '', /^file:.*\/docs\/rules\/undefined-group\.md$/);

    const fixed = SET.replace('"Netwrk"', '"Network"');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
    const changed = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 2);
    assert.ok(!changed.params.diagnostics.some((d) => d.code === 'PS5001'));

    client.notify('textDocument/didClose', { textDocument: { uri } });
    await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === undefined && n.params.diagnostics.length === 0);
  });

  test('pull: textDocument/diagnostic answers for clients that ask', async () => {
    const client = start(true);
    const uri = 'file:///work/pulled.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    const response = await client.request<{ kind: string; items: Array<{ code: string }> }>('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(response.result?.kind, 'full');
    assert.ok(response.result?.items.some((d) => d.code === 'PS5001'));
    assert.ok(!client.notifications.some((n) => n.method === 'textDocument/publishDiagnostics'));
  });

  test('a document that is not a policy document gets no diagnostics; broken input does not take the server down', async () => {
    const client = start(false);
    client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/package.json', languageId: 'json', version: 1, text: '{"name": "x"}' } });
    const other = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri.endsWith('package.json'));
    assert.deepEqual(other.params.diagnostics, []);
    client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/deep.json', languageId: 'json', version: 1, text: '['.repeat(100000) } });
    client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/set2.json', languageId: 'json', version: 7, text: SET } });
    const after = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri.endsWith('set2.json'));
    assert.ok(after.params.diagnostics.some((d) => d.code === 'PS5001'));
  });
});
