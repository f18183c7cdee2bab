// E3 (advisor metadata) and E4/E5 (eventstreams) through the api clients, against our local service and
// against mockttp (which no one here wrote): paging, every fault, the DELETE safety rules, no token in output.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as mockttp from 'mockttp';
import {
  AdvisorMetadataClient,
  EventstreamClient,
  ServiceError,
  NetworkError,
  TimeoutError,
  CancelledError,
  InvalidRequestError,
  AuthenticationRequiredError,
  resolveServiceSettings,
  SettingsError,
  eventstreamScopes,
  type HttpClientOptions,
} from '#api';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { LOCAL_EVENTSTREAMS, LOCAL_WORKSPACES } from '../fake-service/eventstreams';

const TOKEN = 'TOKEN-items-api-5c2e9b81f0a4d736';
const WS = LOCAL_WORKSPACES.sales;
const OTHER_WS = LOCAL_WORKSPACES.telemetry;
const ORDERS = LOCAL_EVENTSTREAMS.orders;
const MISSING = '00000000-dead-4bee-8f00-000000000000';
/** Every message of every error in this file, for the leak test at the end. */
const messages: string[] = [];
const caught = async (promise: Promise<unknown>): Promise<Error> => {
  const error = await promise.then(
    () => assert.fail('no error'),
    (e: unknown) => e as Error,
  );
  messages.push(error.message, JSON.stringify(error));
  return error;
};

/** Injected waits: recorded, not slept, so that a Retry-After of 30 s costs nothing. */
function recordingWaits(): { waits: number[]; wait: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms) };
}

