import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PolicySetClient,
  ServiceError,
  TimeoutError,
  CancelledError,
  NetworkError,
  AuthenticationRequiredError,
  InvalidRequestError,
  resolveServiceSettings,
  serviceErrorOf,
  versionToDeploy,
  SettingsError,
  type HttpClientOptions,
} from '#api';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { SERVED_BUILT_IN } from '../support/corpus';

const TOKEN = 'api-test-token-7f3c';
const SUB = '0b1f6471-1bf0-4dda-aec3-111122223333';
/** A built-in set the local service serves with or without the full corpus beside the checkout. */
const BUILT_IN = SERVED_BUILT_IN;

let service: LocalService;
const client = (options: Partial<HttpClientOptions> = {}, providerNamespace = 'Provider') =>
  new PolicySetClient(
    { baseUrl: service.url, providerNamespace },
    { token: async () => TOKEN, timeoutMs: 5000, backoffMs: 50, ...options },
  );
const properties = () => ({
  displayName: 'Tests',
  policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/871b6d14-10aa-478d-b590-94f262ecfa99' }],
});

before(async () => {
  service = await startLocalService();
});
after(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
  service.faults.length = 0;
});

describe('E1: get a built-in policy set definition', () => {
  test('reads it with api-version and the bearer token; no $expand fields unless asked', async () => {
    const response = await client().getBuiltInPolicySetDefinition(BUILT_IN);
    assert.equal(response.status, 200);
    assert.ok(response.body.properties.policyDefinitions.length > 0);
    for (const ref of response.body.properties.policyDefinitions) {
      assert.equal(ref.latestDefinitionVersion, undefined);
      assert.equal(ref.effectiveDefinitionVersion, undefined);
    }
    assert.equal(service.requests.length, 1);
    const [request] = service.requests;
    assert.equal(request.method, 'GET');
    assert.equal(request.path, `/providers/Provider.Authorization/policySetDefinitions/${BUILT_IN}`);
    assert.equal(request.query['api-version'], '2025-11-01');
    assert.equal(request.query.$expand, undefined);
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
  });

  test('$expand fills exactly the fields asked for', async () => {
    const latest = await client().getBuiltInPolicySetDefinition(BUILT_IN, { expand: ['LatestDefinitionVersion'] });
    for (const ref of latest.body.properties.policyDefinitions) {
      assert.match(String(ref.latestDefinitionVersion), /^\d+\.\d+\.\d+/);
      assert.equal(ref.effectiveDefinitionVersion, undefined);
    }
    const both = await client().getBuiltInPolicySetDefinition(BUILT_IN, {
      expand: ['LatestDefinitionVersion', 'EffectiveDefinitionVersion'],
    });
    for (const ref of both.body.properties.policyDefinitions) {
      assert.ok(ref.latestDefinitionVersion && ref.effectiveDefinitionVersion);
      if (ref.definitionVersion) assert.equal(ref.effectiveDefinitionVersion.split('.')[0], ref.definitionVersion.split('.')[0]);
    }
    assert.equal(service.requests.at(-1)!.query.$expand, 'LatestDefinitionVersion,EffectiveDefinitionVersion');
  });

  test('an unknown name is the policy ErrorResponse, parsed', async () => {
    const error = await client()
      .getBuiltInPolicySetDefinition('no-such-set')
      .then(
        () => assert.fail('no error'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'PolicySetDefinitionNotFound');
    assert.equal(error.shape, 'policy');
    assert.equal(error.target, 'no-such-set');
    assert.match(error.requestId ?? '', /^local-\d+$/);
    assert.match(error.message, /PolicySetDefinitionNotFound \(404\): The policy set definition 'no-such-set' could not be found/);
  });

  test('a name outside the pattern is refused before anything is sent', async () => {
    for (const bad of ['a.b', 'a/b', 'trailing ', '', 'x?y', 'a%2e', 'c:d']) {
      await assert.rejects(client().getBuiltInPolicySetDefinition(bad), InvalidRequestError, bad);
    }
    assert.equal(service.requests.length, 0);
  });

  test('the provider namespace is a setting', async () => {
    const other = await startLocalService({ providerNamespace: 'Contoso' });
    try {
      const c = new PolicySetClient({ baseUrl: other.url, providerNamespace: 'Contoso' }, { token: async () => TOKEN, timeoutMs: 5000 });
      await c.getBuiltInPolicySetDefinition(BUILT_IN);
      assert.equal(other.requests[0].path, `/providers/Contoso.Authorization/policySetDefinitions/${BUILT_IN}`);
    } finally {
      await other.close();
    }
  });
});

describe('E2: create a policy set definition version', () => {
  test('one PUT at subscription scope, body { properties }, 201 then 200', async () => {
    const first = await client().createPolicySetDefinitionVersion(
      { kind: 'subscription', subscriptionId: SUB },
      'my-set',
      '1.2.3',
      properties(),
    );
    assert.equal(first.status, 201);
    assert.equal(first.body.name, '1.2.3');
    const second = await client().createPolicySetDefinitionVersion(
      { kind: 'subscription', subscriptionId: SUB },
      'my-set',
      '1.2.3',
      properties(),
    );
    assert.equal(second.status, 200);
    assert.equal(service.requests.length, 2);
    const request = service.requests[0];
    assert.equal(request.method, 'PUT');
    assert.equal(request.path, `/subscriptions/${SUB}/providers/Provider.Authorization/policySetDefinitions/my-set/versions/1.2.3`);
    assert.equal(request.query['api-version'], '2025-11-01');
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(JSON.parse(request.body), { properties: properties() });
  });

  test('management-group scope path', async () => {
    await client().createPolicySetDefinitionVersion(
      { kind: 'managementGroup', managementGroupId: 'contoso-root' },
      'my-set',
      '2.0.0',
      properties(),
    );
    assert.equal(
      service.requests[0].path,
      '/providers/Provider.Management/managementGroups/contoso-root/providers/Provider.Authorization/policySetDefinitions/my-set/versions/2.0.0',
    );
  });

  test('bad version, scope or name: nothing sent', async () => {
    const c = client();
    await assert.rejects(
      c.createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'my-set', '1.0', properties()),
      /not a version/,
    );
    await assert.rejects(
      c.createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: 'not-a-guid' }, 'my-set', '1.0.0', properties()),
      /not a subscription id/,
    );
    await assert.rejects(
      c.createPolicySetDefinitionVersion({ kind: 'managementGroup', managementGroupId: 'a/b' }, 'my-set', '1.0.0', properties()),
      /not a management group id/,
    );
    await assert.rejects(
      c.createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'my+set', '1.0.0', properties()),
      InvalidRequestError,
    );
    assert.equal(service.requests.length, 0);
  });

  test('a service 400 keeps code, message and target', async () => {
    const error = await client()
      .createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'my-set', '1.0.0', {
        ...properties(),
        version: '9.9.9',
      })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.code, 'InvalidPolicySetDefinitionVersion');
    assert.equal(error.target, 'properties.version');
  });
});

