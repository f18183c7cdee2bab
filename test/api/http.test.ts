// The HTTP client under every api call, by its contract (HttpClient.send: what is sent, what comes back, what
// is thrown), against mockttp on 127.0.0.1. Written to kill the mutants of client/src/api/http.ts that the
// api tests let live (docs/testing.md, "Mutation testing").
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as mockttp from 'mockttp';
import {
  HttpClient,
  backoff,
  formatMegabytes,
  setDefaultTransport,
  ApiError,
  AuthenticationRequiredError,
  CancelledError,
  NetworkError,
  ServiceError,
  TimeoutError,
  type HttpClientOptions,
  type HttpTransport,
  type RetryInfo,
} from '#api';

const TOKEN = 'TOKEN-http-4b7e1c9d0a2f6358';
let server: mockttp.Mockttp;
let url: string;
const servers: http.Server[] = [];

before(async () => {
  server = mockttp.getLocal();
  await server.start();
  url = `http://127.0.0.1:${server.port}`;
});
after(async () => {
  await server.stop();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
beforeEach(() => server.reset());

const client = (options: Partial<HttpClientOptions> = {}) =>
  new HttpClient({ baseUrl: url, token: async () => TOKEN, timeoutMs: 10_000, backoffMs: 5, ...options });
const get = { method: 'GET' as const, path: '/x', apiVersion: '2025-01-01', area: 'policy' as const };
const put = { method: 'PUT' as const, path: '/x', apiVersion: '2025-01-01', area: 'policy' as const, body: { name: 'x' } };
const caught = (promise: Promise<unknown>) =>
  promise.then(
    (v) => assert.fail(`expected a failure, got ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
const recorded = () => {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms) };
};

/** A node:http server on 127.0.0.1 whose handler is the test's. */
async function raw(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

test('the request: base URL without trailing slashes, api-version, query values given (not undefined), bearer token, Accept, User-Agent', async () => {
  const endpoint = await server.forGet('/x').thenJson(200, { ok: true });
  const response = await new HttpClient({ baseUrl: `${url}///`, token: async () => TOKEN }).send({
    ...get,
    query: { a: '1', b: undefined },
  });
  assert.deepEqual(response.body, { ok: true });
  const [seen] = await endpoint.getSeenRequests();
  const target = new URL(seen.url);
  assert.equal(target.pathname, '/x');
  assert.deepEqual(
    [...target.searchParams],
    [
      ['api-version', '2025-01-01'],
      ['a', '1'],
    ],
  );
  assert.equal(seen.headers.authorization, `Bearer ${TOKEN}`);
  assert.equal(seen.headers.accept, 'application/json');
  assert.equal(seen.headers['user-agent'], 'policy-set-tools');
  await client({ userAgent: 'my-agent/1.0' }).send(get);
  assert.equal((await endpoint.getSeenRequests())[1].headers['user-agent'], 'my-agent/1.0');
});

test('a body is sent as UTF-8 JSON with its byte length; no api-version when none is given', async () => {
  const endpoint = await server.forPut('/x').thenReply(201, '');
  const body = { displayName: 'Sécurité € 😀' };
  const response = await client().send({ ...put, apiVersion: '', body });
  assert.equal(response.status, 201);
  assert.equal(response.body, undefined, 'an empty body is no body');
  const [seen] = await endpoint.getSeenRequests();
  assert.deepEqual(await seen.body.getJson(), body);
  assert.match(String(seen.headers['content-type']), /^application\/json; charset=utf-8$/);
  assert.equal(Number(seen.headers['content-length']), Buffer.byteLength(JSON.stringify(body)));
  assert.equal(new URL(seen.url).searchParams.has('api-version'), false);
});

test("an absolute url (a nextLink) keeps its own api-version; one without gets the request's", async () => {
  const endpoint = await server.forGet('/next').thenJson(200, {});
  await client().send({ ...get, path: '', url: `${url}/next?api-version=2024-02-02&page=2` });
  await client().send({ ...get, path: '', url: `${url}/next?page=3` });
  const seen = (await endpoint.getSeenRequests()).map((r) => [...new URL(r.url).searchParams]);
  assert.deepEqual(seen, [
    [
      ['api-version', '2024-02-02'],
      ['page', '2'],
    ],
    [
      ['page', '3'],
      ['api-version', '2025-01-01'],
    ],
  ]);
});

