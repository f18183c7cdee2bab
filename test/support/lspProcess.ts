// An LSP client over stdio for the LSP tests, the fuzz test and the latency bench: requests with a deadline, notifications delivered as they arrive with their arrival time, requests from
// the server answered, and the server process watched so that a crash is seen at once, not as a time-out.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './corpus';

export const SERVER_BIN = path.join(REPO_ROOT, 'bin', 'policyset-language-server.js');

export interface ResponseMessage<T> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
  /** How many notifications the server had sent before this answer (the order of the stream, not of promise callbacks). */
  notificationsBefore?: number;
}

export interface Notification<T = unknown> {
  method: string;
  params: T;
  /** process.hrtime.bigint() when the message was parsed. */
  at: bigint;
}

interface Pending {
  method: string;
  resolve: (message: ResponseMessage<unknown>) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

type Listener = (notification: Notification) => void;

export class LspProcess {
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<Listener>();
  /** Every notification received, in order (cleared with clearNotifications). */
  notifications: Notification[] = [];
  /** Answers to server→client requests, by method; the default answers null (or one null per configuration item). */
  readonly serverRequestHandlers = new Map<string, (params: unknown) => unknown>();
  /** Answers to requests sent with send() (ids that request() did not give), in order. */
  readonly responses: Array<ResponseMessage<unknown> & { id?: number | string }> = [];
  /** Every request the server sent, in order. */
  readonly serverRequests: Array<{ method: string; params: unknown }> = [];
  private readonly requestWaiters = new Set<() => void>();
  stderr = '';
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly name = 'server',
  ) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      // Keep the tail only: a long fuzz run must not grow this without bound.
      this.stderr = (this.stderr + chunk.toString()).slice(-20000);
    });
    child.stdin.on('error', () => undefined); // EPIPE after a crash is reported through `exit`, not thrown.
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        const error = new Error(`${this.name} exited (code ${code}, signal ${signal}) with requests pending; stderr:\n${this.stderr}`);
        for (const pending of this.pending.values()) {
          clearTimeout(pending.timer);
          pending.reject(error);
        }
        this.pending.clear();
        resolve();
      });
    });
  }

  private receive(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : Buffer.from(chunk);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const match = /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'));
      if (!match) throw new Error(`${this.name} sent a header without Content-Length: ${this.buffer.subarray(0, headerEnd).toString()}`);
      const length = Number(match[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message, process.hrtime.bigint());
    }
  }

  private dispatch(message: { id?: number | string; method?: string; params?: unknown; result?: unknown; error?: never }, at: bigint) {
    if (message.method === undefined && message.id !== undefined) {
      const pending = this.pending.get(message.id as number);
      if (!pending) {
        // An answer to a request sent with send() (an id of the test's own): kept for it to read.
        this.responses.push(message as ResponseMessage<unknown> & { id?: number | string });
        return;
      }
      this.pending.delete(message.id as number);
      clearTimeout(pending.timer);
      pending.resolve({ ...message, notificationsBefore: this.notifications.length });
      return;
    }
    if (message.method === undefined) return;
    if (message.id !== undefined) {
      const handler = this.serverRequestHandlers.get(message.method);
      let result: unknown = null;
      if (handler) result = handler(message.params);
      else if (message.method === 'workspace/configuration')
        result = ((message.params as { items?: unknown[] })?.items ?? []).map(() => null);
      this.send({ jsonrpc: '2.0', id: message.id, result: result ?? null });
      this.serverRequests.push({ method: message.method, params: message.params });
      for (const waiter of [...this.requestWaiters]) waiter();
      return;
    }
    const notification: Notification = { method: message.method, params: message.params, at };
    this.notifications.push(notification);
    for (const listener of [...this.listeners]) listener(notification);
  }

  send(message: object) {
    if (this.exit) return;
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  /** Sends a request; rejects when the server exits, or after timeoutMs (a liveness deadline) when given. */
  request<T>(method: string, params: unknown, timeoutMs?: number): Promise<ResponseMessage<T>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.exit) {
        reject(new Error(`${this.name} has exited (code ${this.exit.code}, signal ${this.exit.signal}); stderr:\n${this.stderr}`));
        return;
      }
      const pending: Pending = { method, resolve: resolve as Pending['resolve'], reject };
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new Error(`${this.name} did not answer ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, pending);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  clearNotifications() {
    this.notifications = [];
  }

  /** Resolves with the first notification, already received or still to come, that matches; rejects after timeoutMs or on exit. */
  waitFor<T>(predicate: (n: Notification<T>) => boolean, timeoutMs = 10000, options: { since?: number } = {}): Promise<Notification<T>> {
    const seen = this.notifications.slice(options.since ?? 0).find((n) => predicate(n as Notification<T>));
    if (seen) return Promise.resolve(seen as Notification<T>);
    return this.nextNotification(predicate, timeoutMs);
  }

  /** Resolves with the next notification to arrive that matches (those already received are ignored). */
  nextNotification<T>(predicate: (n: Notification<T>) => boolean, timeoutMs = 10000): Promise<Notification<T>> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener: Listener = (n) => {
        if (predicate(n as Notification<T>)) {
          done();
          resolve(n as Notification<T>);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.name}: timed out after ${timeoutMs} ms waiting for a notification`));
      }, timeoutMs);
      this.listeners.add(listener);
      void this.exited.then(() => {
        if (!this.listeners.has(listener)) return;
        done();
        reject(new Error(`${this.name} exited while a notification was awaited; stderr:\n${this.stderr}`));
      });
    });
  }

  /** How many requests of this method the server has sent so far (for waitForServerRequest's `after`). */
  serverRequestCount(method: string): number {
    return this.serverRequests.filter((r) => r.method === method).length;
  }

  /**
   * Resolves once the server has sent a request of this method (and it has been answered); with `after`, once
   * it has sent more than that many (a request still to come, not one sent earlier).
   */
  waitForServerRequest(method: string, timeoutMs = 10000, options: { after?: number } = {}): Promise<void> {
    const sent = () => this.serverRequestCount(method) > (options.after ?? 0);
    if (sent()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = () => {
        if (!sent()) return;
        clearTimeout(timer);
        this.requestWaiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(() => {
        this.requestWaiters.delete(waiter);
        reject(new Error(`${this.name}: timed out after ${timeoutMs} ms waiting for its ${method} request`));
      }, timeoutMs);
      this.requestWaiters.add(waiter);
    });
  }

  /** shutdown + exit, then a kill if the process is still there after a grace period. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.exit) return;
    try {
      await this.request('shutdown', null, graceMs);
      this.notify('exit', null);
    } catch {
      // The kill below ends it.
    }
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    if (!this.exit) this.child.kill('SIGKILL');
    await this.exited;
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}

/** Starts a Node.js language server script over stdio (no shell, no stdin of ours). */
export function startServerProcess(
  script: string = SERVER_BIN,
  args: string[] = ['--stdio'],
  name = 'policyset-language-server',
  nodeArgs: string[] = [],
  env?: NodeJS.ProcessEnv,
): LspProcess {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: REPO_ROOT, stdio: 'pipe', env });
  return new LspProcess(child, name);
}