describe('against the local service', () => {
  let service: LocalService;
  const metadata = (options: Partial<HttpClientOptions> = {}) =>
    new AdvisorMetadataClient(
      { baseUrl: service.url, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, ...options },
    );
  const items = (options: Partial<HttpClientOptions> = {}) =>
    new EventstreamClient(
      { baseUrl: '', itemsBaseUrl: service.url, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, ...options },
    );

  before(async () => {
    service = await startLocalService();
  });
  after(() => service.close());
  beforeEach(() => {
    service.requests.length = 0;
    service.faults.length = 0;
  });

  describe('E3: list recommendation metadata', () => {
    test('follows nextLink through three pages: recommendation type, category, impact', async () => {
      const { entities, pages } = await metadata().listAll();
      assert.equal(pages, 3);
      assert.deepEqual(
        entities.map((e) => e.name),
        ['recommendationType', 'recommendationCategory', 'recommendationImpact'],
      );
      assert.deepEqual(
        entities[1].properties?.supportedValues?.map((v) => v.id),
        ['HighAvailability', 'Security', 'Performance', 'Cost', 'OperationalExcellence'],
      );
      assert.deepEqual(entities[0].properties?.dependsOn, ['recommendationCategory', 'recommendationImpact']);
      assert.equal(service.requests.length, 3);
      for (const request of service.requests) {
        assert.equal(request.path, '/providers/Provider.Advisor/metadata');
        assert.equal(request.query['api-version'], '2025-01-01');
        assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
      }
      assert.deepEqual(
        service.requests.map((r) => r.query.$skiptoken),
        [undefined, '1', '2'],
      );
    });

    test('a caller that stops after the first page asks for no more', async () => {
      for await (const page of metadata().pages()) {
        assert.equal(page.page, 1);
        break;
      }
      assert.equal(service.requests.length, 1);
    });

    test('$filter is sent as given and honoured on the entity name', async () => {
      const filter = "name eq 'recommendationCategory' or name eq 'recommendationImpact'";
      const { entities, pages } = await metadata().listAll({ filter });
      assert.deepEqual(
        entities.map((e) => e.name),
        ['recommendationCategory', 'recommendationImpact'],
      );
      assert.equal(pages, 2);
      assert.ok(service.requests.every((r) => r.query.$filter === filter));
    });

    test('a filter the service refuses: the metadata ErrorResponse, code and message', async () => {
      const error = await caught(metadata().listAll({ filter: 'category = Cost' }));
      assert.ok(error instanceof ServiceError);
      assert.deepEqual([error.status, error.code, error.shape], [400, 'InvalidFilter', 'metadata']);
      assert.match(error.message, /^InvalidFilter \(400\): The \$filter 'category = Cost' is not supported/);
    });

    test('the provider namespace is a setting', async () => {
      const other = await startLocalService({ providerNamespace: 'Contoso' });
      try {
        const c = new AdvisorMetadataClient({ baseUrl: other.url, providerNamespace: 'Contoso' }, { token: async () => TOKEN });
        assert.equal((await c.listAll()).entities.length, 3);
        assert.equal(other.requests[0].path, '/providers/Contoso.Advisor/metadata');
      } finally {
        await other.close();
      }
    });

    test('faults: 500 on page 2 is retried (a GET), a malformed page ends with its status and excerpt', async () => {
      const page1 = metadata().pages();
      assert.equal((await page1.next()).value?.page, 1);
      service.faults.push({ mode: '500', count: 1 });
      assert.equal((await page1.next()).value?.page, 2);
      assert.equal(service.requests.length, 3, 'page 1, a 500, page 2 again');
      await page1.return(undefined);
      service.faults.push({ mode: 'malformed' });
      const error = await caught(metadata().listAll());
      assert.ok(error instanceof ServiceError && error.status === 200 && error.code === 'InvalidResponse');
    });
  });

  describe('E4: get an eventstream', () => {
    test('reads the item with the bearer token, no api-version (the version is in the path)', async () => {
      const response = await items().get(WS, ORDERS);
      assert.equal(response.body.displayName, 'Orders stream');
      assert.equal(response.body.type, 'Eventstream');
      const [request] = service.requests;
      assert.equal(request.method, 'GET');
      assert.equal(request.path, `/v1/workspaces/${WS}/eventstreams/${ORDERS}`);
      assert.deepEqual(request.query, {});
      assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    });

    test('IDs that are not UUIDs: nothing sent', async () => {
      for (const [ws, id] of [
        ['not-a-uuid', ORDERS],
        [WS, '1234'],
        [WS, `${ORDERS}/../x`],
        ['', ORDERS],
      ]) {
        const error = await caught(items().get(ws, id));
        assert.ok(error instanceof InvalidRequestError, String(error));
        assert.match(error.message, /is not an? (workspace|eventstream) ID: use a UUID/);
      }
      assert.equal(service.requests.length, 0);
    });

    test('ItemNotFound: "no eventstream <id> in workspace <id>", with the request id; the other workspace does not hold it', async () => {
      for (const [ws, id] of [
        [WS, MISSING],
        [OTHER_WS, ORDERS],
      ]) {
        const error = await caught(items().get(ws, id));
        assert.ok(error instanceof ServiceError);
        assert.equal(error.code, 'ItemNotFound');
        assert.equal(error.shape, 'eventstream');
        assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
        assert.equal(error.message, `No eventstream ${id} in workspace ${ws}: ItemNotFound (404) (request id ${error.requestId})`);
      }
      assert.equal(service.requests.length, 2, 'a 404 is not retried');
    });

    test('429 with Retry-After on the items API is waited for exactly as asked, then the item', async () => {
      service.faults.push({ mode: '429', retryAfter: 7, count: 2, path: '/v1/' });
      const { waits, wait } = recordingWaits();
      const response = await items({ wait, timeoutMs: 60_000 }).get(WS, ORDERS);
      assert.equal(response.status, 200);
      assert.deepEqual(waits, [7000, 7000]);
      assert.equal(service.requests.length, 3);
    });

    test('429 without Retry-After: backoff with jitter (growing, within its bounds)', async () => {
      service.faults.push({ mode: '429bare', count: 3, path: '/v1/' });
      const { waits, wait } = recordingWaits();
      await items({ wait, backoffMs: 1000 }).get(WS, ORDERS);
      assert.equal(waits.length, 3);
      waits.forEach((ms, i) => assert.ok(ms >= 500 * 2 ** i && ms <= 1000 * 2 ** i, `wait ${i}: ${ms} ms`));
    });

    test('429 for ever: a bounded number of retries, then the items ErrorResponse with its request id', async () => {
      service.faults.push({ mode: '429', retryAfter: 1, path: '/v1/' });
      const { waits, wait } = recordingWaits();
      const error = await caught(items({ wait, maxRetries: 3 }).get(WS, ORDERS));
      assert.ok(error instanceof ServiceError && error.status === 429 && error.code === 'RequestBlocked' && error.shape === 'eventstream');
      assert.equal(service.requests.length, 4);
      assert.equal(waits.length, 3);
      assert.match(error.message, /\(request id [0-9a-f-]{36}\)$/);
    });

    test('a Retry-After that does not fit in the time left: ends at once, says so', async () => {
      service.faults.push({ mode: '429', retryAfter: 30, path: '/v1/' });
      const error = await caught(items({ timeoutMs: 2000 }).get(WS, ORDERS));
      assert.match(error.message, /not retried: a wait of 30 s does not fit in the/);
      assert.equal(service.requests.length, 1);
    });

    test('500, an HTML 502, a malformed body, a dropped connection, a hung service, a cancellation', async () => {
      service.faults.push({ mode: '500', path: '/v1/' });
      let error = await caught(items({ maxRetries: 1 }).get(WS, ORDERS));
      assert.ok(error instanceof ServiceError && error.status === 500 && error.shape === 'eventstream');
      assert.equal(service.requests.length, 2, 'a GET is retried after a 500');
      service.faults.length = 0;

      service.faults.push({ mode: '502html', count: 1 });
      error = await caught(items({ maxRetries: 0 }).get(WS, ORDERS));
      assert.match(error.message, /502 Bad Gateway .*not JSON: "<html>/);

      service.faults.push({ mode: 'malformed', count: 1 });
      error = await caught(items().get(WS, ORDERS));
      assert.ok(error instanceof ServiceError && error.code === 'InvalidResponse');

      service.faults.push({ mode: 'drop' });
      error = await caught(items({ maxRetries: 1 }).get(WS, ORDERS));
      assert.ok(error instanceof NetworkError);
      service.faults.length = 0;

      service.faults.push({ mode: 'hang', count: 1 });
      error = await caught(items({ timeoutMs: 400 }).get(WS, ORDERS));
      assert.ok(error instanceof TimeoutError);

      service.faults.push({ mode: 'hang', count: 1 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      error = await caught(items().get(WS, ORDERS, { signal: controller.signal }));
      assert.ok(error instanceof CancelledError);
    });

    test('401 and 403 say which scope is needed', async () => {
      const strict = await startLocalService({ token: 'only-this-one' });
      try {
        const c = new EventstreamClient(
          { baseUrl: '', itemsBaseUrl: strict.url, providerNamespace: 'Provider' },
          { token: async () => TOKEN },
        );
        const read = await caught(c.get(WS, ORDERS));
        assert.match(
          read.message,
          /^Unauthorized \(401\): .*; reading an eventstream needs a token with the delegated scope Eventstream\.Read\.All or Item\.Read\.All/,
        );
        const write = await caught(c.delete(WS, ORDERS));
        assert.match(
          write.message,
          /deleting an eventstream needs a token with the delegated scope Eventstream\.ReadWrite\.All or Item\.ReadWrite\.All/,
        );
        assert.equal(strict.requests.length, 2, 'a 401 is not retried');
      } finally {
        await strict.close();
      }
    });

    test('no token: nothing sent', async () => {
      await caught(items({ token: async () => undefined }).get(WS, ORDERS)).then((e) =>
        assert.ok(e instanceof AuthenticationRequiredError),
      );
      assert.equal(service.requests.length, 0);
    });
  });

  describe('E5: delete an eventstream', () => {
    const seed = (id: string, workspaceId = WS) =>
      service.eventstreams.put({ id, workspaceId, displayName: `To delete ${id.slice(0, 4)}`, type: 'Eventstream' });

    test('one DELETE, 200 and an empty body; then the item is gone (ItemNotFound)', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000001';
      seed(id);
      const result = await items().delete(WS, id);
      assert.deepEqual([result.status, result.alreadyDeleted], [200, false]);
      assert.deepEqual(
        service.requests.map((r) => `${r.method} ${r.path}`),
        [`DELETE /v1/workspaces/${WS}/eventstreams/${id}`],
      );
      const error = await caught(items().delete(WS, id));
      assert.match(error.message, new RegExp(`^No eventstream ${id} in workspace ${WS}: ItemNotFound`));
    });

    test('never a second DELETE after a 500, a dropped connection or a time-out', async () => {
      const cases = [
        { mode: '500' as const, error: ServiceError },
        { mode: 'drop' as const, error: NetworkError },
        { mode: 'hang' as const, error: TimeoutError },
      ];
      for (const [i, c] of cases.entries()) {
        const id = `aaaaaaaa-0000-4000-8000-00000000001${i}`;
        seed(id);
        service.requests.length = 0;
        service.faults.length = 0;
        service.faults.push({ mode: c.mode, method: 'DELETE' });
        const error = await caught(items({ timeoutMs: 1500, maxRetries: 3, backoffMs: 10 }).delete(WS, id));
        assert.ok(error instanceof c.error, `${c.mode}: ${String(error)}`);
        assert.equal(service.requests.filter((r) => r.method === 'DELETE').length, 1, `${c.mode}: one DELETE only`);
      }
    });

    test('a DELETE answered 429 goes again after Retry-After, and deletes', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000020';
      seed(id);
      service.faults.push({ mode: '429', retryAfter: 4, count: 1, method: 'DELETE' });
      const { waits, wait } = recordingWaits();
      const result = await items({ wait }).delete(WS, id);
      assert.deepEqual([result.status, result.alreadyDeleted], [200, false]);
      assert.deepEqual(waits, [4000]);
      assert.equal(service.eventstreams.get(WS, id), undefined);
    });

    test('a DELETE retried after a 429 and answered ItemNotFound: "already deleted", not a failure', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000021';
      seed(id);
      service.faults.push({ mode: '429', retryAfter: 2, count: 1, method: 'DELETE' });
      // While the client waits, someone else deletes the item.
      const result = await items({ wait: async () => void service.eventstreams.delete(WS, id) }).delete(WS, id);
      assert.deepEqual([result.status, result.alreadyDeleted], [404, true]);
      assert.deepEqual(
        service.requests.map((r) => r.outcome),
        ['fault 429', '404 ItemNotFound'],
      );
    });

    test('ItemNotFound on the first DELETE (no retry) stays an error', async () => {
      const error = await caught(items().delete(WS, MISSING));
      assert.ok(error instanceof ServiceError && error.code === 'ItemNotFound');
    });

    test('a service that echoes the token: redacted', async () => {
      service.faults.push({ mode: 'echo', path: '/v1/' });
      const error = await caught(items().delete(WS, ORDERS));
      assert.match(error.message, /BadToken \(400\): Rejected header 'Bearer \[redacted\]'/);
      assert.equal(service.requests.length, 1);
    });
  });
});

