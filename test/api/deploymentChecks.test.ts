// The checks E6 and E7 make before anything is sent, and the verdicts they give on what came back, found
// untested by mutation testing (docs/mutation.md): names that are only a valid name when the whole of them
// matches (they become path segments), the deployment body, the model spec, what a failed PUT means (never
// sent twice when it may have been applied), the over-quota answer and the service's own rate limits.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as mockttp from 'mockttp';
import {
  ModelDeploymentClient,
  readDeploymentState,
  AuthenticationRequiredError,
  checkDeploymentBody,
  checkDeploymentTarget,
  checkLocation,
  describeRateLimits,
  InvalidRequestError,
  isInsufficientQuota,
  NetworkError,
  parseModelSpec,
  putOutcome,
  ServiceError,
  TimeoutError,
  type DeploymentBody,
} from '#api';

const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const target = (more: Partial<{ subscriptionId: string; resourceGroupName: string; accountName: string; deploymentName: string }>) => ({
  subscriptionId: SUB,
  resourceGroupName: 'rg',
  accountName: 'acct',
  deploymentName: 'gpt',
  ...more,
});

describe('names are checked whole (they become path segments)', () => {
  test('an account name with anything before or after a valid name is refused', () => {
    assert.equal(checkDeploymentTarget(target({})), undefined);
    for (const accountName of ['acct/../other', 'x/acct', 'acct ', ' acct', '-acct', 'acct-']) {
      assert.match(checkDeploymentTarget(target({ accountName })) ?? '', /is not a model-service resource name/, accountName);
    }
  });

  test('a region with anything before or after a valid name is refused', () => {
    assert.equal(checkLocation('swedencentral'), undefined);
    for (const location of ['eastus/../westus', 'x/eastus', 'eastus ', 'EastUS', '1eastus']) {
      assert.equal(
        checkLocation(location),
        `'${location}' is not a region name in lowercase-joined form (like eastus or swedencentral)`,
        location,
      );
    }
  });
});

describe('the deployment body before a PUT', () => {
  const good: DeploymentBody = {
    sku: { name: 'Standard', capacity: 10 },
    properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } },
  };
  const without = (change: (b: DeploymentBody) => void): DeploymentBody => {
    const body = structuredClone(good);
    change(body);
    return body;
  };

  test('a complete body passes; each missing or wrong part is named', () => {
    assert.equal(checkDeploymentBody(good), undefined);
    assert.equal(checkDeploymentBody(without((b) => delete b.properties.model.version)), undefined, 'the version may be left out');
    const cases: Array<[DeploymentBody, string]> = [
      [without((b) => delete (b as { sku?: unknown }).sku), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.name = '')), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.name = 5 as never)), 'the deployment needs a sku name (the deployment type, like Standard)'],
      [without((b) => (b.sku.capacity = 0)), 'sku.capacity must be a positive whole number (1 = 1,000 TPM), not 0'],
      [without((b) => (b.sku.capacity = 2.5)), 'sku.capacity must be a positive whole number (1 = 1,000 TPM), not 2.5'],
      [without((b) => (b.sku.capacity = 1_000_001)), 'sku.capacity must be at most 1,000,000 (1,000,000,000 TPM), not 1000001'],
      [without((b) => delete (b as { properties?: unknown }).properties), 'the deployment needs properties.model.name'],
      [without((b) => delete (b.properties as { model?: unknown }).model), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.name = '')), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.name = 4 as never)), 'the deployment needs properties.model.name'],
      [without((b) => (b.properties.model.format = '')), 'the deployment needs properties.model.format'],
      [without((b) => (b.properties.model.format = undefined as never)), 'the deployment needs properties.model.format'],
      [without((b) => (b.properties.model.format = 5 as never)), 'the deployment needs properties.model.format'],
      [without((b) => (b.properties.model.version = '')), 'properties.model.version, when given, is a non-empty string'],
      [without((b) => (b.properties.model.version = 1 as never)), 'properties.model.version, when given, is a non-empty string'],
    ];
    for (const [body, message] of cases) assert.equal(checkDeploymentBody(body), message, JSON.stringify(body));
    assert.equal(checkDeploymentBody(without((b) => (b.sku.capacity = 1))), undefined, 'capacity 1 is allowed');
    assert.equal(checkDeploymentBody(without((b) => (b.sku.capacity = 1_000_000))), undefined, 'capacity 1,000,000 is allowed');
  });
});

