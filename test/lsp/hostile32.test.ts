// Issue 32 through the real language server: thousands of unbalanced brackets, sent to every request the
// server answers. Each must answer (an empty answer is fine; a stack overflow or a hang is not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer } from '../support/lspClient';

type Params = (uri: string, position: { line: number; character: number }) => unknown;
const REQUESTS: Array<[string, Params]> = [
  ['textDocument/hover', (uri, position) => ({ textDocument: { uri }, position })],
  ['textDocument/completion', (uri, position) => ({ textDocument: { uri }, position })],
  ['textDocument/definition', (uri, position) => ({ textDocument: { uri }, position })],
  ['textDocument/references', (uri, position) => ({ textDocument: { uri }, position, context: { includeDeclaration: true } })],
  ['textDocument/prepareRename', (uri, position) => ({ textDocument: { uri }, position })],
  [
    'textDocument/codeAction',
    (uri, position) => ({
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: position },
      context: { diagnostics: [] },
    }),
  ],
  ['textDocument/documentSymbol', (uri) => ({ textDocument: { uri } })],
  ['textDocument/foldingRange', (uri) => ({ textDocument: { uri } })],
  ['textDocument/selectionRange', (uri, position) => ({ textDocument: { uri }, positions: [position] })],
  ['textDocument/formatting', (uri) => ({ textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })],
  [
    'textDocument/rangeFormatting',
    (uri, position) => ({
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: position },
      options: { tabSize: 2, insertSpaces: true },
    }),
  ],
  ['textDocument/inlayHint', (uri, position) => ({ textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: position } })],
  ['textDocument/documentLink', (uri) => ({ textDocument: { uri } })],
  ['textDocument/documentHighlight', (uri, position) => ({ textDocument: { uri }, position })],
  ['workspace/symbol', () => ({ query: 'a' })],
  ['policySet/documentInfo', (uri) => ({ textDocument: { uri } })],
  ['policySet/changeReport', (uri) => ({ textDocument: { uri } })],
];

test('[[[[… and {{{{… (3,000 and 6,000): every request answers, none with a stack overflow, none hangs', async () => {
  const client = await startLanguageServer({});
  let n = 0;
  for (const open of ['[', '{', '{"a":[', '[{"a":']) {
    for (const count of [3000, 6000]) {
      const text = open.repeat(count);
      for (const [suffix, languageId] of [
        ['.policyset.json', 'policyset'],
        ['.json', 'json'],
      ]) {
        const uri = `file:///hostile32/brackets-${n++}${suffix}`;
        client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
        for (const position of [
          { line: 0, character: 1 },
          { line: 0, character: text.length },
        ]) {
          for (const [method, params] of REQUESTS) {
            const started = Date.now();
            // A liveness deadline (a hang of the formatter took 18 s at 4,000 '{'), not a timing.
            const answer = await client.request(method, params(uri, position), 15_000);
            const message = (answer.error as { message?: string } | undefined)?.message ?? '';
            assert.doesNotMatch(message, /call stack|Maximum|RangeError|internal/i, `${method} on ${count} × ${open}`);
            if (answer.error) assert.match(message, /can be renamed here/, `${method} on ${count} × ${open}: ${message}`);
            assert.ok(Date.now() - started < 15_000);
          }
        }
      }
    }
  }
});