test('a 2xx body of white space is no body; a 2xx body that is not JSON is an InvalidResponse error', async () => {
  await server.forGet('/x').once().thenReply(200, '  \n ');
  assert.equal((await client().send(get)).body, undefined);
  await server.forGet('/x').thenReply(200, '{"cut": ');
  const error = await caught(client().send(get));
  assert.ok(error instanceof ServiceError && error.code === 'InvalidResponse' && error.status === 200, String(error));
});

test('tokens: asked again for each attempt; a provider that fails or gives none means nothing is sent', async () => {
  const endpoint = await server.forGet('/x').once().thenReply(503, '', { 'retry-after': '0' });
  await server.forGet('/x').thenJson(200, {});
  let n = 0;
  await client({ token: async () => `T${++n}` }).send(get);
  const first = (await endpoint.getSeenRequests())[0];
  assert.equal(first.headers.authorization, 'Bearer T1');
  assert.equal(n, 2, 'a second token for the retry');

  await server.reset();
  const none = await server.forAnyRequest().thenJson(200, {});
  const failing = await caught(client({ token: async () => Promise.reject(new Error('keychain locked')) }).send(get));
  assert.ok(
    failing instanceof AuthenticationRequiredError && /Could not get a token: keychain locked/.test(failing.message),
    String(failing),
  );
  const own = new ServiceError('own', 401, 'Own', '', 'policy');
  assert.equal(
    await caught(client({ token: async () => Promise.reject(own) }).send(get)),
    own,
    'an ApiError from the provider is passed on as it is',
  );
  assert.ok((await caught(client({ token: async () => '' }).send(get))) instanceof AuthenticationRequiredError);
  assert.equal((await none.getSeenRequests()).length, 0);
});

test('a signal aborted before the call, or while the token is got: CancelledError, nothing sent', async () => {
  const endpoint = await server.forAnyRequest().thenJson(200, {});
  const controller = new AbortController();
  controller.abort();
  assert.ok((await caught(client().send(get, { signal: controller.signal }))) instanceof CancelledError);
  const during = new AbortController();
  const error = await caught(client({ token: async () => (during.abort(), TOKEN) }).send(get, { signal: during.signal }));
  assert.ok(error instanceof CancelledError, String(error));
  assert.equal((await endpoint.getSeenRequests()).length, 0);
});

test("retries: onRetry is told each attempt, the call's own onRetry wins; earlier statuses are kept on the final error", async () => {
  await server.forGet('/x').thenReply(429, '{"error": {"code": "TooManyRequests", "message": "slow"}}', { 'retry-after': '0' });
  const fromOptions: RetryInfo[] = [];
  const fromCall: RetryInfo[] = [];
  const error = await caught(
    client({ maxRetries: 2, onRetry: (i) => fromOptions.push(i) }).send(get, { onRetry: (i) => fromCall.push(i) }),
  );
  assert.ok(error instanceof ServiceError && error.status === 429);
  assert.deepEqual(error.earlierStatuses, [429, 429]);
  assert.deepEqual(
    fromCall.map((i) => [i.attempt, i.delayMs]),
    [
      [1, 0],
      [2, 0],
    ],
  );
  assert.match(fromCall[0].reason, /429 TooManyRequests/);
  assert.deepEqual(fromOptions, []);
});

test('a read retried after network errors and 5xx, with growing backoff and no more than maxRetries; never past the time limit', async () => {
  const endpoint = await server.forGet('/x').thenReply(502, '<html>bad gateway</html>');
  const { waits, wait } = recorded();
  const error = await caught(client({ maxRetries: 3, backoffMs: 100, maxDelayMs: 1000, wait }).send(get));
  assert.ok(error instanceof ServiceError && error.status === 502);
  assert.equal((await endpoint.getSeenRequests()).length, 4);
  assert.equal(waits.length, 3);
  waits.forEach((ms, i) => assert.ok(ms >= 50 * 2 ** i && ms <= 100 * 2 ** i, `wait ${i}: ${ms}`));
  // A backoff that does not fit in the time left is not begun: the error comes at once.
  const late = recorded();
  const quick = await caught(client({ maxRetries: 3, backoffMs: 60_000, maxDelayMs: 60_000, timeoutMs: 1000, wait: late.wait }).send(get));
  assert.ok(quick instanceof ServiceError && quick.status === 502);
  assert.deepEqual(late.waits, []);
  // The same for a network error.
  const down = await raw((req) => req.socket.destroy());
  const net = recorded();
  assert.ok(
    (await caught(
      new HttpClient({
        baseUrl: down,
        token: async () => TOKEN,
        maxRetries: 3,
        backoffMs: 60_000,
        maxDelayMs: 60_000,
        timeoutMs: 1000,
        wait: net.wait,
      }).send(get),
    )) instanceof NetworkError,
  );
  assert.deepEqual(net.waits, []);
});