describe('the model spec name[:version[:format]]', () => {
  test('one to three parts, none of them empty', () => {
    assert.deepEqual(parseModelSpec('gpt-4o'), { format: 'OpenAI', name: 'gpt-4o' });
    assert.deepEqual(parseModelSpec('gpt-4o:2024-08-06'), { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' });
    assert.deepEqual(parseModelSpec('m:1:Other'), { format: 'Other', name: 'm', version: '1' });
    for (const text of ['', ':1', 'a:1:F:x', 'a:', 'a:1:']) {
      assert.throws(
        () => parseModelSpec(text),
        (error: unknown) =>
          error instanceof InvalidRequestError &&
          error.message === `'${text}' is not a model: use <name>[:<version>[:<format>]], like gpt-4o:2024-08-06`,
        text,
      );
    }
  });
});

describe('what a PUT that threw means', () => {
  const service = (status: number) => new ServiceError('x', status, 'Code', 'message', 'policy');
  test('refused only when the service certainly did not apply it; unknown whenever it may have', () => {
    const cases: Array<[unknown, 'refused' | 'unknown']> = [
      [service(400), 'refused'],
      [service(404), 'refused'],
      [service(499), 'refused'],
      [service(408), 'unknown'],
      [service(429), 'refused'],
      [service(503), 'refused'],
      [service(500), 'unknown'],
      [service(502), 'unknown'],
      [service(504), 'unknown'],
      [service(399), 'unknown'],
      [service(418), 'refused'],
      [service(200), 'unknown'],
      [service(299), 'unknown'],
      [service(300), 'unknown'],
      [service(199), 'unknown'],
      [new NetworkError('refused', 'ECONNREFUSED', false), 'refused'],
      [new NetworkError('dropped', 'ECONNRESET', true), 'unknown'],
      [new InvalidRequestError('bad name'), 'refused'],
      [new AuthenticationRequiredError('no token'), 'refused'],
      [new TimeoutError('late'), 'unknown'],
      [new Error('other'), 'unknown'],
    ];
    for (const [error, outcome] of cases)
      assert.equal(putOutcome(error), outcome, `${(error as Error).name} ${(error as ServiceError).status ?? ''}`);
  });
});

describe('answers about quota and limits', () => {
  test('only the code InsufficientQuota (any casing) of a service answer is the over-quota answer', () => {
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'InsufficientQuota', '', 'policy')), true);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'insufficientquota', '', 'policy')), true);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'NotInsufficientQuota', '', 'policy')), false);
    assert.equal(isInsufficientQuota(new ServiceError('x', 400, 'InsufficientQuotaLater', '', 'policy')), false);
    assert.equal(isInsufficientQuota(Object.assign(new Error('x'), { code: 'InsufficientQuota' })), false);
  });

  test("the service's rate limits in one line; entries without a count are left out, unknown keys kept", () => {
    const line = describeRateLimits({
      properties: {
        rateLimits: [
          { key: 'request', renewalPeriod: 60, count: 600 },
          { key: 'token', renewalPeriod: 60, count: 100000 },
          { key: 'burst', count: 5 },
          { count: 7 },
          { key: 'token', renewalPeriod: 60 },
          null,
        ],
      },
    } as never);
    assert.equal(line, '600 requests per 60 s, 100,000 tokens per 60 s, 5 burst per ? s, 7 ? per ? s');
    assert.equal(describeRateLimits(undefined), undefined);
    assert.equal(describeRateLimits({} as never), undefined);
    assert.equal(describeRateLimits({ properties: { rateLimits: [] } } as never), undefined);
    assert.equal(describeRateLimits({ properties: { rateLimits: 'x' } } as never), undefined);
  });
});