describe('tokens', () => {
  test('no token: nothing is sent', async () => {
    await assert.rejects(client({ token: async () => undefined }).getBuiltInPolicySetDefinition(BUILT_IN), AuthenticationRequiredError);
    await assert.rejects(
      client({ token: async () => '' }).createPolicySetDefinitionVersion(
        { kind: 'subscription', subscriptionId: SUB },
        'x',
        '1.0.0',
        properties(),
      ),
      AuthenticationRequiredError,
    );
    assert.equal(service.requests.length, 0);
  });

  test('the service answers 401 without a bearer token', async () => {
    const answer = await new Promise<{ status: number; body: string; auth: string | undefined }>((resolve, reject) => {
      http
        .get(`${service.url}/providers/Provider.Authorization/policySetDefinitions/${BUILT_IN}?api-version=2025-11-01`, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body, auth: res.headers['www-authenticate'] }));
        })
        .on('error', reject);
    });
    assert.equal(answer.status, 401);
    assert.equal(answer.auth, 'Bearer');
    assert.equal(JSON.parse(answer.body).error.code, 'AuthenticationFailed');
  });

  test('a refused token is a 401 ServiceError, not retried', async () => {
    const strict = await startLocalService({ token: 'the-right-one' });
    try {
      const c = new PolicySetClient({ baseUrl: strict.url, providerNamespace: 'Provider' }, { token: async () => TOKEN, timeoutMs: 5000 });
      const error = await c.getBuiltInPolicySetDefinition(BUILT_IN).catch((e: unknown) => e);
      assert.ok(error instanceof ServiceError && error.status === 401 && error.code === 'AuthenticationFailed');
      assert.equal(strict.requests.length, 1);
    } finally {
      await strict.close();
    }
  });
});

