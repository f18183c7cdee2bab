// The guards that protect users from the service and from whoever controls its answers, each tested by what
// a user would see (requests that reach a server, what a call returns or throws), not by how the code is
// written: the retry policy of PUT and DELETE (503 is "not processed"; a refused connection "not delivered"),
// a Retry-After never waited longer than maxDelayMs, the 64 MB answer cap, E7's nextLink guards (foreign
// host, loop, page limit) and the response-shape checks of E1, E3, E4 and E7. The servers are mockttp (a mock
// server no one in this project wrote) on 127.0.0.1, and a plain node:http server where a port must refuse
// first and answer later. Each test was seen to fail with its guard removed (docs/testing.md).
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as mockttp from 'mockttp';
import {
  AdvisorMetadataClient,
  ApiError,
  EventstreamClient,
  ModelDeploymentClient,
  NetworkError,
  PolicySetClient,
  ServiceError,
  type HttpClientOptions,
} from '#api';

const TOKEN = 'TOKEN-guards-0d6b2f9a71c3e485';
const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const WS = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';
const ITEM_ID = '5b218778-e7a5-4d73-8187-f10824047715';
const CS = '/providers/Provider.CognitiveServices';
const USAGES = `/subscriptions/${SUB}${CS}/locations/eastus/usages`;
const DEPLOYMENT = `/subscriptions/${SUB}/resourceGroups/rg-ai${CS}/accounts/acct-a/deployments/chat`;
const VERSION_PATH = `/subscriptions/${SUB}/providers/Provider.Authorization/policySetDefinitions/my-set/versions/1.0.0`;
const ITEM = `/v1/workspaces/${WS}/eventstreams/${ITEM_ID}`;
const META = '/providers/Provider.Advisor/metadata';
const BUILT_IN = '/providers/Provider.Authorization/policySetDefinitions/some-set';

const target = { subscriptionId: SUB, resourceGroupName: 'rg-ai', accountName: 'acct-a', deploymentName: 'chat' };
const deploymentBody = { sku: { name: 'Standard', capacity: 1 }, properties: { model: { format: 'OpenAI', name: 'gpt-4o' } } };
const setProperties = {
  displayName: 'x',
  policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/871b6d14-10aa-478d-b590-94f262ecfa99' }],
};
const usage = (name: string) => ({ name: { value: name }, currentValue: 1, limit: 10, unit: 'Count' });

/** Waits recorded and returned at once: the retry policy is observed without sleeping. */
function recordedWaits(): { waits: number[]; wait: NonNullable<HttpClientOptions['wait']> } {
  const waits: number[] = [];
  return { waits, wait: async (ms) => void waits.push(ms) };
}

const caught = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => assert.fail(`expected a failure, got ${JSON.stringify(value)?.slice(0, 200)}`),
    (error: unknown) => error,
  );

/** A port on 127.0.0.1 that nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let server: mockttp.Mockttp;
/** A second server: "another host" for nextLinks that leave the service. */
let foreign: mockttp.Mockttp;
let url: string;
const opened: http.Server[] = [];

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
  await Promise.all(opened.map((s) => new Promise((resolve) => s.close(resolve))));
});
beforeEach(async () => {
  await server.reset();
  await foreign.reset();
});

const options = (extra: Partial<HttpClientOptions> = {}) => ({ token: async () => TOKEN, timeoutMs: 10_000, backoffMs: 10, ...extra });
const settings = (baseUrl = url) => ({ baseUrl, itemsBaseUrl: baseUrl, providerNamespace: 'Provider' });

