// The language server's safe handler wrapper (server/src/lsp/runner.ts): whatever happens while a request
// is computed, it answers, and the server stays up.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parsePolicyDocument } from '#service';
import { documentRunner, paramsRunner } from '#server/lsp/runner';

const URI = 'file:///work/set.json';
const token = (cancelled = () => false): CancellationToken => ({
  get isCancellationRequested() {
    return cancelled();
  },
  onCancellationRequested: () => ({ dispose: () => undefined }),
});

function setUp() {
  const open = new Map<string, TextDocument>([[URI, TextDocument.create(URI, 'json', 1, '{}')]]);
  const errors: string[] = [];
  let started = 0;
  const handle = documentRunner({
    documents: { get: (uri: string) => open.get(uri) } as unknown as TextDocuments<TextDocument>,
    parsed: (document) => parsePolicyDocument(document.getText()),
    started: () => void started++,
    logError: (message) => errors.push(message),
  });
  const edit = () => open.set(URI, TextDocument.update(open.get(URI)!, [{ text: '{ }' }], 2));
  return { handle, errors, edit, started: () => started };
}

const codeOf = async (answer: Promise<unknown>) => {
  try {
    await answer;
  } catch (error) {
    assert.ok(error instanceof ResponseError, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail('answered without an error');
};

describe('documentRunner', () => {
  test('answers the work on the current version, and counts the request as started', async () => {
    const { handle, started } = setUp();
    const answer = await handle('hover', (d, p) => `${d.version} ${p.kind}`, 'empty')({ textDocument: { uri: URI } }, token());
    assert.equal(answer, '1 unknown');
    assert.equal(started(), 1);
  });

  test('a document the server does not have: the empty answer, the work not run', async () => {
    const { handle } = setUp();
    let ran = false;
    const answer = await handle('hover', () => ((ran = true), 'x'), 'empty')({ textDocument: { uri: 'file:///other.json' } }, token());
    assert.equal(answer, 'empty');
    assert.equal(ran, false);
  });

  test('cancelled before or during the work: RequestCancelled', async () => {
    const { handle } = setUp();
    assert.equal(
      (
        await codeOf(
          handle(
            'hover',
            () => 'x',
            null,
          )(
            { textDocument: { uri: URI } },
            token(() => true),
          ),
        )
      ).code,
      LSPErrorCodes.RequestCancelled,
    );
    let cancelled = false;
    const during = handle(
      'hover',
      () => ((cancelled = true), 'x'),
      null,
    )(
      { textDocument: { uri: URI } },
      token(() => cancelled),
    );
    assert.equal((await codeOf(during)).code, LSPErrorCodes.RequestCancelled);
  });

  test('the document changed while the answer was computed: ContentModified', async () => {
    const { handle, edit } = setUp();
    const answer = handle(
      'hover',
      async () => {
        edit();
        return 'x';
      },
      null,
    )({ textDocument: { uri: URI } }, token());
    assert.equal((await codeOf(answer)).code, LSPErrorCodes.ContentModified);
  });

  test('a failure: InternalError naming the request, logged with the document; a ResponseError passes as it is', async () => {
    const { handle, errors } = setUp();
    const failed = await codeOf(
      handle(
        'hover',
        () => {
          throw new Error('boom');
        },
        null,
      )({ textDocument: { uri: URI } }, token()),
    );
    assert.deepEqual(failed, { code: ErrorCodes.InternalError, message: 'hover failed: boom' });
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^hover failed on file:\/\/\/work\/set\.json: Error: boom/);
    const refused = await codeOf(
      handle(
        'rename',
        () => {
          throw new ResponseError(ErrorCodes.InvalidRequest, 'no');
        },
        null,
      )({ textDocument: { uri: URI } }, token()),
    );
    assert.deepEqual(refused, { code: ErrorCodes.InvalidRequest, message: 'no' });
    assert.equal(errors.length, 1);
  });
});

describe('paramsRunner', () => {
  test('a failure answers InvalidParams with the label', () => {
    const run = paramsRunner('quota figures', (params: { n: number }) => {
      if (params.n < 0) throw new Error('n is negative');
      return params.n * 2;
    });
    assert.equal(run({ n: 2 }), 4);
    assert.throws(
      () => run({ n: -1 }),
      (error: unknown) =>
        error instanceof ResponseError && error.code === ErrorCodes.InvalidParams && error.message === 'quota figures: n is negative',
    );
  });
});
