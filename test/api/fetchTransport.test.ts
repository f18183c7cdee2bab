// The api layer over fetch (the extension in a browser): the same client, retries and error shapes, against
// the local service, which answers browsers' CORS preflights; a call fetch cannot make says what it may be.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, PolicySetClient, NetworkError, TimeoutError, fetchTransport, FETCH_FAILED, type HttpClientOptions } from '#api';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { SERVED_BUILT_IN } from '../support/corpus';

const TOKEN = 'fetch-test-token-51ad';
const SUB = '0b1f6471-1bf0-4dda-aec3-111122223333';
const BUILT_IN = SERVED_BUILT_IN;

let service: LocalService;
/** Each call fetch was asked to make. */
let calls: Array<{ method: string; url: string }> = [];
const countingFetch =
  (inner: typeof fetch = fetch): typeof fetch =>
  (input, init) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    return inner(input, init);
  };
const client = (fetchImpl: typeof fetch = countingFetch(), options: Partial<HttpClientOptions> = {}, baseUrl = service.url) =>
  new PolicySetClient(
    { baseUrl, providerNamespace: 'Provider' },
    { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, transport: fetchTransport(fetchImpl), ...options },
  );

before(async () => {
  service = await startLocalService({ token: TOKEN });
});
after(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
  service.faults.length = 0;
  calls = [];
});