test('an answer cut off in its body: a read is retried, a PUT is not (it arrived)', async () => {
  let requests = 0;
  const cut = await raw((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial": ');
    setImmediate(() => res.socket?.destroy());
  });
  const c = new HttpClient({ baseUrl: cut, token: async () => TOKEN, maxRetries: 1, backoffMs: 5 });
  const read = await caught(c.send(get));
  assert.ok(read instanceof NetworkError && read.maybeDelivered, String(read));
  assert.match(read.message, /dropped/);
  assert.equal(requests, 2);
  const write = await caught(c.send(put));
  assert.ok(write instanceof NetworkError, String(write));
  assert.equal(requests, 3, 'the PUT went once');
});

test('maxResponseBytes: a smaller cap is kept too, and an answer within it is read', async () => {
  await server.forGet('/x').thenJson(200, { text: 'x'.repeat(2000) });
  const error = await caught(client({ maxResponseBytes: 1000 }).send(get));
  assert.ok(error instanceof ApiError && !(error instanceof ServiceError), String(error));
  assert.equal((await client({ maxResponseBytes: 4000 }).send<{ text: string }>(get)).body.text.length, 2000);
});

test('the time limit of the call covers its retries: a TimeoutError, not the last status', async () => {
  await server.forGet('/x').thenReply(503, '', { 'retry-after': '0' });
  // Waits that take real time (as in use), each shorter than the limit, together longer.
  const error = await caught(
    client({
      timeoutMs: 300,
      maxRetries: 50,
      wait: (ms, signal) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 100);
          signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), { once: true });
          void ms;
        }),
    }).send(get),
  );
  assert.ok(error instanceof TimeoutError, String(error));
  assert.match(error.message, /within 0\.3 s/);
});

test('the request id of a 2xx answer: x-ms-request-id first, then the other names; an empty one is skipped', async () => {
  await server.forGet('/a').thenJson(200, {}, { 'x-ms-request-id': 'ms-1', 'x-request-id': 'other-1' });
  await server.forGet('/b').thenJson(200, {}, { 'x-ms-request-id': '', 'x-request-id': 'other-2' });
  await server.forGet('/c').thenJson(200, {});
  assert.equal((await client().send({ ...get, path: '/a' })).requestId, 'ms-1');
  assert.equal((await client().send({ ...get, path: '/b' })).requestId, 'other-2');
  assert.equal((await client().send({ ...get, path: '/c' })).requestId, undefined);
});

test('network retries are told too (attempt, wait, reason); the token provider always gets a signal, and is not asked when the call is cancelled already', async () => {
  const down = await raw((req) => req.socket.destroy());
  const told: RetryInfo[] = [];
  const signals: unknown[] = [];
  const { wait } = recorded();
  await caught(
    new HttpClient({ baseUrl: down, token: async (signal) => (signals.push(signal), TOKEN), maxRetries: 2, backoffMs: 5, wait }).send(get, {
      onRetry: (i) => told.push(i),
    }),
  );
  assert.deepEqual(
    told.map((i) => i.attempt),
    [1, 2],
  );
  assert.ok(told.every((i) => /dropped/.test(i.reason) && i.delayMs >= 0));
  assert.ok(signals.length === 3 && signals.every((s) => s instanceof AbortSignal));
  let asked = 0;
  const controller = new AbortController();
  controller.abort();
  assert.ok(
    (await caught(client({ token: async () => (asked++, TOKEN) }).send(get, { signal: controller.signal }))) instanceof CancelledError,
  );
  assert.equal(asked, 0);
  // A provider that fails because the call was cancelled meanwhile: the cancellation is what is said.
  const during = new AbortController();
  const error = await caught(
    client({ token: async () => (during.abort(), Promise.reject(new Error('sign-in closed'))) }).send(get, { signal: during.signal }),
  );
  assert.ok(error instanceof CancelledError, String(error));
});