describe('the retry policy: 503 means "not processed", so a PUT or a DELETE goes again', () => {
  test('E2: a PUT answered 503 is sent again, and the version is created', async () => {
    const endpoint = await server
      .forPut(VERSION_PATH)
      .once()
      .thenJson(503, { error: { code: 'ServiceUnavailable', message: 'try again' } }, { 'retry-after': '0' });
    const created = await server.forPut(VERSION_PATH).thenJson(201, { name: '1.0.0', properties: setProperties });
    const response = await new PolicySetClient(settings(), options()).createPolicySetDefinitionVersion(
      { kind: 'subscription', subscriptionId: SUB },
      'my-set',
      '1.0.0',
      setProperties,
    );
    assert.equal(response.status, 201);
    assert.equal((await endpoint.getSeenRequests()).length, 1);
    assert.equal((await created.getSeenRequests()).length, 1);
  });

  test('E6: a PUT answered 503 without Retry-After is sent again after a backoff', async () => {
    const { waits, wait } = recordedWaits();
    await server
      .forPut(DEPLOYMENT)
      .once()
      .thenJson(503, { error: { code: 'ServiceUnavailable', message: 'busy' } });
    const done = await server.forPut(DEPLOYMENT).thenJson(201, { name: 'chat', sku: { name: 'Standard', capacity: 1 } });
    const response = await new ModelDeploymentClient(settings(), options({ wait })).createOrUpdateDeployment(target, deploymentBody);
    assert.equal(response.status, 201);
    assert.equal(waits.length, 1);
    assert.equal((await done.getSeenRequests()).length, 1);
  });

  test('E5: a DELETE answered 503 is sent again, and deletes', async () => {
    const busy = await server
      .forDelete(ITEM)
      .once()
      .thenJson(503, { errorCode: 'ServiceUnavailable', message: 'busy', requestId: 'r-1' }, { 'retry-after': '0' });
    const deleted = await server.forDelete(ITEM).thenReply(200, '');
    const result = await new EventstreamClient(settings(), options()).delete(WS, ITEM_ID);
    assert.equal(result.status, 200);
    assert.equal(result.alreadyDeleted, false);
    assert.equal((await busy.getSeenRequests()).length + (await deleted.getSeenRequests()).length, 2);
  });

  test('but a PUT or a DELETE answered 500 or 502 is never sent again', async () => {
    for (const status of [500, 502]) {
      await server.reset();
      const put = await server.forPut(DEPLOYMENT).thenJson(status, { error: { code: 'Boom', message: 'maybe done' } });
      const del = await server.forDelete(ITEM).thenJson(status, { errorCode: 'Boom', message: 'maybe done' });
      await caught(new ModelDeploymentClient(settings(), options()).createOrUpdateDeployment(target, deploymentBody));
      await caught(new EventstreamClient(settings(), options()).delete(WS, ITEM_ID));
      assert.equal((await put.getSeenRequests()).length, 1, `PUT after ${status}`);
      assert.equal((await del.getSeenRequests()).length, 1, `DELETE after ${status}`);
    }
  });
});

describe('the retry policy: a refused connection was not delivered, so a PUT or a DELETE goes again', () => {
  /** A client whose first attempt is refused; the service comes up on that port during the wait before the retry. */
  async function refusedThenUp(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
    const port = await freePort();
    const seen: string[] = [];
    const { waits, wait } = recordedWaits();
    const up = async (ms: number) => {
      await wait(ms, new AbortController().signal);
      if (opened.some((s) => (s.address() as AddressInfo | null)?.port === port)) return;
      const service = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        req.resume().on('end', () => answer(req, res));
      });
      opened.push(service);
      await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
    };
    return { baseUrl: `http://127.0.0.1:${port}`, seen, waits, wait: up };
  }

  test('E6: a PUT whose connection was refused is sent once the service is up', async () => {
    const service = await refusedThenUp((_req, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'chat' })),
    );
    const response = await new ModelDeploymentClient(settings(service.baseUrl), options({ wait: service.wait })).createOrUpdateDeployment(
      target,
      deploymentBody,
    );
    assert.equal(response.status, 201);
    assert.equal(service.waits.length, 1, 'one wait, after the refusal');
    assert.deepEqual(
      service.seen.map((s) => s.split('?')[0]),
      [`PUT ${DEPLOYMENT}`],
    );
  });

  test('E5: a DELETE whose connection was refused is sent once the service is up', async () => {
    const service = await refusedThenUp((_req, res) => res.writeHead(200).end());
    const result = await new EventstreamClient(settings(service.baseUrl), options({ wait: service.wait })).delete(WS, ITEM_ID);
    assert.equal(result.status, 200);
    assert.deepEqual(service.seen, [`DELETE ${ITEM}`]);
  });

  test('E5: a DELETE refused, then answered ItemNotFound: an error, not "already deleted" (the refused attempt never arrived)', async () => {
    const service = await refusedThenUp((_req, res) =>
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errorCode: 'ItemNotFound', message: 'The requested item was not found.' })),
    );
    const error = await caught(new EventstreamClient(settings(service.baseUrl), options({ wait: service.wait })).delete(WS, ITEM_ID));
    assert.ok(error instanceof ServiceError && error.code === 'ItemNotFound', String(error));
    assert.deepEqual(error.earlierStatuses, [0]);
    assert.deepEqual(service.seen, [`DELETE ${ITEM}`]);
  });

  test('a service that stays down: a bounded number of attempts, then a clear network error', async () => {
    const port = await freePort();
    const { waits, wait } = recordedWaits();
    const error = await caught(
      new ModelDeploymentClient(settings(`http://127.0.0.1:${port}`), options({ wait, maxRetries: 2 })).createOrUpdateDeployment(
        target,
        deploymentBody,
      ),
    );
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(error.message, /refused/);
    assert.equal(waits.length, 2);
  });
});