describe('against mockttp', () => {
  let server: mockttp.Mockttp;
  /** A second server: "another host" for nextLinks that leave the service. */
  let foreign: mockttp.Mockttp;
  let url: string;
  const metadata = (options: Partial<HttpClientOptions> = {}) =>
    new AdvisorMetadataClient(
      { baseUrl: url, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, ...options },
    );
  const items = (options: Partial<HttpClientOptions> = {}) =>
    new EventstreamClient(
      { baseUrl: '', itemsBaseUrl: url, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 20, ...options },
    );
  const META = '/providers/Provider.Advisor/metadata';
  const entity = (name: string) => ({
    id: `providers/Provider.Advisor/metadata/${name}`,
    name,
    type: 'Provider.Advisor/metadata',
    properties: { displayName: name, dependsOn: null, applicableScenarios: ['Alerts'], supportedValues: [{ id: 'A', displayName: 'a' }] },
  });
  const ITEM = `/v1/workspaces/${WS}/eventstreams/${ORDERS}`;
  const itemsError = (errorCode: string, message: string) => ({
    errorCode,
    message,
    requestId: '6a1f2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b',
    moreDetails: [],
    relatedResource: { resourceId: ORDERS, resourceType: 'Eventstream' },
  });

  before(async () => {
    server = mockttp.getLocal();
    foreign = mockttp.getLocal();
    await server.start();
    await foreign.start();
    url = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.stop();
    await foreign.stop();
  });
  beforeEach(async () => {
    await server.reset();
    await foreign.reset();
  });

  const page = (skip: string | null) => (r: mockttp.CompletedRequest) => new URL(r.url).searchParams.get('skip') === skip;

  test('E3: three pages by nextLink, in order, each with api-version and the token', async () => {
    const endpoints = [
      await server
        .forGet(META)
        .matching(page(null))
        .thenJson(200, { value: [entity('recommendationType')], nextLink: `${url}${META}?api-version=2025-01-01&skip=1` }),
      await server
        .forGet(META)
        .matching(page('1'))
        .thenJson(200, { value: [entity('recommendationCategory')], nextLink: `${url}${META}?api-version=2025-01-01&skip=2` }),
      await server
        .forGet(META)
        .matching(page('2'))
        .thenJson(200, { value: [entity('recommendationImpact')] }),
    ];
    const { entities, pages } = await metadata().listAll();
    assert.equal(pages, 3);
    assert.deepEqual(
      entities.map((e) => e.name),
      ['recommendationType', 'recommendationCategory', 'recommendationImpact'],
    );
    for (const endpoint of endpoints) {
      const seen = await endpoint.getSeenRequests();
      assert.equal(seen.length, 1);
      assert.equal(new URL(seen[0].url).searchParams.get('api-version'), '2025-01-01');
      assert.equal(seen[0].headers.authorization, `Bearer ${TOKEN}`);
    }
  });

  test('E3: a nextLink that loops back to a page already read: refused before it is followed', async () => {
    await server
      .forGet(META)
      .matching(page(null))
      .thenJson(200, { value: [entity('a')], nextLink: `${url}${META}?api-version=2025-01-01&skip=1` });
    const second = await server
      .forGet(META)
      .matching(page('1'))
      .thenJson(200, { value: [entity('b')], nextLink: `${url}${META}?skip=1&api-version=2025-01-01` });
    const error = await caught(metadata().listAll());
    assert.ok(error instanceof ServiceError && error.code === 'InvalidNextLink');
    assert.match(error.message, /nextLink of page 2: it repeats a page already read \(a loop\)/);
    assert.equal((await second.getSeenRequests()).length, 1);
    // Back to the first page is a loop too.
    await server.reset();
    await server.forGet(META).thenJson(200, { value: [entity('a')], nextLink: `${url}${META}?api-version=2025-01-01` });
    assert.match((await caught(metadata().listAll())).message, /page 1: it repeats a page already read/);
  });

  test('E3: a nextLink to another host: refused, nothing (and no token) sent there', async () => {
    const foreignUrl = `http://127.0.0.1:${foreign.port}${META}?api-version=2025-01-01&skip=1`;
    const elsewhere = await foreign.forAnyRequest().thenJson(200, { value: [entity('stolen')] });
    await server.forGet(META).thenJson(200, { value: [entity('a')], nextLink: foreignUrl });
    const seen: string[] = [];
    const error = await caught(
      (async () => {
        for await (const p of metadata().pages()) seen.push(...p.value.map((e) => String(e.name)));
      })(),
    );
    assert.deepEqual(seen, ['a'], 'the first page was given before the listing stopped');
    assert.match(
      error.message,
      new RegExp(`it leads to http://127\\.0\\.0\\.1:${foreign.port}, not to the service at ${url.replace(/\./g, '\\.')}`),
    );
    assert.equal((await elsewhere.getSeenRequests()).length, 0);
  });

  test('E3: a chain longer than the page bound ends there', async () => {
    const chain = await server.forGet(META).thenCallback((r) => {
      const n = Number(new URL(r.url).searchParams.get('skip') ?? '0');
      return { statusCode: 200, json: { value: [entity(`e${n}`)], nextLink: `${url}${META}?api-version=2025-01-01&skip=${n + 1}` } };
    });
    const error = await caught(metadata().listAll({ maxPages: 5 }));
    assert.match(error.message, /more than 5 pages/);
    assert.equal((await chain.getSeenRequests()).length, 5, 'five pages read, the sixth not asked for');
  });

  test('E3: the metadata ErrorResponse (403), not retried', async () => {
    const endpoint = await server
      .forGet(META)
      .thenJson(
        403,
        { error: { code: 'AuthorizationFailed', message: 'No read access to the metadata.' } },
        { 'x-ms-request-id': 'meta-req-1' },
      );
    const error = await caught(metadata().listAll());
    assert.ok(error instanceof ServiceError);
    assert.deepEqual([error.status, error.code, error.shape, error.requestId], [403, 'AuthorizationFailed', 'metadata', 'meta-req-1']);
    assert.equal(error.message, 'AuthorizationFailed (403): No read access to the metadata. (request id meta-req-1)');
    assert.equal((await endpoint.getSeenRequests()).length, 1);
  });

  test("E3: a loop is known by the page's address: trailing slashes, the filter and a missing api-version do not hide it", async () => {
    for (const [nextLink, filter] of [
      [`${url}${META}//?api-version=2025-01-01`, undefined],
      [`${url}${META}`, undefined],
      [`${url}${META}?api-version=2025-01-01&%24filter=name+eq+%27a%27`, "name eq 'a'"],
    ] as const) {
      await server.reset();
      const endpoint = await server.forGet(/\/metadata/).thenJson(200, { value: [entity('a')], nextLink });
      const error = await caught(metadata().listAll({ filter }));
      assert.ok(error instanceof ServiceError && error.code === 'InvalidNextLink', `${nextLink}: ${String(error)}`);
      assert.match(error.message, /^Not following the nextLink of page 1: it repeats a page already read \(a loop\)$/, nextLink);
      assert.deepEqual(error.details, []);
      assert.equal((await endpoint.getSeenRequests()).length, 1, nextLink);
    }
  });

  test("E3: a nextLink's own api-version is kept; one without gets the operation's", async () => {
    await server
      .forGet(META)
      .matching(page(null))
      .thenJson(200, { value: [entity('a')], nextLink: `${url}${META}?api-version=2024-06-01&skip=1` });
    const second = await server
      .forGet(META)
      .matching(page('1'))
      .thenJson(200, { value: [entity('b')], nextLink: `${url}${META}?skip=2` });
    const third = await server
      .forGet(META)
      .matching(page('2'))
      .thenJson(200, { value: [entity('c')], nextLink: null });
    const { entities, pages } = await metadata().listAll();
    assert.deepEqual([entities.map((e) => e.name), pages], [['a', 'b', 'c'], 3], 'a null nextLink ends the listing');
    assert.equal(new URL((await second.getSeenRequests())[0].url).searchParams.get('api-version'), '2024-06-01');
    assert.equal(new URL((await third.getSeenRequests())[0].url).searchParams.get('api-version'), '2025-01-01');
  });

  test('E3: a nextLink padded with white space, ASCII or not, is followed to its page', async () => {
    await server
      .forGet(META)
      .matching(page(null))
      .thenJson(200, { value: [entity('a')], nextLink: `\u00a0 ${url}${META}?skip=1\n\u00a0` });
    const second = await server
      .forGet(META)
      .matching(page('1'))
      .thenJson(200, { value: [entity('b')] });
    assert.deepEqual(
      (await metadata({ maxRetries: 0 }).listAll()).entities.map((e) => e.name),
      ['a', 'b'],
    );
    assert.equal((await second.getSeenRequests()).length, 1);
  });

  test('E3: a nextLink that is not a URL ends the listing with a message', async () => {
    await server.forGet(META).thenJson(200, { value: [entity('a')], nextLink: 'http://exa mple.com/next' });
    const error = await caught(metadata().listAll());
    assert.ok(error instanceof ServiceError && error.code === 'InvalidNextLink', String(error));
    assert.equal(error.message, 'Not following the nextLink of page 1: it is not a URL');
    assert.deepEqual(error.details, []);
    await server.reset();
    await server.forGet(META).thenJson(200, { value: [entity('a')], nextLink: ['/next'] });
    const notText = await caught(metadata().listAll());
    assert.ok(notText instanceof ServiceError && notText.code === 'InvalidNextLink', String(notText));
    assert.equal(notText.message, 'The nextLink of page 1 is not a string (an array); the listing may be incomplete, so it stops here');
    assert.deepEqual(notText.details, []);
  });

  test('E3: a page that is not a list names the request it answered: the first GET, or the nextLink of the page before', async () => {
    await server.forGet(META).thenReply(200, '{"value": 7}', { 'content-type': 'application/json' });
    const first = await caught(metadata().listAll());
    assert.ok(first instanceof ServiceError);
    assert.equal(first.message, `The service answered 200 to GET ${META} with JSON that is not a metadata list (no "value" array)`);
    assert.deepEqual(first.details, []);
    await server.reset();
    await server
      .forGet(META)
      .matching(page(null))
      .thenJson(200, { value: [entity('a')], nextLink: `${url}${META}?skip=1` });
    await server
      .forGet(META)
      .matching(page('1'))
      .thenJson(200, { value: [entity('b')], nextLink: `${url}${META}?skip=2` });
    await server.forGet(META).matching(page('2')).thenJson(200, { values: [] });
    assert.equal(
      (await caught(metadata().listAll())).message,
      'The service answered 200 to the nextLink of page 2 with JSON that is not a metadata list (no "value" array)',
    );
  });

  test('E3: the entry bound counts every page: exactly at the bound is read, one more ends the listing', async () => {
    const chain = async () => {
      await server.reset();
      await server
        .forGet(META)
        .matching(page(null))
        .thenJson(200, { value: [entity('a')], nextLink: `${url}${META}?skip=1` });
      await server
        .forGet(META)
        .matching(page('1'))
        .thenJson(200, { value: [entity('b')], nextLink: `${url}${META}?skip=2` });
      await server
        .forGet(META)
        .matching(page('2'))
        .thenJson(200, { value: [entity('c')] });
    };
    await chain();
    assert.equal((await metadata().listAll({ maxEntries: 3 })).entities.length, 3);
    await chain();
    const seen: string[] = [];
    const error = await caught(
      (async () => {
        for await (const p of metadata().pages({ maxEntries: 2 })) seen.push(...p.value.map((e) => String(e.name)));
      })(),
    );
    assert.deepEqual(seen, ['a', 'b']);
    assert.ok(error instanceof ServiceError && error.code === 'TooLarge', String(error));
    assert.equal(
      error.message,
      'The service sent more than 16 MB or 2 entries of metadata; not read further: narrow it with a filter (--filter)',
    );
    assert.deepEqual(error.details, []);
  });

  test('E3: a dropped connection is a network error, not "too much metadata"', async () => {
    await server.forGet(META).thenResetConnection();
    const error = await caught(metadata({ maxRetries: 0 }).listAll());
    assert.ok(error instanceof NetworkError, String(error));
    assert.notEqual(error.code, 'ETOOLARGE');
  });

  test('E4: 429 with Retry-After: 1 is really waited for, then the item', async () => {
    await server.forGet(ITEM).once().thenJson(429, itemsError('RequestBlocked', 'Too many requests.'), { 'Retry-After': '1' });
    const ok = await server.forGet(ITEM).thenJson(200, { id: ORDERS, workspaceId: WS, displayName: 'Orders', type: 'Eventstream' });
    const started = Date.now();
    const response = await items().get(WS, ORDERS);
    assert.equal(response.body.displayName, 'Orders');
    assert.ok(Date.now() - started >= 1000, `${Date.now() - started} ms`);
    assert.equal((await ok.getSeenRequests()).length, 1);
  });

  test("E4: ItemNotFound in the items shape: the user's message, the body's request id, the related resource kept", async () => {
    await server.forGet(ITEM).thenJson(404, itemsError('ItemNotFound', 'The requested item was not found.'));
    const error = await caught(items().get(WS, ORDERS));
    assert.ok(error instanceof ServiceError && error.shape === 'eventstream');
    assert.equal(
      error.message,
      `No eventstream ${ORDERS} in workspace ${WS}: ItemNotFound (404) (request id 6a1f2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b)`,
    );
    assert.equal(error.serviceMessage, 'The requested item was not found.');
  });

  test('E4: other items errors show code, message, related resource and request id', async () => {
    await server
      .forGet(ITEM)
      .thenJson(400, { ...itemsError('InvalidInput', 'Bad request.'), moreDetails: [{ errorCode: 'Detail1', message: 'first detail' }] });
    const error = await caught(items().get(WS, ORDERS));
    assert.equal(
      error.message,
      `InvalidInput (400): Bad request. [Detail1: first detail] (related resource Eventstream ${ORDERS}, request id 6a1f2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b)`,
    );
  });

  test('E5: one DELETE, 200 with an empty body', async () => {
    const endpoint = await server.forDelete(ITEM).thenReply(200, '');
    const result = await items().delete(WS, ORDERS);
    assert.deepEqual([result.status, result.alreadyDeleted], [200, false]);
    const seen = await endpoint.getSeenRequests();
    assert.equal(seen.length, 1);
    assert.equal(seen[0].headers.authorization, `Bearer ${TOKEN}`);
  });

  for (const [what, rule] of [
    ['a reset connection', (b: mockttp.RequestRuleBuilder) => b.thenResetConnection()],
    ['a closed connection', (b: mockttp.RequestRuleBuilder) => b.thenCloseConnection()],
    ['a time-out', (b: mockttp.RequestRuleBuilder) => b.thenTimeout()],
    ['a 500', (b: mockttp.RequestRuleBuilder) => b.thenJson(500, itemsError('InternalError', 'Failed.'))],
    ['a 502', (b: mockttp.RequestRuleBuilder) => b.thenReply(502, '<html>Bad Gateway</html>')],
  ] as const) {
    test(`E5: never a second DELETE after ${what}`, async () => {
      const endpoint = await rule(server.forDelete(ITEM));
      const error = await caught(items({ timeoutMs: 1000, maxRetries: 3 }).delete(WS, ORDERS));
      assert.ok(error instanceof ServiceError || error instanceof NetworkError || error instanceof TimeoutError, String(error));
      assert.equal((await endpoint.getSeenRequests()).length, 1);
    });
  }

  test('E5: 429 (Retry-After) then ItemNotFound: already deleted', async () => {
    const throttled = await server
      .forDelete(ITEM)
      .once()
      .thenJson(429, itemsError('RequestBlocked', 'Too many requests.'), { 'Retry-After': '3' });
    const gone = await server.forDelete(ITEM).thenJson(404, itemsError('ItemNotFound', 'The requested item was not found.'));
    const { waits, wait } = recordingWaits();
    const result = await items({ wait }).delete(WS, ORDERS);
    assert.deepEqual([result.status, result.alreadyDeleted], [404, true]);
    assert.deepEqual(waits, [3000]);
    assert.equal((await throttled.getSeenRequests()).length, 1);
    assert.equal((await gone.getSeenRequests()).length, 1);
  });

  test('E5: 429 without Retry-After, then 200: backoff, deleted', async () => {
    await server.forDelete(ITEM).twice().thenJson(429, itemsError('RequestBlocked', 'Too many requests.'));
    const ok = await server.forDelete(ITEM).thenReply(200, '');
    const { waits, wait } = recordingWaits();
    const result = await items({ wait, backoffMs: 200 }).delete(WS, ORDERS);
    assert.equal(result.alreadyDeleted, false);
    assert.equal(waits.length, 2);
    assert.ok(waits[0] >= 100 && waits[0] <= 200 && waits[1] >= 200 && waits[1] <= 400, String(waits));
    assert.equal((await ok.getSeenRequests()).length, 1);
  });

  test('E5: 503 then ItemNotFound: already deleted (503 is "not processed", as 429)', async () => {
    await server.forDelete(ITEM).once().thenJson(503, itemsError('ServiceUnavailable', 'Try later.'));
    const gone = await server.forDelete(ITEM).thenJson(404, itemsError('ItemNotFound', 'The requested item was not found.'));
    const { wait } = recordingWaits();
    const result = await items({ wait }).delete(WS, ORDERS);
    assert.deepEqual([result.status, result.alreadyDeleted], [404, true]);
    assert.equal((await gone.getSeenRequests()).length, 1);
  });

  test('E5: 429 then another error is that error (the delete failed), with the 429 kept among the earlier answers', async () => {
    await server.forDelete(ITEM).once().thenJson(429, itemsError('RequestBlocked', 'Too many requests.'));
    await server.forDelete(ITEM).once().thenJson(400, itemsError('InvalidInput', 'Bad request.'));
    await server.forDelete(ITEM).thenJson(403, itemsError('InsufficientScopes', 'The caller does not have the scopes.'));
    const { wait } = recordingWaits();
    const invalid = await caught(items({ wait }).delete(WS, ORDERS));
    assert.ok(invalid instanceof ServiceError && invalid.code === 'InvalidInput', String(invalid));
    assert.deepEqual(invalid.earlierStatuses, [429]);
    const forbidden = await caught(items({ wait }).delete(WS, ORDERS));
    assert.ok(forbidden instanceof ServiceError, String(forbidden));
    assert.match(
      forbidden.message,
      /^InsufficientScopes \(403\): .*; deleting an eventstream needs a token with the delegated scope Eventstream\.ReadWrite\.All or Item\.ReadWrite\.All$/,
    );
    assert.deepEqual(forbidden.earlierStatuses, []);
  });

  test('E4: 403 says which scope is needed; an explained error keeps the earlier answers', async () => {
    await server.forGet(ITEM).once().thenJson(429, itemsError('RequestBlocked', 'Too many requests.'));
    await server.forGet(ITEM).thenJson(403, itemsError('InsufficientScopes', 'The caller does not have the scopes.'));
    const { wait } = recordingWaits();
    const error = await caught(items({ wait }).get(WS, ORDERS));
    assert.ok(error instanceof ServiceError && error.status === 403, String(error));
    assert.match(
      error.message,
      /; reading an eventstream needs a token with the delegated scope Eventstream\.Read\.All or Item\.Read\.All \(or a ReadWrite one\)$/,
    );
    assert.deepEqual(error.earlierStatuses, [429]);
  });

  test('E4: a body that is not an item: the error has no details', async () => {
    await server.forGet(ITEM).thenJson(200, ['not', 'an', 'item']);
    const error = await caught(items().get(WS, ORDERS));
    assert.ok(error instanceof ServiceError && error.code === 'InvalidResponse', String(error));
    assert.equal(error.message, `The service answered 200 to GET ${ITEM} with a body that is not an item`);
    assert.deepEqual(error.details, []);
  });

  test('E5: the result of a DELETE: status, request id, and unreadableBody only when the body could not be read', async () => {
    await server.forDelete(ITEM).once().thenReply(200, '', { 'x-ms-request-id': 'del-1' });
    await server.forDelete(ITEM).thenReply(200, '<html>done</html>', { 'x-ms-request-id': 'del-2' });
    assert.deepEqual(await items().delete(WS, ORDERS), { status: 200, alreadyDeleted: false, requestId: 'del-1' });
    assert.deepEqual(await items().delete(WS, ORDERS), {
      status: 200,
      alreadyDeleted: false,
      requestId: 'del-2',
      unreadableBody: '<html>done</html>',
    });
  });

  test('the address of an eventstream, as the confirmation shows it and the DELETE sends it', () => {
    assert.equal(items().eventstreamUrl(WS, ORDERS), `${url}${ITEM}`);
    assert.throws(
      () => items().eventstreamUrl(WS, 'not-a-uuid'),
      (e: Error) => e instanceof InvalidRequestError && /'not-a-uuid' is not an eventstream ID/.test(e.message),
    );
  });

  test('no workspace-items address: the client says so before anything is sent', () => {
    assert.throws(
      () => new EventstreamClient({ baseUrl: url, itemsBaseUrl: '', providerNamespace: 'Provider' }, { token: async () => TOKEN }),
      (e: Error) => e instanceof InvalidRequestError && e.message === 'No workspace-items address (items base URL) is set',
    );
  });

  test("the scopes asked for: the spec's narrower ones, on the items origin", () => {
    assert.deepEqual(eventstreamScopes('https://items.example.com/base', 'read'), ['https://items.example.com/Eventstream.Read.All']);
    assert.deepEqual(eventstreamScopes('https://items.example.com', 'write'), ['https://items.example.com/Eventstream.ReadWrite.All']);
  });
});

