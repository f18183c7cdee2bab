// The CLI against a service on 127.0.0.1 that no one in this project wrote: mockttp (HTTP Toolkit's
// programmable mock server). Its rules, not our local service, emulate E1 and E2 as the spec describes them
// (E1, E2, Errors), and its record of seen requests is what the assertions read.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { runCli, isCleanMessage, type RunResult } from '../support/run';
import { SUBSET } from '../support/corpus';
import { cleanSet } from '../support/sets';

/** A token nobody would write by chance: the leak test searches every output for it. */
const TOKEN = 'TOKEN-3rdparty-91c4e7a2b5d80f36';
const SUB = '0b7c1a2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const API_VERSION = '2025-11-01';
const AUTHZ = '/providers/Provider.Authorization';
const EXPAND = ['LatestDefinitionVersion', 'EffectiveDefinitionVersion'] as const;

/** The set E1 answers: a real built-in set (NIS2, from the corpus subset in the repository). */
const SET: { name: string; properties: { policyDefinitions: Array<Record<string, unknown>>; [k: string]: unknown }; [k: string]: unknown } =
  JSON.parse(fs.readFileSync(path.join(SUBSET.sets, 'Regulatory_Compliance', 'NIS2.json'), 'utf8'));

/** E1's answer for a set of $expand values: each reference gains exactly the asked fields. */
function expanded(asked: readonly string[]): typeof SET {
  const copy = structuredClone(SET);
  copy.properties.policyDefinitions = copy.properties.policyDefinitions.map((ref) => {
    const major = /^(\d+)\./.exec(String(ref.definitionVersion ?? ''))?.[1] ?? '1';
    return {
      ...ref,
      ...(asked.includes('LatestDefinitionVersion') ? { latestDefinitionVersion: `${major}.2.0` } : {}),
      ...(asked.includes('EffectiveDefinitionVersion') ? { effectiveDefinitionVersion: `${major}.1.0` } : {}),
    };
  });
  return copy;
}

/** The policy ErrorResponse (spec "Errors"). */
const policyError = (code: string, message: string, target?: string) => ({
  error: { code, message, ...(target ? { target } : {}), details: [], additionalInfo: [] },
});

const pathOf = (request: mockttp.CompletedRequest) => new URL(request.url).pathname;
const expandOf = (request: mockttp.CompletedRequest): string[] | undefined => {
  const value = new URL(request.url).searchParams.get('$expand');
  return value === null
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .sort();
};
const VERSION_PATHS = [
  /^\/subscriptions\/[0-9a-fA-F-]{36}\/providers\/Provider\.Authorization\/policySetDefinitions\/[^/]+\/versions\/\d+\.\d+\.\d+$/,
  /^\/providers\/Provider\.Management\/managementGroups\/[^/]+\/providers\/Provider\.Authorization\/policySetDefinitions\/[^/]+\/versions\/\d+\.\d+\.\d+$/,
];

/** Priorities: faults a test adds (5) over the 401 rule (4) over E1/E2 (2) over "not found" (1) over anything else (0). */
const FAULT = 5;

interface Service {
  server: mockttp.Mockttp;
  url: string;
  /** Every request the server saw, in order. */
  seen: mockttp.CompletedRequest[];
}