describe('Retry-After: never a wait longer than maxDelayMs', () => {
  test('a 429 asking for 120 s with maxDelayMs 1 s and time to spare: no wait over 1 s is made', async () => {
    const { waits, wait } = recordedWaits();
    const endpoint = await server
      .forGet(BUILT_IN)
      .thenJson(429, { error: { code: 'TooManyRequests', message: 'slow down' } }, { 'retry-after': '120' });
    const error = await caught(
      new PolicySetClient(
        settings(),
        options({ wait, maxDelayMs: 1000, timeoutMs: 3_600_000, maxRetries: 3 }),
      ).getBuiltInPolicySetDefinition('some-set'),
    );
    assert.ok(error instanceof ServiceError && error.status === 429, String(error));
    assert.deepEqual(
      waits.filter((ms) => ms > 1000),
      [],
      `waits: ${waits.join(', ')}`,
    );
    assert.ok((await endpoint.getSeenRequests()).length <= 1 + waits.length);
  });

  test('a Retry-After within maxDelayMs is waited as asked', async () => {
    const { waits, wait } = recordedWaits();
    await server
      .forGet(BUILT_IN)
      .once()
      .thenJson(429, { error: { code: 'TooManyRequests', message: 'slow down' } }, { 'retry-after': '1' });
    await server.forGet(BUILT_IN).thenJson(200, { name: 'some-set', properties: setProperties });
    const response = await new PolicySetClient(settings(), options({ wait, maxDelayMs: 1000 })).getBuiltInPolicySetDefinition('some-set');
    assert.equal(response.status, 200);
    assert.deepEqual(waits, [1000]);
  });
});

describe('the answer-size cap (64 MB by default)', () => {
  test('an answer larger than 64 MB is not read: the call ends with an error that says so, and is not repeated', async () => {
    let requests = 0;
    let hungUp: (finished: boolean) => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (hungUp = resolve));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const big = http.createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"value": "');
      let sent = 0;
      // 80 MB of a JSON string, written as the client reads it, until it hangs up.
      const more = () => {
        while (sent < 80) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      res.on('close', () => hungUp(res.writableFinished));
      more();
    });
    opened.push(big);
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(big.address() as AddressInfo).port}`;
    const error = await caught(
      new PolicySetClient(settings(baseUrl), options({ timeoutMs: 60_000 })).getBuiltInPolicySetDefinition('some-set'),
    );
    assert.ok(error instanceof ApiError, String(error));
    assert.match(error.message, /larger than 64 MB; not read/);
    assert.equal(requests, 1, 'not asked again');
    assert.equal(await closed, false, 'the client hung up before the answer was all sent');
  });
});

describe('E7: the nextLink guards of the usages list', () => {
  const client = () => new ModelDeploymentClient(settings(), options());
  const pageOf = (r: mockttp.CompletedRequest) => new URL(r.url).searchParams.get('page');

  test('a nextLink to another host is not followed: nothing (and no token) sent there', async () => {
    const elsewhere = await foreign.forAnyRequest().thenJson(200, { value: [usage('stolen')] });
    const home = await server
      .forGet(USAGES)
      .thenJson(200, { value: [usage('a')], nextLink: `http://127.0.0.1:${foreign.port}${USAGES}?api-version=2023-05-01&page=2` });
    const error = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(error instanceof ServiceError, String(error));
    assert.match(error.message, /nextLink/);
    assert.equal((await elsewhere.getSeenRequests()).length, 0);
    // Nor is the link's path asked of the service instead: the listing ends at the link.
    assert.equal((await home.getSeenRequests()).length, 1);
  });

  test('a nextLink to another scheme or port of the same host is another host too', async () => {
    const elsewhere = await foreign.forAnyRequest().thenJson(200, { value: [] });
    for (const link of [`https://127.0.0.1:${server.port}${USAGES}?page=2`, `http://localhost:${foreign.port}${USAGES}?page=2`]) {
      await server.reset();
      const home = await server.forGet(USAGES).thenJson(200, { value: [usage('a')], nextLink: link });
      await caught(client().listUsages(SUB, 'eastus'));
      assert.equal((await home.getSeenRequests()).length, 1, link);
    }
    assert.equal((await elsewhere.getSeenRequests()).length, 0);
  });

  test('a nextLink that repeats a page already read ends the listing at once', async () => {
    const first = await server
      .forGet(USAGES)
      .matching((r) => pageOf(r) === null)
      .thenJson(200, { value: [usage('a')], nextLink: `${url}${USAGES}?api-version=2023-05-01&page=2` });
    const again = await server
      .forGet(USAGES)
      .matching((r) => pageOf(r) === '2')
      .thenJson(200, { value: [usage('b')], nextLink: `${url}${USAGES}?api-version=2023-05-01&page=2` });
    const error = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal((await first.getSeenRequests()).length, 1);
    assert.equal((await again.getSeenRequests()).length, 1, 'the repeated page is not asked for again');
  });

  test('a list that never ends is read up to a bound, not to its end', async () => {
    // 1,000 distinct pages, the last without a nextLink: a client without a bound would read them all and succeed.
    const chain = await server.forGet(USAGES).thenCallback((r) => {
      const n = Number(pageOf(r) ?? '1');
      return {
        statusCode: 200,
        json: { value: [usage(`u${n}`)], ...(n < 1000 ? { nextLink: `${url}${USAGES}?api-version=2023-05-01&page=${n + 1}` } : {}) },
      };
    });
    const error = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(error instanceof ServiceError, String(error));
    const read = (await chain.getSeenRequests()).length;
    assert.ok(read < 1000 && read >= 2, `${read} pages read`);
  });

  test('a short list by nextLink is read whole (the guards do not stop honest paging)', async () => {
    await server.forGet(USAGES).thenCallback((r) => {
      const n = Number(pageOf(r) ?? '1');
      return {
        statusCode: 200,
        json: { value: [usage(`u${n}`)], ...(n < 5 ? { nextLink: `${url}${USAGES}?api-version=2023-05-01&page=${n + 1}` } : {}) },
      };
    });
    const { value } = await client().listUsages(SUB, 'eastus');
    assert.deepEqual(
      value.map((u) => u.name?.value),
      ['u1', 'u2', 'u3', 'u4', 'u5'],
    );
  });
});