test('the answer cap is "more than": an answer of exactly the cap is read', async () => {
  const body = JSON.stringify({ text: 'y'.repeat(100) });
  await server.forGet('/x').thenReply(200, body, { 'content-type': 'application/json' });
  assert.equal((await client({ maxResponseBytes: Buffer.byteLength(body) }).send<{ text: string }>(get)).body.text.length, 100);
  const error = await caught(client({ maxResponseBytes: Buffer.byteLength(body) - 1 }).send(get));
  assert.match((error as Error).message, /larger than 1 KB; not read/);
});

test('a 3xx is not a success; a non-JSON 2xx error has no details; a Retry-After that does not fit keeps the statuses before it', async () => {
  await server.forGet('/x').thenJson(300, { choices: [] });
  assert.ok((await caught(client({ maxRetries: 0 }).send(get))) instanceof ServiceError);
  await server.reset();
  await server.forGet('/x').thenReply(200, 'not json');
  const notJson = await caught(client().send(get));
  assert.ok(notJson instanceof ServiceError && notJson.code === 'InvalidResponse');
  assert.deepEqual(notJson.details, []);
  await server.reset();
  await server.forGet('/x').once().thenReply(503, '', { 'retry-after': '0' });
  await server.forGet('/x').thenReply(429, '', { 'retry-after': '3600' });
  const late = await caught(client({ timeoutMs: 5000 }).send(get));
  assert.ok(late instanceof ServiceError && late.status === 429 && /does not fit/.test(late.message), String(late));
  assert.deepEqual(late.earlierStatuses, [503]);
});

test('a connection dropped before any answer: said in those words, with its code; a PUT counts as maybe delivered and is not sent again', async () => {
  let requests = 0;
  const hangUp = await raw((req) => {
    requests++;
    req.resume();
    // The GET's connection is closed, the PUT's reset (RST): Node names the first "socket hang up", the second "read ECONNRESET".
    req.on('end', () => (req.method === 'PUT' ? req.socket.resetAndDestroy() : req.socket.destroy()));
  });
  const c = new HttpClient({ baseUrl: hangUp, token: async () => TOKEN, maxRetries: 0 });
  const read = await caught(c.send(get));
  assert.ok(read instanceof NetworkError, String(read));
  assert.equal(read.message, 'GET /x failed: the connection was dropped before the answer was complete');
  assert.equal(read.code, 'ECONNRESET');
  const write = await caught(new HttpClient({ baseUrl: hangUp, token: async () => TOKEN, maxRetries: 2, backoffMs: 5 }).send(put));
  assert.ok(write instanceof NetworkError && write.maybeDelivered, String(write));
  assert.equal(write.message, 'PUT /x failed: the connection was dropped before the answer was complete');
  assert.equal(requests, 2, 'the PUT went once');
});

test('a read answered 599 is retried like any 5xx', async () => {
  const endpoint = await server.forGet('/x').thenReply(599, '');
  const error = await caught(client({ maxRetries: 1, backoffMs: 1 }).send(get));
  assert.ok(error instanceof ServiceError && error.status === 599, String(error));
  assert.equal((await endpoint.getSeenRequests()).length, 2);
});

test('a Retry-After that does not fit names the time that was left', async () => {
  await server.forGet('/x').thenReply(429, '', { 'retry-after': '20' });
  const error = await caught(client({ timeoutMs: 10_000, maxDelayMs: 60_000 }).send(get));
  assert.ok(error instanceof ServiceError, String(error));
  assert.match(error.message, /; not retried: a wait of 20 s does not fit in the (\d\.\d|10\.0) s left$/);
  assert.doesNotMatch(error.message, /in the 0 s left/);
});

test('the backoff is spread over the upper half of each step, not fixed at one point of it', () => {
  const waits = Array.from({ length: 200 }, () => backoff(2, 100, 10_000));
  assert.ok(
    waits.every((ms) => ms >= 200 && ms <= 400),
    String(waits),
  );
  // 200 draws of a uniform spread over 200 ms: all within 50 ms of each other has a chance below 10^-100.
  assert.ok(Math.max(...waits) - Math.min(...waits) > 50, `spread ${Math.min(...waits)}..${Math.max(...waits)}`);
  assert.ok(
    Array.from({ length: 200 }, () => backoff(20, 100, 1000)).every((ms) => ms >= 500 && ms <= 1000),
    'capped by the maximum',
  );
});