describe('E6 and E7 against a service (mockttp)', () => {
  let server: mockttp.Mockttp;
  let url: string;
  before(async () => {
    server = mockttp.getLocal();
    await server.start();
    url = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.stop());
  beforeEach(() => server.reset());

  const TOKEN = 'TOKEN-deployments-5c2a9e';
  const client = (baseUrl = url) =>
    new ModelDeploymentClient(
      { baseUrl, itemsBaseUrl: baseUrl, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 10_000, backoffMs: 5, maxRetries: 0 },
    );
  const DEPLOYMENT = `/subscriptions/${SUB}/resourceGroups/rg/providers/Provider.CognitiveServices/accounts/acct/deployments/gpt`;
  const USAGES = `/subscriptions/${SUB}/providers/Provider.CognitiveServices/locations/eastus/usages`;
  const entry = (name: string) => ({ name: { value: `OpenAI.Standard.${name}` }, currentValue: 1, limit: 10 });
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      (v) => assert.fail(`expected a failure, got ${JSON.stringify(v)}`),
      (e: unknown) => e,
    );

  test('the GET of a deployment: 404 is "none yet"; any other error is thrown, not taken for "none"', async () => {
    await server
      .forGet(DEPLOYMENT)
      .once()
      .thenJson(404, { error: { code: 'DeploymentNotFound', message: 'none' } });
    assert.equal(await client().getDeployment(target({})), undefined);
    await server
      .forGet(DEPLOYMENT)
      .once()
      .thenJson(403, { error: { code: 'AuthorizationFailed', message: 'no' } });
    const denied = await caught(client().getDeployment(target({})));
    assert.ok(denied instanceof ServiceError && denied.status === 403, String(denied));
    await server.forGet(DEPLOYMENT).once().thenJson(200, [1, 2]);
    assert.deepEqual(await client().getDeployment(target({})), {}, 'a body that is not an object is a deployment without fields');
  });

  test("the deployment's state for a plan: a 404 that names the account as missing, another 404, another error", async () => {
    await server
      .forGet(DEPLOYMENT)
      .once()
      .thenJson(404, { error: { code: 'ParentResourceNotFound', message: 'no account' } });
    assert.deepEqual(await readDeploymentState(client(), target({})), { accountMissing: true });
    await server
      .forGet(DEPLOYMENT)
      .once()
      .thenJson(404, { error: { code: 'DeploymentNotFound', message: 'none' } });
    assert.deepEqual(await readDeploymentState(client(), target({})), { accountMissing: false });
    for (const code of ['NoParentResourceNotFound', 'ResourceNotFoundYet']) {
      await server
        .forGet(DEPLOYMENT)
        .once()
        .thenJson(404, { error: { code, message: 'other' } });
      assert.deepEqual(await readDeploymentState(client(), target({})), { accountMissing: false }, code);
    }
    await server
      .forGet(DEPLOYMENT)
      .once()
      .thenJson(500, { error: { code: 'InternalServerError', message: 'x' } });
    const failed = await caught(readDeploymentState(client(), target({})));
    assert.ok(failed instanceof ServiceError && failed.status === 500, String(failed));
    await server.forGet(DEPLOYMENT).once().thenReply(200, '"text"', { 'content-type': 'application/json' });
    assert.deepEqual(await readDeploymentState(client(), target({})), { deployment: {}, accountMissing: false });
  });

  test('the PUT sends only the sku and the model, never other fields of what it was given', async () => {
    const endpoint = await server.forPut(DEPLOYMENT).thenJson(201, {});
    const body = {
      sku: { name: 'Standard', capacity: 2, tier: 'x' },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o' }, raiPolicyName: 'p' },
      tags: { a: 'b' },
    };
    await client().createOrUpdateDeployment(target({}), body as never);
    const [seen] = await endpoint.getSeenRequests();
    assert.deepEqual(await seen.body.getJson(), {
      sku: { name: 'Standard', capacity: 2 },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o' } },
    });
    const refused = await caught(
      client().createOrUpdateDeployment(target({}), { ...body, sku: { name: 'Standard', capacity: 0 } } as never),
    );
    assert.ok(refused instanceof InvalidRequestError, String(refused));
    assert.equal((await endpoint.getSeenRequests()).length, 1, 'a body that fails the check is not sent');
  });

  test("the usages under a base URL with a path: a nextLink keeps its own api-version and query; the path is the service's", async () => {
    const first = await server
      .forGet(`/base${USAGES}`)
      .matching((r) => !new URL(r.url).searchParams.has('page'))
      .thenJson(200, { value: [entry('a')], nextLink: `${url}/base${USAGES}?api-version=2099-01-01&page=2&$skiptoken=t` });
    const second = await server
      .forGet(`/base${USAGES}`)
      .matching((r) => new URL(r.url).searchParams.get('page') === '2')
      .thenJson(200, { value: [entry('b'), 5, null], nextLink: null });
    const listed = await client(`${url}/base//`).listUsages(SUB, 'eastus');
    assert.deepEqual(
      listed.value.map((v) => v.name?.value),
      ['OpenAI.Standard.a', 'OpenAI.Standard.b'],
    );
    assert.equal(listed.pages, 2);
    assert.equal(new URL((await first.getSeenRequests())[0].url).searchParams.get('api-version'), '2023-05-01');
    const next = new URL((await second.getSeenRequests())[0].url);
    assert.deepEqual([...next.searchParams].sort(), [
      ['$skiptoken', 't'],
      ['api-version', '2099-01-01'],
      ['page', '2'],
    ]);
  });

  test('a nextLink outside the base path is another address: not followed', async () => {
    await server.forGet(`/base${USAGES}`).thenJson(200, { value: [entry('a')], nextLink: `${url}/other${USAGES}?page=2` });
    const elsewhere = await server.forGet(`/other${USAGES}`).thenJson(200, { value: [] });
    const error = await caught(client(`${url}/base`).listUsages(SUB, 'eastus'));
    assert.ok(error instanceof ServiceError && /points away from the service/.test(error.message), String(error));
    assert.equal((await elsewhere.getSeenRequests()).length, 0);
  });

  test('a nextLink that is not a URL, or not a string, ends the listing with what was wrong', async () => {
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: [entry('a')], nextLink: 'http://[::1' });
    const bad = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(
      bad instanceof ServiceError && bad.message === "The usages list gave a nextLink that is not a URL: 'http://[::1'",
      String(bad),
    );
    const long = `http://[${'x'.repeat(300)}`;
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: [entry('a')], nextLink: long });
    const cut = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(
      cut instanceof ServiceError && cut.message === `The usages list gave a nextLink that is not a URL: '${long.slice(0, 200)}'`,
      String(cut),
    );
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: [entry('a')], nextLink: ['x'] });
    const array = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(array instanceof ServiceError && /nextLink is not a string \(an array\)/.test(array.message), String(array));
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: [entry('a')], nextLink: '' });
    assert.equal((await client().listUsages(SUB, 'eastus')).pages, 1, 'an empty nextLink ends the list');
  });

  test('the 50th page is read; a 51st is not', async () => {
    let n = 0;
    await server.forGet(USAGES).thenCallback((r) => {
      n = Number(new URL(r.url).searchParams.get('page') ?? '1');
      return { statusCode: 200, json: { value: [entry(`u${n}`)], ...(n < 50 ? { nextLink: `${url}${USAGES}?page=${n + 1}` } : {}) } };
    });
    assert.equal((await client().listUsages(SUB, 'eastus')).pages, 50);
    await server.reset();
    await server.forGet(USAGES).thenCallback((r) => {
      n = Number(new URL(r.url).searchParams.get('page') ?? '1');
      return { statusCode: 200, json: { value: [entry(`u${n}`)], nextLink: `${url}${USAGES}?page=${n + 1}` } };
    });
    const error = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(
      error instanceof ServiceError && error.message === 'The usages list of eastus did not end after 50 pages; not read further',
      String(error),
    );
    assert.equal(n, 50);
  });

  test('the address a PUT goes to, as shown for confirmation, is the one it is sent to', async () => {
    assert.equal(client().deploymentUrl(target({})), `${url}${DEPLOYMENT}?api-version=2023-05-01`);
    assert.throws(() => client().deploymentUrl(target({ accountName: 'a/b' })), InvalidRequestError);
  });

  test('the usages list is bounded: more than 50,000 entries, or more than 8 MB over its pages, is not read further', async () => {
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: Array.from({ length: 50_001 }, () => ({})) });
    const entries = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(
      entries instanceof ServiceError &&
        entries.message === 'The service sent more than 8 MB or 50,000 entries of usage for eastus; not read further',
      String(entries),
    );
    await server
      .forGet(USAGES)
      .once()
      .thenJson(200, { value: Array.from({ length: 50_000 }, () => ({})) });
    assert.equal((await client().listUsages(SUB, 'eastus')).value.length, 50_000, 'exactly 50,000 are read');
    const page = (n: number) => ({
      value: [entry(`u${n}`)],
      padding: 'x'.repeat(5 * 1024 * 1024),
      ...(n < 2 ? { nextLink: `${url}${USAGES}?page=${n + 1}` } : {}),
    });
    await server
      .forGet(USAGES)
      .thenCallback((r) => ({ statusCode: 200, json: page(Number(new URL(r.url).searchParams.get('page') ?? '1')) }));
    const bytes = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(bytes instanceof ServiceError && bytes.code === 'TooLarge' && /more than 8 MB/.test(bytes.message), String(bytes));
  });

  test('a page that is not a usages list: the error names the request and has no details', async () => {
    await server.forGet(USAGES).thenJson(200, { items: [] });
    const error = await caught(client().listUsages(SUB, 'eastus'));
    assert.ok(error instanceof ServiceError && error.code === 'InvalidResponse', String(error));
    assert.deepEqual(error.details, []);
  });

  test('a connection that fails while the usages are read stays a network error, not "too large"', async () => {
    const closed = mockttp.getLocal();
    await closed.start();
    const address = `http://127.0.0.1:${closed.port}`;
    await closed.stop();
    const error = await caught(client(address).listUsages(SUB, 'eastus'));
    assert.ok(error instanceof NetworkError && error.code === 'ECONNREFUSED', String(error));
  });
});