/** Starts our server and completes the initialize handshake. */
export async function startInitialized(
  capabilities: object = {},
  options: {
    initializationOptions?: unknown;
    script?: string;
    args?: string[];
    name?: string;
    nodeArgs?: string[];
    workspaceFolders?: string[];
    env?: NodeJS.ProcessEnv;
  } = {},
) {
  const client = startServerProcess(options.script, options.args, options.name, options.nodeArgs, options.env);
  const folders = options.workspaceFolders?.map((uri) => ({ uri, name: uri.slice(uri.lastIndexOf('/') + 1) }));
  const initialized = await client.request<{ capabilities: Record<string, unknown> }>(
    'initialize',
    {
      processId: process.pid,
      rootUri: folders?.[0]?.uri ?? null,
      ...(folders ? { workspaceFolders: folders } : {}),
      capabilities,
      initializationOptions: options.initializationOptions,
    },
    30000,
  );
  if (initialized.error) throw new Error(`initialize failed: ${initialized.error.message}`);
  client.notify('initialized', {});
  return { client, capabilities: initialized.result!.capabilities };
}

export interface Position {
  line: number;
  character: number;
}

/**
 * The LSP position (UTF-16 code units, which is what JS string offsets are) of an offset in a text; lines end
 * at \r\n, \r or \n, as LSP counts them. An offset between the \r and the \n of one line end is not a
 * position a server can be told: callers keep clear of it.
 */
export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* \r */ && text.charCodeAt(i + 1) === 10 && i + 1 < offset) i++;
    if (ch === 10 || ch === 13) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}
