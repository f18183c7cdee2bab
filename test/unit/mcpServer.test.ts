// The MCP server's transport (server/src/cli/mcp/server.ts): lines split across chunks, a line over the limit
// skipped without being held whole, and answers in the order of the lines. The protocol over a real process is
// test/cli/mcp.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineReader, McpServer } from '#server/cli/mcp/server';

test('lines come whole, however the chunks cut them; a line over the limit is skipped and said once', () => {
  const lines: string[] = [];
  let tooLong = 0;
  const reader = lineReader(
    (line) => lines.push(line),
    () => tooLong++,
    16,
  );
  reader.push(Buffer.from('{"a":'));
  reader.push(Buffer.from('1}\n{"b":2}\n{"c"'));
  reader.push(Buffer.from(':3}'));
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  // 40 bytes without a newline, over two chunks: dropped as it comes, then the next line is read.
  reader.push(Buffer.from('x'.repeat(20)));
  reader.push(Buffer.from('y'.repeat(20) + '\n{"d":4}\n'));
  assert.equal(tooLong, 1);
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"d":4}'], 'the long line and the partial one before it are gone; the next is whole');
  reader.push(Buffer.from('{"e":5}'));
  reader.end();
  assert.deepEqual(lines.at(-1), '{"e":5}', 'a last line without a newline is read at the end');
});

test('answers come in the order of the lines, errors found at once included', async () => {
  const sent: Array<Record<string, unknown>> = [];
  const server = new McpServer(
    { name: 't', title: 'T', version: '0' },
    [],
    (m) => sent.push(m as Record<string, unknown>),
    () => undefined,
  );
  server.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } }));
  server.receive('not json');
  server.receive(JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }]));
  server.receive(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
  server.receive(JSON.stringify({ jsonrpc: '1.0', id: 4, method: 'ping' }));
  await server.idle();
  assert.deepEqual(
    sent.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code ?? 'ok']),
    [
      [1, 'ok'],
      [null, -32700],
      [null, -32600],
      [3, 'ok'],
      [4, -32600],
    ],
  );
});