test('a status above 599 (no HTTP status) is an error, not retried', async () => {
  let requests = 0;
  const odd = await raw((req, res) => {
    requests++;
    req.resume();
    res.writeHead(600, { 'content-type': 'text/plain' });
    res.end('odd');
  });
  const error = await caught(new HttpClient({ baseUrl: odd, token: async () => TOKEN, maxRetries: 2, backoffMs: 1 }).send(get));
  assert.ok(error instanceof ServiceError && error.status === 600, String(error));
  assert.equal(requests, 1);
});

test('a PUT whose connection is reset while its body is still being sent may have arrived: not sent again', async () => {
  let requests = 0;
  const reset = await raw((req) => {
    requests++;
    req.socket.resetAndDestroy();
  });
  const big = { ...put, body: { blob: 'x'.repeat(8 * 1024 * 1024) } };
  const error = await caught(new HttpClient({ baseUrl: reset, token: async () => TOKEN, maxRetries: 2, backoffMs: 1 }).send(big));
  assert.ok(error instanceof NetworkError && error.maybeDelivered, String(error));
  assert.notEqual(error.code, 'ECONNREFUSED');
  assert.equal(requests, 1);
});

test('a token that a header cannot carry is refused before sending; the token is never in an error', async () => {
  const endpoint = await server.forGet('/x').thenReply(400, `{"error": {"code": "Bad", "message": "you sent Bearer ${TOKEN}"}}`);
  const refused = await caught(client({ token: async () => 'line\nbreak' }).send(get));
  assert.ok(refused instanceof AuthenticationRequiredError && /cannot carry/.test(refused.message), String(refused));
  assert.equal((await endpoint.getSeenRequests()).length, 0);
  const echoed = await caught(client({ maxRetries: 0 }).send(get));
  assert.ok(echoed instanceof ServiceError, String(echoed));
  assert.equal(echoed.message.includes(TOKEN), false, echoed.message);
  assert.match(echoed.message, /you sent Bearer \[redacted\]/);
});

test('sizes in words: 1 MiB and more in MB, less in KB', () => {
  assert.equal(formatMegabytes(1024 * 1024), '1 MB');
  assert.equal(formatMegabytes(1024 * 1024 - 1), '1024 KB');
  assert.equal(formatMegabytes(64 * 1024 * 1024), '64 MB');
});

test('a transport (given, or the default one the web extension sets) gets the request, with a JSON content type only when there is a body', async () => {
  const seen: Array<{ method: string; headers: Record<string, string>; payload?: string }> = [];
  const transport: HttpTransport = async (request) => {
    seen.push({ method: request.method, headers: request.headers, payload: request.payload });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', bytes: 11 };
  };
  await client({ transport }).send(get);
  await client({ transport }).send({ ...get, method: 'PUT', body: { a: 1 } });
  assert.deepEqual(
    seen.map((s) => [s.method, s.headers['Content-Type'], s.payload]),
    [
      ['GET', undefined, undefined],
      ['PUT', 'application/json; charset=utf-8', '{"a":1}'],
    ],
  );
  assert.equal(seen[0].headers.Authorization, `Bearer ${TOKEN}`);
  setDefaultTransport(transport);
  try {
    const response = await client().send(get);
    assert.deepEqual(response.body, { ok: true });
    assert.equal(seen.length, 3, 'a client without a transport of its own uses the default one');
  } finally {
    setDefaultTransport(undefined);
  }
});

test('a path may carry its own query: its address is checked without it, and the query is sent', async () => {
  const endpoint = await server.forGet('/x').thenJson(200, { ok: true });
  const response = await client().send({ ...get, path: '/x?$filter=name%20eq%20%27a%27' });
  assert.deepEqual(response.body, { ok: true });
  const [seen] = await endpoint.getSeenRequests();
  const target = new URL(seen.url);
  assert.equal(target.searchParams.get('$filter'), "name eq 'a'");
  assert.equal(target.searchParams.get('api-version'), '2025-01-01');
});