/** A mockttp server on 127.0.0.1 with rules for E1 and E2 per the spec. */
async function emulatedService(): Promise<Service> {
  const server = mockttp.getLocal();
  await server.start();
  const seen: mockttp.CompletedRequest[] = [];
  await server.on('request', (request) => void seen.push(request));

  // 401 without a bearer token, whatever was asked.
  await server
    .forAnyRequest()
    .matching((r) => !/^Bearer \S+$/.test(String(r.headers.authorization ?? '')))
    .asPriority(4)
    .thenJson(
      401,
      policyError('AuthenticationFailed', 'Authentication failed: the Authorization header is missing or not a bearer token.'),
    );

  // E1: the known set, with latest/effective definition versions only when $expand asks for them.
  const e1 = `${AUTHZ}/policySetDefinitions/${SET.name}`;
  for (const asked of [[], ['LatestDefinitionVersion'], ['EffectiveDefinitionVersion'], [...EXPAND]]) {
    const key = [...asked].sort().join(',');
    await server
      .forGet(e1)
      .withQuery({ 'api-version': API_VERSION })
      .matching((r) => (expandOf(r) ?? []).join(',') === key)
      .asPriority(2)
      .thenJson(200, expanded(asked), { 'x-ms-request-id': `e1-${key || 'plain'}` });
  }
  // E1: any other name (or an $expand it does not support): the policy ErrorResponse.
  await server
    .forGet(/\/providers\/Provider\.Authorization\/policySetDefinitions\/[^/?]+(\?|$)/)
    .asPriority(1)
    .thenCallback((r) => {
      const name = decodeURIComponent(pathOf(r).split('/').pop() ?? '');
      if (name === SET.name)
        return {
          statusCode: 400,
          json: policyError('InvalidExpandValue', `$expand '${expandOf(r)?.join(',')}' is not supported.`, '$expand'),
        };
      return {
        statusCode: 404,
        json: policyError('PolicySetDefinitionNotFound', `The policy set definition '${name}' could not be found.`),
      };
    });

  // E2: PUT of a version at subscription or management-group scope; answers the resource it stored.
  await server
    .forPut()
    .withQuery({ 'api-version': API_VERSION })
    .matching((r) => VERSION_PATHS.some((p) => p.test(pathOf(r))))
    .asPriority(2)
    .thenCallback(async (r) => {
      const body = (await r.body.getJson()) as { properties?: Record<string, unknown> } | undefined;
      if (!body || typeof body.properties !== 'object' || body.properties === null)
        return { statusCode: 400, json: policyError('InvalidRequestContent', 'The request content has no properties object.') };
      const p = pathOf(r);
      return {
        statusCode: 201,
        headers: { 'x-ms-request-id': 'e2-created' },
        json: {
          id: p,
          name: p.split('/').pop(),
          type: 'Provider.Authorization/policySetDefinitions/versions',
          properties: body.properties,
        },
      };
    });

  // Anything else: the service does not know it.
  await server.forUnmatchedRequest().thenJson(400, policyError('InvalidRequest', 'No such operation (or a missing/wrong api-version).'));

  return { server, url: `http://127.0.0.1:${server.port}`, seen };
}

let dir: string;
const servers: mockttp.Mockttp[] = [];
/** Every output of every run in this file, for the leak test at the end. */
const outputs: string[] = [];
const fresh = async () => {
  const service = await emulatedService();
  servers.push(service.server);
  return service;
};

async function cli(service: Service, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const result = await runCli([...args, '--base-url', service.url], { env: fullEnv, timeoutMs: 60_000 });
  outputs.push(result.stdout, result.stderr);
  return result;
}

/** The last line of stderr: the one message a failed run ends with. */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1) ?? '';

const DEPLOYABLE = cleanSet('third-party-set', 'Third-party deploy', '2.1.0');
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
};

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-3rdparty-'));
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const CONCURRENT = { concurrency: 4 };

