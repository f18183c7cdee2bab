// The Model Context Protocol server of `policyset mcp`: JSON-RPC 2.0 over standard input and output, one
// message per line (MCP's stdio transport), written here rather than taken from the official SDK: the SDK
// brings 17 dependencies (an HTTP server, express, hono, zod, jose, ...) for what is, over stdio, a loop of
// a few requests; and vscode-jsonrpc frames messages with Content-Length headers, not lines. The server
// answers `initialize` (the protocol version negotiated), `ping`, `tools/list` and `tools/call`; the tools
// are ./tools.ts's. Nothing but protocol messages is written to standard output.

/** The protocol versions this server speaks, newest first (https://modelcontextprotocol.io/specification). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The largest message read: a lint of inline text carries a document (the CLI reads at most 512 MB; a message is smaller). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** JSON-RPC's error codes. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Runs the tool; a problem with the arguments or the inputs is an `isError` result, thrown only for a bug. */
  call(args: Record<string, unknown>): Promise<ToolResult>;
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Id = string | number | null;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

/** Whether a negotiated version knows `structuredContent` and `outputSchema` (2025-06-18 on). */
const structured = (version: string) => version >= '2025-06-18';

/**
 * The server: `receive` takes each line read, `send` writes each message (a line of JSON). Requests are
 * answered one at a time, in the order they came (the tools read the working folder; none is long).
 */
export class McpServer {
  private version: string | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly info: ServerInfo,
    private readonly tools: Tool[],
    private readonly send: (message: object) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Every request received so far answered. */
  idle(): Promise<void> {
    return this.queue;
  }