describe('faults', () => {
  test('429 with Retry-After: 2 is retried after at least 2 s', async () => {
    service.faults.push({ mode: '429', retryAfter: 2, count: 1 });
    const retries: number[] = [];
    const response = await client({ onRetry: (i) => retries.push(i.delayMs) }).getBuiltInPolicySetDefinition(BUILT_IN);
    assert.equal(response.status, 200);
    assert.deepEqual(retries, [2000]);
    assert.equal(service.requests.length, 2);
    assert.ok(service.requests[1].at - service.requests[0].at >= 2000, `${service.requests[1].at - service.requests[0].at} ms`);
  });

  test('429 for ever: bounded retries, then the 429 error', async () => {
    service.faults.push({ mode: '429', retryAfter: 0 });
    const error = await client({ maxRetries: 2 })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError && error.status === 429 && error.code === 'TooManyRequests', String(error));
    assert.equal(service.requests.length, 3);
  });

  test('a Retry-After longer than the time left ends at once with a clear message', async () => {
    service.faults.push({ mode: '429', retryAfter: 30 });
    // "At once": no wait is begun (waits recorded, not timed: no assertion on wall time).
    const waits: number[] = [];
    const error = await client({ timeoutMs: 1000, wait: async (ms) => void waits.push(ms) })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError && error.status === 429);
    assert.match(error.message, /not retried: a wait of 30 s does not fit/);
    assert.deepEqual(waits, []);
    assert.equal(service.requests.length, 1);
  });

  test('500: a GET is retried (bounded), then the parsed error', async () => {
    service.faults.push({ mode: '500' });
    const error = await client({ maxRetries: 2 })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError && error.status === 500 && error.code === 'InternalServerError');
    assert.equal(service.requests.length, 3);
  });

  test('500 on a PUT: never sent twice (the service may have done it)', async () => {
    service.faults.push({ mode: '500', method: 'PUT' });
    await assert.rejects(
      client().createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'my-set', '1.0.0', properties()),
      ServiceError,
    );
    assert.equal(service.requests.length, 1);
  });

  test('429 on a PUT: the service did not take it, so it goes again, once it is let through', async () => {
    service.faults.push({ mode: '429', method: 'PUT', retryAfter: 0, count: 1 });
    const response = await client().createPolicySetDefinitionVersion(
      { kind: 'subscription', subscriptionId: SUB },
      'my-set',
      '1.0.1',
      properties(),
    );
    assert.equal(response.status, 201);
    assert.equal(service.requests.filter((r) => r.outcome === '201').length, 1);
    assert.equal(service.requests.length, 2);
  });

  test('a malformed 200 body: an error with status and excerpt', async () => {
    service.faults.push({ mode: 'malformed' });
    const error = await client()
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 200);
    assert.equal(error.code, 'InvalidResponse');
    assert.match(error.message, /200 .*not JSON: "\{"properties": \{"displayName": "cut off"/);
  });

  test('an HTML 502: status and a short excerpt', async () => {
    service.faults.push({ mode: '502html' });
    const error = await client({ maxRetries: 0 })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'UnexpectedResponse');
    assert.match(error.message, /502 Bad Gateway .*not JSON: "<html>/);
  });

  test('a dropped connection: a GET retries, then a clear network error', async () => {
    service.faults.push({ mode: 'drop' });
    const error = await client({ maxRetries: 1 })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(error.message, /GET .* failed: the connection was dropped/);
    assert.equal(service.requests.length, 2);
  });

  test('a dropped connection on a PUT is not sent again', async () => {
    service.faults.push({ mode: 'drop', method: 'PUT' });
    await assert.rejects(
      client().createPolicySetDefinitionVersion({ kind: 'subscription', subscriptionId: SUB }, 'my-set', '1.0.0', properties()),
      NetworkError,
    );
    assert.equal(service.requests.length, 1);
  });

  test('a hung service: a TimeoutError from the time limit, the request not sent again', async () => {
    service.faults.push({ mode: 'hang' });
    // The limit's own error, not a wall-clock window (a loaded machine stretches any window).
    const error = await client({ timeoutMs: 600 })
      .getBuiltInPolicySetDefinition(BUILT_IN)
      .catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.match(error.message, /No answer from the service within 0\.6 s/);
    assert.equal(service.requests.length, 1);
  });

  test('cancellation ends the call at once', async () => {
    service.faults.push({ mode: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // With an hour's time limit, only the cancellation can end this call: no wall-clock assertion needed.
    await assert.rejects(
      client({ timeoutMs: 3_600_000 }).getBuiltInPolicySetDefinition(BUILT_IN, { signal: controller.signal }),
      CancelledError,
    );
  });

  test('cancellation during a Retry-After wait', async () => {
    service.faults.push({ mode: '429', retryAfter: 20 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(
      client({ timeoutMs: 60_000 }).getBuiltInPolicySetDefinition(BUILT_IN, { signal: controller.signal }),
      CancelledError,
    );
  });

  test('a refused connection: a clear message', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const c = new PolicySetClient(
      { baseUrl: `http://127.0.0.1:${port}`, providerNamespace: 'Provider' },
      { token: async () => TOKEN, timeoutMs: 2000, maxRetries: 1, backoffMs: 10 },
    );
    await assert.rejects(c.getBuiltInPolicySetDefinition(BUILT_IN), /connection was refused/);
  });
});

describe('error shapes', () => {
  const facts = (
    status: number,
    body: string,
    headers: Record<string, string> = {},
    area: 'policy' | 'metadata' | 'eventstream' = 'policy',
  ) => ({
    status,
    body,
    headers,
    request: 'GET /x',
    area,
    secrets: ['sekrit-token'],
  });

  test('policy: code, message, target, details, additionalInfo', () => {
    const e = serviceErrorOf(
      facts(
        400,
        JSON.stringify({
          error: {
            code: 'InvalidX',
            message: 'Bad x.',
            target: 'x',
            details: [{ code: 'Inner', message: 'inner', target: 'y' }],
            additionalInfo: [{ type: 't', info: {} }],
          },
        }),
        {
          'x-ms-request-id': 'r-1',
        },
      ),
    );
    assert.equal(e.shape, 'policy');
    assert.deepEqual(
      [e.code, e.serviceMessage, e.target, e.requestId, e.details[0].code, e.details[0].target],
      ['InvalidX', 'Bad x.', 'x', 'r-1', 'Inner', 'y'],
    );
  });

  test('metadata: code and message', () => {
    const e = serviceErrorOf(facts(404, JSON.stringify({ error: { code: 'NotFound', message: 'Nope.' } }), {}, 'metadata'));
    assert.deepEqual([e.shape, e.code, e.serviceMessage], ['metadata', 'NotFound', 'Nope.']);
  });

  test('eventstream: errorCode, moreDetails, relatedResource, requestId from the body', () => {
    const e = serviceErrorOf(
      facts(
        404,
        JSON.stringify({
          errorCode: 'ItemNotFound',
          message: 'The item was not found.',
          requestId: '9a1d1e1e-0000-4000-8000-000000000000',
          relatedResource: { resourceId: 'abc', resourceType: 'Eventstream' },
          moreDetails: [{ errorCode: 'Sub', message: 'sub' }],
        }),
        {},
        'eventstream',
      ),
    );
    assert.deepEqual(
      [e.shape, e.code, e.requestId, e.details[0].code],
      ['eventstream', 'ItemNotFound', '9a1d1e1e-0000-4000-8000-000000000000', 'Sub'],
    );
  });

  test('odd bodies: empty, not JSON, other JSON; the token is never echoed', () => {
    assert.match(serviceErrorOf(facts(503, '')).message, /503 Service Unavailable .*an empty body/);
    assert.match(serviceErrorOf(facts(500, 'x'.repeat(5000))).message, /not JSON: "x{200}…"/);
    assert.match(serviceErrorOf(facts(400, '[1,2]')).message, /JSON that is not an error response/);
    assert.match(serviceErrorOf(facts(400, '{"error": "string"}')).message, /JSON that is not an error response/);
    const echoed = serviceErrorOf(facts(400, JSON.stringify({ error: { code: 'Bad', message: 'token sekrit-token refused' } })));
    assert.doesNotMatch(echoed.message + echoed.serviceMessage, /sekrit-token/);
    assert.doesNotMatch(serviceErrorOf(facts(500, 'Bearer sekrit-token')).message, /sekrit-token/);
  });

  test('Retry-After as seconds and as a date', () => {
    assert.equal(serviceErrorOf(facts(429, '', { 'retry-after': '7' })).retryAfterSeconds, 7);
    const inFive = new Date(Date.now() + 5000).toUTCString();
    const seconds = serviceErrorOf(facts(429, '', { 'retry-after': inFive })).retryAfterSeconds!;
    assert.ok(seconds >= 4 && seconds <= 6, String(seconds));
  });
});

describe('settings', () => {
  test('flags win over settings over the environment; namespace defaults to Provider', () => {
    const env = { POLICYSET_BASE_URL: 'https://env.example.com/' };
    assert.equal(resolveServiceSettings([{}], env).baseUrl, 'https://env.example.com');
    assert.equal(
      resolveServiceSettings([{ baseUrl: 'https://flag.example.com' }, { baseUrl: 'https://setting.example.com' }], env).baseUrl,
      'https://flag.example.com',
    );
    assert.equal(resolveServiceSettings([{}], env).providerNamespace, 'Provider');
    assert.equal(resolveServiceSettings([{ providerNamespace: 'Contoso' }], env).providerNamespace, 'Contoso');
  });

  test('refuses plain http off loopback, credentials in URLs, and no address', () => {
    assert.throws(() => resolveServiceSettings([{ baseUrl: 'http://example.com' }]), /plain http/);
    assert.throws(() => resolveServiceSettings([{ baseUrl: 'https://u:p@example.com' }]), /user name or password/);
    assert.throws(() => resolveServiceSettings([{}], {}), SettingsError);
    assert.throws(() => resolveServiceSettings([{ baseUrl: 'https://x.example.com', providerNamespace: 'a.b' }]), /namespace/);
    assert.equal(resolveServiceSettings([{ baseUrl: 'http://127.0.0.1:8080' }]).baseUrl, 'http://127.0.0.1:8080');
  });
});

describe('what a document deploys', () => {
  test('a set definition: name from name, version from properties.version', () => {
    const v = versionToDeploy({ name: 'my-set', properties: { version: '1.0.0', policyDefinitions: [] } });
    assert.deepEqual([v.name, v.version], ['my-set', '1.0.0']);
  });
  test('a version resource: version from its name, set name from its id or given', () => {
    const v = versionToDeploy({
      id: '/subscriptions/x/providers/P.Authorization/policySetDefinitions/the-set/versions/2.0.0',
      name: '2.0.0',
      properties: { policyDefinitions: [] },
    });
    assert.deepEqual([v.name, v.version], ['the-set', '2.0.0']);
    assert.equal(versionToDeploy({ name: '2.0.0', properties: { policyDefinitions: [] } }).name, undefined);
    assert.equal(versionToDeploy({ name: '2.0.0', properties: { policyDefinitions: [] } }, { name: 'given' }).name, 'given');
  });
  test('disagreeing versions and non-documents are refused', () => {
    assert.throws(() => versionToDeploy({ name: '2.0.0', properties: { version: '2.0.1', policyDefinitions: [] } }), /make them agree/);
    assert.throws(() => versionToDeploy([1]), /no "properties"/);
    assert.throws(() => versionToDeploy({ properties: { version: '1.0', policyDefinitions: [] } }), /not a version/);
  });
  test('a document without a properties object, or without a policyDefinitions array, is refused with what is missing', () => {
    for (const document of [{}, { properties: null }, { properties: 'text' }, { properties: [] }, null, 'text'])
      assert.throws(
        () => versionToDeploy(document),
        /^Error: The document is not a policy set definition or version: it has no "properties" object$/,
        JSON.stringify(document),
      );
    for (const properties of [{}, { policyDefinitions: {} }, { policyDefinitions: null }])
      assert.throws(
        () => versionToDeploy({ name: 'my-set', properties }),
        /^Error: The document has no properties\.policyDefinitions array$/,
        JSON.stringify(properties),
      );
  });
  test('a reference without policyDefinitionId (A2 requires it) is refused with a sentence, a policyDefinitionName named', () => {
    assert.throws(
      () =>
        versionToDeploy({
          name: 's',
          properties: {
            policyDefinitions: [
              { policyDefinitionId: '/providers/P.Authorization/policyDefinitions/a' },
              { policyDefinitionName: 'deny-rdp' },
            ],
          },
        }),
      /^Error: Reference 2 has no policyDefinitionId: the service requires one in every reference \(it names its definition by policyDefinitionName 'deny-rdp' only: policyset deploy resolves that/,
    );
    assert.throws(
      () => versionToDeploy({ name: 's', properties: { policyDefinitions: [{ policyDefinitionId: '' }] } }),
      /Reference 1 has no policyDefinitionId/,
    );
  });
  test('no version anywhere: nothing to check, the caller asks for one', () => {
    const v = versionToDeploy({ name: 'my-set', properties: { policyDefinitions: [] } });
    assert.deepEqual([v.name, v.version, v.nameSource, v.versionSource], ['my-set', undefined, 'the document name', undefined]);
  });
  test('a set name is checked as the service checks it, wherever it comes from', () => {
    assert.throws(
      () => versionToDeploy({ name: 'a/b', properties: { policyDefinitions: [] } }),
      /'a\/b' is not a valid policy set definition name/,
    );
    assert.throws(
      () => versionToDeploy({ name: 'fine', properties: { policyDefinitions: [] } }, { name: 'x.y' }),
      /'x\.y' is not a valid policy set definition name/,
    );
  });
  test('explicit values win over the document, and are named by their labels (by default: given)', () => {
    const v = versionToDeploy({ name: 'from-document', properties: { version: '1.0.0', policyDefinitions: [] } }, { name: 'from-flag' });
    assert.deepEqual([v.name, v.nameSource, v.version, v.versionSource], ['from-flag', 'the name given', '1.0.0', 'properties.version']);
    const w = versionToDeploy(
      { name: 'from-document', properties: { policyDefinitions: [] } },
      { name: 'from-flag', version: '3.0.0' },
      { name: '--name', version: '--version' },
    );
    assert.deepEqual([w.name, w.nameSource, w.version, w.versionSource], ['from-flag', '--name', '3.0.0', '--version']);
    const x = versionToDeploy(
      {
        id: '/providers/P.Authorization/policySetDefinitions/from-id/versions/1.0.0',
        name: '1.0.0',
        properties: { policyDefinitions: [] },
      },
      { name: 'from-flag' },
    );
    assert.deepEqual([x.name, x.nameSource], ['from-flag', 'the name given']);
  });
  test('properties.Version (as ARM exports write it) is read when there is no properties.version', () => {
    const v = versionToDeploy({ name: 'my-set', properties: { Version: '1.2.0', policyDefinitions: [] } });
    assert.deepEqual([v.version, v.versionSource], ['1.2.0', 'properties.version']);
  });
  test('fields that are not text are not read: a name, an id, a version that is a number or a list', () => {
    const v = versionToDeploy({
      name: 42,
      id: ['/providers/P.Authorization/policySetDefinitions/from-id/versions/1.0.0'],
      properties: { version: 1, Version: 2, policyDefinitions: [] },
    });
    assert.deepEqual([v.name, v.version], [undefined, undefined]);
  });
  test('an id is a version id only when it ends with /versions/<version>', () => {
    const v = versionToDeploy({
      id: '/providers/P.Authorization/policySetDefinitions/from-id/versions/1.0.0/extra',
      name: 'from-name',
      properties: { policyDefinitions: [] },
    });
    assert.deepEqual([v.name, v.nameSource], ['from-name', 'the document name']);
  });
  test('response-only fields are left out and counted: one reference, two references', () => {
    const definitionId = '/providers/Microsoft.Authorization/policyDefinitions/871b6d14-10aa-478d-b590-94f262ecfa99';
    const v = versionToDeploy({
      id: 'x',
      name: 'my-set',
      properties: {
        versions: ['1.0.0'],
        policyDefinitions: [
          { policyDefinitionId: definitionId, latestDefinitionVersion: '1.0.0', effectiveDefinitionVersion: '1.0.0' },
          { policyDefinitionId: definitionId, latestDefinitionVersion: '2.0.0' },
          null,
          'text',
        ],
      },
    });
    assert.deepEqual(v.omitted, [
      'id',
      'properties.versions',
      'policyDefinitions[].effectiveDefinitionVersion (1 reference)',
      'policyDefinitions[].latestDefinitionVersion (2 references)',
    ]);
    assert.deepEqual(v.properties.policyDefinitions, [
      { policyDefinitionId: definitionId },
      { policyDefinitionId: definitionId },
      null,
      'text',
    ]);
  });
});