describe('against mockttp: policyset fetch (E1)', CONCURRENT, () => {
  test('prints the set; latest/effective definition versions present exactly when asked', async () => {
    const service = await fresh();
    for (const asked of [[], ['LatestDefinitionVersion'], ['EffectiveDefinitionVersion'], [...EXPAND]]) {
      const result = await cli(service, ['fetch', SET.name, ...(asked.length ? ['--expand', asked.join(',')] : [])]);
      assert.equal(result.code, 0, result.stderr);
      const refs = (JSON.parse(result.stdout) as typeof SET).properties.policyDefinitions;
      assert.equal(refs.length, SET.properties.policyDefinitions.length);
      for (const field of ['latestDefinitionVersion', 'effectiveDefinitionVersion']) {
        const wanted = asked.includes(field[0].toUpperCase() + field.slice(1));
        assert.ok(
          refs.every((r) => field in r === wanted),
          `${field} ${wanted ? 'on every reference' : 'on none'} when --expand is '${asked.join(',')}'`,
        );
      }
    }
    assert.equal(service.seen.length, 4);
    for (const request of service.seen) {
      assert.equal(request.method, 'GET');
      assert.equal(pathOf(request), `${AUTHZ}/policySetDefinitions/${SET.name}`);
      assert.equal(new URL(request.url).searchParams.get('api-version'), API_VERSION);
      assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    }
    assert.deepEqual(service.seen.map(expandOf), [
      undefined,
      ['LatestDefinitionVersion'],
      ['EffectiveDefinitionVersion'],
      [...EXPAND].sort(),
    ]);
  });

  test('-o saves the set, nothing on stdout', async () => {
    const service = await fresh();
    const out = path.join(dir, 'fetched.json');
    const result = await cli(service, ['fetch', SET.name, '--expand', 'LatestDefinitionVersion', '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /saved .* to /);
    const saved = JSON.parse(fs.readFileSync(out, 'utf8')) as typeof SET;
    assert.deepEqual(saved, expanded(['LatestDefinitionVersion']));
  });

  test('an unknown name: the ErrorResponse code and message, exit 2', async () => {
    const service = await fresh();
    const result = await cli(service, ['fetch', 'no-such-set']);
    assert.equal(result.code, 2);
    const lines = result.stderr.trimEnd().split('\n');
    // The service's words, then what fetch takes (a name, a GUID for built-ins).
    assert.equal(lines.at(-2), "policyset: PolicySetDefinitionNotFound (404): The policy set definition 'no-such-set' could not be found.");
    assert.match(
      lastLine(result.stderr),
      /^policyset: 'no-such-set' is not the name of a built-in policy set definition: fetch takes the set's name/,
    );
    assert.equal(service.seen.length, 1, 'a 404 is not retried');
  });

  test('no token: nothing sent; a token the service refuses: its 401, exit 2', async () => {
    const service = await fresh();
    const none = await cli(service, ['fetch', SET.name], { POLICYSET_ACCESS_TOKEN: undefined });
    assert.equal(none.code, 2);
    assert.match(lastLine(none.stderr), /Not signed in/);
    assert.equal(service.seen.length, 0);
    // The emulation's 401 rule answers a header that is not a bearer token: a token with a space in it makes one.
    const bad = await cli(service, ['fetch', SET.name], { POLICYSET_ACCESS_TOKEN: `${TOKEN} extra` });
    assert.equal(bad.code, 2);
    assert.match(lastLine(bad.stderr), /^policyset: AuthenticationFailed \(401\): Authentication failed/);
    assert.equal(service.seen.length, 1);
  });
});

describe('against mockttp: policyset deploy --yes (E2)', CONCURRENT, () => {
  test('one PUT to the subscription version path with the properties and the bearer token', async () => {
    const service = await fresh();
    const result = await cli(service, ['deploy', write('deploy.json', DEPLOYABLE), '--subscription', SUB, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(service.seen.length, 1, 'exactly one request');
    const [put] = service.seen;
    assert.equal(put.method, 'PUT');
    assert.equal(pathOf(put), `/subscriptions/${SUB}${AUTHZ}/policySetDefinitions/third-party-set/versions/2.1.0`);
    assert.equal(new URL(put.url).searchParams.get('api-version'), API_VERSION);
    assert.equal(put.headers.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(await put.body.getJson(), { properties: DEPLOYABLE.properties });
    assert.match(result.stdout, /^created \/subscriptions\/.*\/versions\/2\.1\.0 \(201, request id e2-created\)/);
  });

  test('the management-group version path', async () => {
    const service = await fresh();
    const result = await cli(service, ['deploy', write('deploy-mg.json', DEPLOYABLE), '--management-group', 'contoso-root', '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      service.seen.map((r) => `${r.method} ${pathOf(r)}`),
      [`PUT /providers/Provider.Management/managementGroups/contoso-root${AUTHZ}/policySetDefinitions/third-party-set/versions/2.1.0`],
    );
    assert.deepEqual(await service.seen[0].body.getJson(), { properties: DEPLOYABLE.properties });
  });

  test('a document with lint errors is not sent: zero requests, exit 1', async () => {
    const service = await fresh();
    const broken = structuredClone(DEPLOYABLE);
    broken.properties.policyDefinitions[0].groupNames = ['Netwrok'];
    const result = await cli(service, ['deploy', write('broken.json', broken), '--subscription', SUB, '--yes']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /PS5001/);
    assert.match(lastLine(result.stderr), /not deployed: .* has 1 error/);
    assert.equal(service.seen.length, 0);
  });
});

describe('against mockttp: faults end in one clear message within the time limit', CONCURRENT, () => {
  const e1Path = `${AUTHZ}/policySetDefinitions/${SET.name}`;

  test('429 with Retry-After: 2 is retried after at least 2 s, then succeeds', async () => {
    const service = await fresh();
    const fault = await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .times(1)
      .thenJson(429, policyError('TooManyRequests', 'Rate limit reached.'), { 'Retry-After': '2' });
    const result = await cli(service, ['fetch', SET.name, '--timeout', '20']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /429 TooManyRequests; retrying in 2\.0 s/);
    assert.equal((await fault.getSeenRequests()).length, 1);
    assert.equal(service.seen.length, 2);
    const gap = service.seen[1].timingEvents.startTime - service.seen[0].timingEvents.startTime;
    console.log(`# 429 Retry-After: 2 → the retry came ${gap} ms later`);
    assert.ok(gap >= 2000, `the retry came after ${gap} ms`);
  });

  test('429 every time: retried a bounded number of times (count), then one message', async () => {
    const service = await fresh();
    await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .thenJson(429, policyError('TooManyRequests', 'Rate limit reached.'), { 'Retry-After': '1' });
    const result = await cli(service, ['fetch', SET.name, '--timeout', '30']);
    assert.equal(result.code, 2);
    assert.equal(service.seen.length, 4, 'the first try and 3 retries');
    assert.match(lastLine(result.stderr), /^policyset: TooManyRequests \(429\): Rate limit reached\.$/);
    assert.ok(isCleanMessage(result.stderr));
  });

  test('429 with Retry-After: 2 every time under --timeout 5: bounded by the time limit', async () => {
    const service = await fresh();
    await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .thenJson(429, policyError('TooManyRequests', 'Rate limit reached.'), { 'Retry-After': '2' });
    const result = await cli(service, ['fetch', SET.name, '--timeout', '5']);
    assert.equal(result.code, 2);
    assert.ok(service.seen.length >= 2 && service.seen.length <= 3, `${service.seen.length} requests`);
    for (let i = 1; i < service.seen.length; i++)
      assert.ok(service.seen[i].timingEvents.startTime - service.seen[i - 1].timingEvents.startTime >= 2000);
    assert.match(
      lastLine(result.stderr),
      /^policyset: TooManyRequests \(429\): Rate limit reached\.; not retried: a wait of 2 s does not fit in the [\d.]+ s left$/,
    );
  });

  test('500 on a GET: retried with backoff, ends within --timeout with the service message', async () => {
    const service = await fresh();
    await service.server.forGet(e1Path).asPriority(FAULT).thenJson(500, policyError('InternalServerError', 'Something broke.'));
    const result = await cli(service, ['fetch', SET.name, '--timeout', '3']);
    assert.equal(result.code, 2);
    assert.ok(service.seen.length >= 2 && service.seen.length <= 4, `${service.seen.length} requests`);
    assert.match(lastLine(result.stderr), /^policyset: InternalServerError \(500\): Something broke\./);
    assert.ok(isCleanMessage(result.stderr));
  });

  test('500 on the PUT: sent once, never again, exit 2', async () => {
    const service = await fresh();
    await service.server.forPut().asPriority(FAULT).thenJson(500, policyError('InternalServerError', 'Write failed.'));
    const result = await cli(service, ['deploy', write('deploy500.json', DEPLOYABLE), '--subscription', SUB, '--yes', '--timeout', '5']);
    assert.equal(result.code, 2);
    assert.equal(service.seen.length, 1);
    assert.equal(lastLine(result.stderr), 'policyset: InternalServerError (500): Write failed.');
  });

  test('a malformed body on 200: a message with the status and an excerpt, exit 2', async () => {
    const service = await fresh();
    await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .thenReply(200, '{"properties": {"policyDefinitions": [tru', { 'Content-Type': 'application/json' });
    const result = await cli(service, ['fetch', SET.name, '--timeout', '5']);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      /^policyset: The service answered 200 to GET \/providers\/Provider\.Authorization\/policySetDefinitions\/\S+ with a body that is not JSON: "\{"properties/,
    );
    assert.ok(isCleanMessage(result.stderr));
  });

  test('an HTML 502 from a gateway: status and excerpt, no crash', async () => {
    const service = await fresh();
    await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .thenReply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html' });
    const result = await cli(service, ['fetch', SET.name, '--timeout', '2']);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      /^policyset: The service answered 502 Bad Gateway to GET .* with a body that is not JSON: "<html>/,
    );
  });

  test('a dropped connection on a GET (closed): retried, then one message within --timeout', async () => {
    const service = await fresh();
    await service.server.forGet(e1Path).asPriority(FAULT).thenCloseConnection();
    const result = await cli(service, ['fetch', SET.name, '--timeout', '3']);
    assert.equal(result.code, 2);
    assert.ok(service.seen.length >= 2, `retried: ${service.seen.length} requests`);
    // The last attempt fails on its own, or the time limit falls while it is under way (a loaded machine): one clear line either way.
    assert.match(
      lastLine(result.stderr),
      /^policyset: (GET \/providers\/\S+ failed: the connection was dropped before the answer was complete|No answer from the service within 3 s \(GET \/providers\/\S+\))$/,
    );
    assert.ok(result.milliseconds < 3000 + 15_000, `${result.milliseconds} ms`);
  });

  test('a reset connection on the PUT: not sent twice (it may have arrived), exit 2', async () => {
    const service = await fresh();
    await service.server.forPut().asPriority(FAULT).thenResetConnection();
    const result = await cli(service, ['deploy', write('deployReset.json', DEPLOYABLE), '--subscription', SUB, '--yes', '--timeout', '5']);
    assert.equal(result.code, 2);
    assert.equal(service.seen.length, 1, 'one PUT only');
    assert.match(lastLine(result.stderr), /^policyset: PUT \/subscriptions\/\S+ failed: /);
    assert.ok(isCleanMessage(result.stderr));
  });

  test('a hung server: "No answer ... within 1 s", exit 2', async () => {
    const service = await fresh();
    await service.server.forGet(e1Path).asPriority(FAULT).thenTimeout();
    const result = await cli(service, ['fetch', SET.name, '--timeout', '1']);
    assert.equal(result.code, 2);
    assert.match(lastLine(result.stderr), /^policyset: No answer from the service within 1 s \(GET \/providers\/\S+\)$/);
    assert.equal(service.seen.length, 1);
    // The rest is process start-up on a loaded machine; without the limit the run would last until the harness's 60 s.
    assert.ok(result.milliseconds < 1000 + 15_000, `${result.milliseconds} ms`);
  });

  test('a hung PUT: the same, and sent once', async () => {
    const service = await fresh();
    await service.server.forPut().asPriority(FAULT).thenTimeout();
    const result = await cli(service, ['deploy', write('deployHang.json', DEPLOYABLE), '--subscription', SUB, '--yes', '--timeout', '1']);
    assert.equal(result.code, 2);
    assert.match(lastLine(result.stderr), /^policyset: No answer from the service within 1 s \(PUT \/subscriptions\/\S+\)$/);
    assert.equal(service.seen.length, 1);
  });

  test('a service that echoes the bearer token in its error: redacted', async () => {
    const service = await fresh();
    await service.server
      .forGet(e1Path)
      .asPriority(FAULT)
      .thenCallback((r) => ({
        statusCode: 400,
        json: policyError('BadToken', `Rejected '${String(r.headers.authorization)}'.`, String(r.headers.authorization)),
      }));
    const result = await cli(service, ['fetch', SET.name]);
    assert.equal(result.code, 2);
    assert.equal(lastLine(result.stderr), "policyset: BadToken (400): Rejected 'Bearer [redacted]'. (target 'Bearer [redacted]')");
  });
});

describe('against mockttp: the token never shows', () => {
  test('no output of any run above, nor a file it wrote, holds the token (which the service did receive)', () => {
    assert.ok(outputs.length >= 40, `only ${outputs.length} outputs were collected`);
    const leaks = outputs.filter((o) => o.includes(TOKEN) || o.includes(TOKEN.slice(6)));
    assert.deepEqual(leaks, []);
    for (const file of fs.readdirSync(dir)) assert.ok(!fs.readFileSync(path.join(dir, file), 'utf8').includes(TOKEN.slice(6)), file);
  });
});