describe('the api layer over fetch', () => {
  test('E1 over fetch: the set, with the bearer token and the api-version', async () => {
    const response = await client().getBuiltInPolicySetDefinition(BUILT_IN);
    assert.equal(response.status, 200);
    assert.ok(response.body.properties.policyDefinitions.length > 0);
    assert.ok(response.requestId, 'the request id is read from the headers');
    assert.equal(service.requests.length, 1);
    assert.equal(service.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
    assert.ok(service.requests[0]!.query['api-version']);
  });

  test('a 429 is waited out and retried, as over Node http', async () => {
    service.faults.push({ mode: '429', method: 'GET', count: 1, retryAfter: 0 });
    const response = await client().getBuiltInPolicySetDefinition(BUILT_IN);
    assert.equal(response.status, 200);
    assert.deepEqual(
      calls.map((c) => c.method),
      ['GET', 'GET'],
    );
  });

  test('a service error keeps its code and message', async () => {
    await assert.rejects(client().getBuiltInPolicySetDefinition('no-such-set-anywhere'), (error: Error & { status?: number }) => {
      assert.equal(error.status, 404);
      return true;
    });
  });

  test('an answer larger than allowed is not read', async () => {
    await assert.rejects(client(countingFetch(), { maxResponseBytes: 200 }).getBuiltInPolicySetDefinition(BUILT_IN), (error: Error) => {
      assert.ok(error instanceof NetworkError);
      assert.equal(error.code, 'ETOOLARGE');
      assert.equal(error.maybeDelivered, true, 'an answer came: the request arrived');
      return true;
    });
  });

  test("a call fetch cannot make (CORS, or no such host) says what it may be and what can do it; never 'Failed to fetch'", async () => {
    // What a browser throws for a refused preflight or an unreachable host: a TypeError that tells nothing.
    const browserLike: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await assert.rejects(client(countingFetch(browserLike)).getBuiltInPolicySetDefinition(BUILT_IN), (error: Error) => {
      assert.ok(error instanceof NetworkError);
      assert.equal(error.code, FETCH_FAILED);
      assert.match(error.message, /CORS/);
      assert.match(error.message, /desktop extension and the policyset CLI/);
      assert.doesNotMatch(error.message, /Failed to fetch/);
      assert.equal(error.maybeDelivered, false, 'a GET is never counted as delivered');
      return true;
    });
    assert.equal(calls.length, 1, 'not retried: it would fail the same way');
  });

  test('a PUT that fetch could not send is not sent again', async () => {
    let puts = 0;
    const failingPut: typeof fetch = (input, init) => {
      if (init?.method === 'PUT') {
        puts++;
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return fetch(input, init);
    };
    await assert.rejects(
      client(failingPut).createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'fetch-test-set', '1.0.0', {
        displayName: 'Fetch test',
        policyDefinitions: [],
      } as never),
      (error: Error) => {
        assert.ok(error instanceof NetworkError && error.code === FETCH_FAILED, String(error));
        assert.equal(error.maybeDelivered, true, 'a PUT fetch could not make may have arrived all the same');
        return true;
      },
    );
    assert.equal(puts, 1);
  });

  test('the local service answers a CORS preflight and allows the answer to be read by a page', async () => {
    const preflight = await fetch(`${service.url}/providers/Provider.Authorization/policySetDefinitions/x`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /PUT/);
    assert.equal(service.requests.length, 0, 'a preflight is not a request of the client');
    await client().getBuiltInPolicySetDefinition(BUILT_IN);
    assert.equal(service.requests.length, 1);
  });
});

describe("fetch's answers read within their bounds (a plain node:http server on 127.0.0.1)", () => {
  let server: http.Server;
  let base = '';
  /** What the server answers next: status, headers, body, and whether to hold the body back. */
  let answer: { status: number; headers: http.OutgoingHttpHeaders; body: string; hold?: boolean } = { status: 200, headers: {}, body: '' };
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(answer.status, answer.headers);
      if (answer.hold) res.flushHeaders();
      else res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const over = (transport = fetchTransport(), options: Partial<HttpClientOptions> = {}) =>
    new HttpClient({ baseUrl: base, token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, maxRetries: 0, transport, ...options });

  test('the default fetch is the global one', async () => {
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
    const response = await over(fetchTransport()).send({ method: 'GET', path: '/x', apiVersion: '', area: 'policy' });
    assert.deepEqual([response.status, response.body, response.bytes], [200, { ok: true }, 11]);
  });

  test('an answer of exactly the bound is read whole, with or without its length declared', async () => {
    const body = JSON.stringify({ text: 'é'.repeat(40) });
    const size = Buffer.byteLength(body);
    for (const headers of [{ 'content-length': String(size) }, { 'transfer-encoding': 'chunked' }]) {
      answer = { status: 200, headers: { 'content-type': 'application/json', ...headers }, body };
      const response = await over(fetchTransport(), { maxResponseBytes: size }).send({
        method: 'GET',
        path: '/x',
        apiVersion: '',
        area: 'policy',
      });
      assert.deepEqual([response.body, response.bytes], [{ text: 'é'.repeat(40) }, size], JSON.stringify(headers));
    }
  });

  test('a declared length over the bound ends the call before the body is read (the body never comes here)', async () => {
    answer = { status: 200, headers: { 'content-type': 'application/json', 'content-length': '5000000' }, body: '', hold: true };
    const error = await over(fetchTransport(), { maxResponseBytes: 1000, timeoutMs: 10_000 })
      .send({ method: 'GET', path: '/x', apiVersion: '', area: 'policy' })
      .then(
        () => assert.fail('no error'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof NetworkError && !(error instanceof TimeoutError), String(error));
    assert.equal(error.code, 'ETOOLARGE');
    assert.equal(error.maybeDelivered, true);
    assert.match(error.message, /^The answer to GET \/x is larger than /);
  });

  test('an answer without a body (304) that declares a length over the bound: a network error, no crash', async () => {
    answer = { status: 304, headers: { 'content-length': '5000000' }, body: '' };
    const error = await over(fetchTransport(), { maxResponseBytes: 1000 })
      .send({ method: 'GET', path: '/x', apiVersion: '', area: 'policy' })
      .then(
        () => assert.fail('no error'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.code, 'ETOOLARGE');
  });

  test('an answer without a body (204) is an empty one', async () => {
    answer = { status: 204, headers: {}, body: '' };
    const response = await over().send({ method: 'DELETE', path: '/x', apiVersion: '', area: 'policy' });
    assert.deepEqual([response.status, response.body, response.bytes], [204, undefined, 0]);
  });

  test('a character split between two chunks of the body is decoded whole', async () => {
    const bytes = Buffer.from(JSON.stringify({ text: 'aé€b' }));
    const cut = bytes.indexOf(Buffer.from('€')) + 1;
    const chunked: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start: (c) => (c.enqueue(new Uint8Array(bytes.subarray(0, cut))), c.enqueue(new Uint8Array(bytes.subarray(cut))), c.close()),
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const response = await over(fetchTransport(chunked)).send({ method: 'GET', path: '/x', apiVersion: '', area: 'policy' });
    assert.deepEqual(response.body, { text: 'aé€b' });
  });

  test("a body that breaks off is a dropped connection, said so, not the browser's own error", async () => {
    const dropped: typeof fetch = async () =>
      new Response(
        new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('{"text":')), c.error(new TypeError('terminated'))) }),
        { status: 200 },
      );
    const error = await over(fetchTransport(dropped))
      .send({ method: 'GET', path: '/x', apiVersion: '', area: 'policy' })
      .then(
        () => assert.fail('no error'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof NetworkError, String(error));
    assert.deepEqual([error.code, error.maybeDelivered], ['ECONNRESET', true]);
    assert.equal(error.message, 'The connection was dropped while the answer to GET /x was read');
  });
});