describe('response shapes: a 2xx whose JSON is not what the operation returns is an error, not data', () => {
  const notShaped = (error: unknown) => error instanceof ServiceError && error.status === 200 && error.code === 'InvalidResponse';

  test('E1: a body without properties.policyDefinitions', async () => {
    for (const body of [[], { properties: {} }, { properties: { policyDefinitions: {} } }, 'a string', null]) {
      await server.reset();
      await server.forGet(BUILT_IN).thenReply(200, JSON.stringify(body), { 'content-type': 'application/json' });
      const error = await caught(new PolicySetClient(settings(), options()).getBuiltInPolicySetDefinition('some-set'));
      assert.ok(notShaped(error), `${JSON.stringify(body)}: ${String(error)}`);
      // Nothing made up: the service gave no details.
      assert.deepEqual((error as ServiceError).details, [], JSON.stringify(body));
    }
  });

  test('E3: a page without a value array', async () => {
    for (const body of [[], { value: {} }, { nextLink: `${url}${META}?page=2` }, 7]) {
      await server.reset();
      await server.forGet(META).thenReply(200, JSON.stringify(body), { 'content-type': 'application/json' });
      const error = await caught(new AdvisorMetadataClient(settings(), options()).listAll());
      assert.ok(notShaped(error), `${JSON.stringify(body)}: ${String(error)}`);
    }
  });

  test('E4: a body that is not an item object', async () => {
    for (const body of [[], 'a string', 42, null]) {
      await server.reset();
      await server.forGet(ITEM).thenReply(200, JSON.stringify(body), { 'content-type': 'application/json' });
      const error = await caught(new EventstreamClient(settings(), options()).get(WS, ITEM_ID));
      assert.ok(notShaped(error), `${JSON.stringify(body)}: ${String(error)}`);
    }
  });

  test('E7: a page without a value array, first or later', async () => {
    for (const body of [[], { value: {} }, { values: [] }, null]) {
      await server.reset();
      await server.forGet(USAGES).thenReply(200, JSON.stringify(body), { 'content-type': 'application/json' });
      const error = await caught(new ModelDeploymentClient(settings(), options()).listUsages(SUB, 'eastus'));
      assert.ok(notShaped(error), `${JSON.stringify(body)}: ${String(error)}`);
    }
    await server.reset();
    await server
      .forGet(USAGES)
      .matching((r) => !new URL(r.url).searchParams.has('page'))
      .thenJson(200, { value: [usage('a')], nextLink: `${url}${USAGES}?page=2` });
    await server.forGet(USAGES).thenJson(200, { value: 'not a list' });
    assert.ok(notShaped(await caught(new ModelDeploymentClient(settings(), options()).listUsages(SUB, 'eastus'))));
  });

  test('E3, E7: entries that are not objects are left out, the rest kept', async () => {
    await server.forGet(META).thenJson(200, { value: [{ name: 'a' }, 'junk', null, [1], { name: 'b' }] });
    await server.forGet(USAGES).thenJson(200, { value: [usage('a'), 3, null, usage('b')] });
    const { entities } = await new AdvisorMetadataClient(settings(), options()).listAll();
    assert.deepEqual(
      entities.map((e) => e.name),
      ['a', 'b'],
    );
    const { value } = await new ModelDeploymentClient(settings(), options()).listUsages(SUB, 'eastus');
    assert.deepEqual(
      value.map((u) => u.name?.value),
      ['a', 'b'],
    );
  });
});
