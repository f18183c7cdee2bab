import { after } from 'node:test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './corpus';

/** A minimal LSP client over stdio: Content-Length framing, requests, notifications. */
export class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  private waiters: Array<() => void> = [];
  /** Requests the server sent to the client, answered by a handler or with null. */
  readonly requests: Array<{ method: string; params: unknown }> = [];
  private readonly handlers = new Map<string, (params: unknown) => unknown>();

  /** Answers the server's requests of a method (e.g. workspace/configuration). */
  onRequest(method: string, handler: (params: unknown) => unknown) {
    this.handlers.set(method, handler);
  }

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
          if (message.id !== undefined) {
            const handler = this.handlers.get(message.method);
            this.requests.push({ method: message.method, params: message.params });
            this.send({ jsonrpc: '2.0', id: message.id, result: handler ? handler(message.params) : null });
          } else this.notifications.push({ method: message.method, params: message.params });
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

  /** Waits until the server has sent a request of this method (and has been answered). */
  async waitForRequest(method: string, timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.requests.some((r) => r.method === method)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for the server's ${method} request`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
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


export interface StartOptions {
  /** Advertise pull diagnostics. */
  pull?: boolean;
  /** More client capabilities, merged over the defaults. */
  capabilities?: Record<string, unknown>;
  initializationOptions?: unknown;
  rootUri?: string | null;
  /** Called before `initialize`: for handlers of the server's requests. */
  setup?: (client: LspClient) => void;
}

/** Starts the real server over stdio (killed when the test file ends) and initializes it. */
export async function startLanguageServer(options: StartOptions = {}): Promise<LspClient> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'policyset-language-server.js'), '--stdio'], { stdio: 'pipe' });
  const client = new LspClient(child);
  after(() => child.kill());
  options.setup?.(client);
  await client.request('initialize', {
    processId: process.pid,
    rootUri: options.rootUri ?? null,
    capabilities: { ...(options.pull ? { textDocument: { diagnostic: { dynamicRegistration: false } } } : {}), ...options.capabilities },
    initializationOptions: options.initializationOptions,
  });
  client.notify('initialized', {});
  return client;
}