  receive(line: string): void {
    if (!line.trim()) return;
    // Errors found at once are answered in turn too: answers come in the order of the lines.
    const send = (message: object) => {
      this.queue = this.queue.then(() => this.send(message));
    };
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: RPC.parseError, message: 'Parse error: a line that is not JSON' } });
      return;
    }
    if (Array.isArray(message)) {
      send({
        jsonrpc: '2.0',
        id: null,
        error: { code: RPC.invalidRequest, message: 'Invalid Request: batches are not supported (MCP 2025-06-18 on has none)' },
      });
      return;
    }
    if (!message || typeof message !== 'object') {
      send({ jsonrpc: '2.0', id: null, error: { code: RPC.invalidRequest, message: 'Invalid Request: not a JSON-RPC message' } });
      return;
    }
    const m = message as Message;
    const hasId = Object.hasOwn(m, 'id');
    if (typeof m.method !== 'string') {
      // A response to a request of ours (the server sends none) is dropped; anything else is invalid.
      if (!hasId || !('result' in m || 'error' in m))
        send({ jsonrpc: '2.0', id: validId(m.id), error: { code: RPC.invalidRequest, message: 'Invalid Request: no method' } });
      return;
    }
    if (!hasId) {
      this.notification(m.method);
      return;
    }
    const id = validId(m.id);
    if (id === null || m.jsonrpc !== '2.0') {
      send({
        jsonrpc: '2.0',
        id,
        error: { code: RPC.invalidRequest, message: 'Invalid Request: jsonrpc must be "2.0" and id a string or number' },
      });
      return;
    }
    const method = m.method;
    const params = m.params;
    this.queue = this.queue.then(async () => {
      try {
        this.send({ jsonrpc: '2.0', id, result: await this.request(method, params) });
      } catch (error) {
        if (error instanceof RpcError) this.send({ jsonrpc: '2.0', id, error: { code: error.code, message: error.message } });
        else {
          this.log(`internal error in ${method}: ${(error as Error).stack ?? String(error)}`);
          this.send({ jsonrpc: '2.0', id, error: { code: RPC.internalError, message: `Internal error: ${(error as Error).message}` } });
        }
      }
    });
  }

  private notification(method: string): void {
    // notifications/initialized, notifications/cancelled (requests are short; they run to the end), others: nothing to do.
    if (method !== 'notifications/initialized' && method !== 'notifications/cancelled') this.log(`notification ${method} ignored`);
  }

  private async request(method: string, params: unknown): Promise<unknown> {
    if (method === 'ping') return {};
    if (method === 'initialize') return this.initialize(params);
    if (this.version === undefined) throw new RpcError(RPC.invalidRequest, `${method}: send initialize first`);
    if (method === 'tools/list') return { tools: this.tools.map((t) => this.describe(t)) };
    if (method === 'tools/call') return this.call(params);
    throw new RpcError(RPC.methodNotFound, `Method not found: ${method}`);
  }

  private initialize(params: unknown): object {
    const asked = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof asked !== 'string') throw new RpcError(RPC.invalidParams, 'initialize: params.protocolVersion (a string) is required');
    // The version asked for when this server speaks it, else its newest (the client decides whether to go on).
    this.version = (PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
    return {
      protocolVersion: this.version,
      capabilities: { tools: { listChanged: false } },
      serverInfo: structured(this.version) ? this.info : { name: this.info.name, version: this.info.version },
      instructions:
        'Read-only tools for policy set definitions (policy initiatives): lint files or text with the diagnostics of `policyset lint`, compare two versions of a set (`policyset diff`), list the rules and explain one. Paths are relative to the working folder and must stay inside it.',
    };
  }

  private describe(tool: Tool): object {
    const modern = structured(this.version!);
    return {
      name: tool.name,
      ...(modern ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(modern && tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    };
  }

  private async call(params: unknown): Promise<ToolResult> {
    const p = params as { name?: unknown; arguments?: unknown } | undefined;
    if (!p || typeof p.name !== 'string') throw new RpcError(RPC.invalidParams, 'tools/call: params.name (a string) is required');
    const tool = this.tools.find((t) => t.name === p.name);
    if (!tool) throw new RpcError(RPC.invalidParams, `Unknown tool: ${p.name} (the tools: ${this.tools.map((t) => t.name).join(', ')})`);
    const args = p.arguments ?? {};
    // Arguments the model got wrong are a tool error it can read and correct (SEP-1303), not a protocol error.
    if (typeof args !== 'object' || Array.isArray(args) || args === null) return toolError(`${tool.name}: arguments must be an object`);
    const result = await tool.call(args as Record<string, unknown>);
    if (!structured(this.version!)) delete result.structuredContent;
    return result;
  }
}

function validId(id: unknown): Id {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** A tool's failure, as a result the model reads. */
export function toolError(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A tool's answer: the JSON in `structuredContent` and, for clients that read text only, as text too. */
export function toolResult(value: Record<string, unknown>, notes: string[] = []): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...notes.map((text) => ({ type: 'text' as const, text }))],
    structuredContent: value,
  };
}

/**
 * Splits a byte stream into lines of at most MAX_MESSAGE_BYTES: `onLine` for each, `onTooLong` once for a
 * line over the limit (skipped up to its end, never held whole).
 */
export function lineReader(
  onLine: (line: string) => void,
  onTooLong: () => void,
  max = MAX_MESSAGE_BYTES,
): { push(chunk: Buffer): void; end(): void } {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  return {
    push(chunk: Buffer) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, newline);
        start = newline + 1;
        if (skipping) {
          skipping = false;
          continue;
        }
        if (size + piece.length > max) {
          parts = [];
          size = 0;
          onTooLong();
          continue;
        }
        const line = Buffer.concat([...parts, piece]).toString('utf8');
        parts = [];
        size = 0;
        onLine(line);
      }
      const rest = chunk.subarray(start);
      if (skipping || !rest.length) return;
      if (size + rest.length > max) {
        parts = [];
        size = 0;
        skipping = true;
        onTooLong();
        return;
      }
      parts.push(Buffer.from(rest));
      size += rest.length;
    },
    end() {
      if (!skipping && size) onLine(Buffer.concat(parts).toString('utf8'));
      parts = [];
      size = 0;
    },
  };
}