describe('settings: the items address', () => {
  test('from the flag or POLICYSET_ITEMS_BASE_URL; https or loopback; required only by the items commands', () => {
    assert.equal(
      resolveServiceSettings([{}], { POLICYSET_ITEMS_BASE_URL: 'https://items.example.com/' }, undefined, 'itemsBaseUrl').itemsBaseUrl,
      'https://items.example.com',
    );
    assert.equal(resolveServiceSettings([{ itemsBaseUrl: 'http://127.0.0.1:9' }], {}, undefined, 'itemsBaseUrl').baseUrl, '');
    assert.throws(
      () => resolveServiceSettings([{ itemsBaseUrl: 'http://items.example.com' }], {}, undefined, 'itemsBaseUrl'),
      /plain http/,
    );
    assert.throws(
      () => resolveServiceSettings([{ baseUrl: 'https://x.example.com' }], {}, undefined, 'itemsBaseUrl', 'give --items-base-url'),
      (e: Error) => e instanceof SettingsError && /no workspace-items address: give --items-base-url/.test(e.message),
    );
    assert.throws(() => resolveServiceSettings([{ itemsBaseUrl: 'https://items.example.com' }], {}), /no service address/);
  });
});

describe('the token never shows', () => {
  test('no error message in this file holds it', () => {
    assert.ok(messages.length > 40, `${messages.length} messages`);
    assert.deepEqual(
      messages.filter((m) => m.includes(TOKEN) || m.includes(TOKEN.slice(6))),
      [],
    );
  });
});
