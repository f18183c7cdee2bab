// Issue 22 against services: our local service (test/fake-service) and mockttp (a server no one here wrote).
// What is confirmed is what is sent; nothing is sent to an address URL parsing would change.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { HttpClient, InvalidRequestError, ModelDeploymentClient, PolicySetClient, retryAfterSeconds } from '#api';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { cleanSet } from '../support/sets';

const TOKEN = 'TOKEN-hostile-7f3a9c1e5b2d4806';
const SUB = '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab';
const SETTINGS = (baseUrl: string) => ({ baseUrl, itemsBaseUrl: '', providerNamespace: 'Provider' });

let dir: string;
const services: LocalService[] = [];
const mocks: mockttp.Mockttp[] = [];
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-hostile-api-'));
});
after(async () => {
  await Promise.all(services.map((s) => s.close()));
  await Promise.all(mocks.map((m) => m.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});
const fresh = async () => {
  const service = await startLocalService();
  services.push(service);
  return service;
};
const mock = async () => {
  const server = mockttp.getLocal();
  await server.start();
  mocks.push(server);
  return server;
};
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
};
const cli = (service: { url: string }, args: string[], env: Record<string, string> = {}): Promise<RunResult> =>
  runCli(args, { env: { ...process.env, POLICYSET_BASE_URL: service.url, POLICYSET_ACCESS_TOKEN: TOKEN, ...env }, timeoutMs: 30_000 });

describe('2: paths and IDs checked as the service checks them; the URL confirmed is the URL sent', { concurrency: 3 }, () => {
  test("deploy --management-group '..', '.', 'mg.': exit 2, nothing sent", async () => {
    const service = await fresh();
    const file = write('set-dots.json', cleanSet('cb', 'Dots', '1.0.0'));
    for (const group of ['..', '.', 'mg.', '...']) {
      const result = await cli(service, ['deploy', file, '--management-group', group, '--yes']);
      assert.equal(result.code, 2, `${group}: ${result.stderr}`);
      assert.match(result.stderr, /is not a management group id .*not ending in '\.'/);
    }
    assert.equal(service.requests.length, 0);
  });

  test('what deploy shows is exactly what the local service receives (path, encoding and query)', async () => {
    const service = await fresh();
    const file = write('set-shown.json', cleanSet('shown-set', 'Shown', '2.0.1'));
    for (const args of [
      ['--management-group', 'mg_(1).x-y'],
      ['--subscription', SUB],
    ]) {
      const before = service.requests.length;
      const result = await cli(service, ['deploy', file, ...args, '--yes']);
      assert.equal(result.code, 0, result.stderr);
      const shown = new URL(/^ {2}PUT (\S+)$/m.exec(result.stderr)![1]);
      const received = service.requests.slice(before);
      assert.equal(received.length, 1);
      assert.equal(received[0].method, 'PUT');
      assert.equal(received[0].path, shown.pathname);
      assert.deepEqual(received[0].query, Object.fromEntries(shown.searchParams));
      assert.equal(`${service.url}${received[0].path}?${new URLSearchParams(received[0].query)}`, shown.toString());
    }
  });

  test('the api layer refuses dot segments before sending, against mockttp', async () => {
    const server = await mock();
    const seen: unknown[] = [];
    await server.on('request', (r) => void seen.push(r));
    await server.forAnyRequest().thenJson(200, { id: 'x', properties: { policyDefinitions: [] } });
    const client = new PolicySetClient(SETTINGS(server.url), { token: async () => TOKEN });
    for (const managementGroupId of ['..', '.', 'a.']) {
      await assert.rejects(
        client.createPolicySetDefinitionVersion({ kind: 'managementGroup', managementGroupId }, 'cb', '1.0.0', { policyDefinitions: [] }),
        InvalidRequestError,
      );
    }
    const deployments = new ModelDeploymentClient(SETTINGS(server.url), { token: async () => TOKEN });
    assert.throws(
      () => deployments.deploymentPath({ subscriptionId: SUB, resourceGroupName: 'rg', accountName: 'acct', deploymentName: 'chat.' }),
      InvalidRequestError,
    );
    assert.throws(
      () => deployments.deploymentPath({ subscriptionId: SUB, resourceGroupName: '..', accountName: 'acct', deploymentName: 'chat' }),
      InvalidRequestError,
    );
    // The one place URLs are built: a path URL parsing would change is refused, even encoded.
    const http = new HttpClient({ baseUrl: server.url + '/base', token: async () => TOKEN });
    for (const p of ['/a/../b', '/a/./b', '/a/%2e%2e/b', '/a/.%2E/b']) {
      assert.throws(() => http.urlOf({ path: p, apiVersion: '1' }), InvalidRequestError, p);
      await assert.rejects(http.send({ method: 'PUT', path: p, apiVersion: '1', area: 'policy', body: {} }), InvalidRequestError);
    }
    assert.equal(seen.length, 0);
    // A good path: what urlOf says is where send goes.
    const good = client.versionUrl({ kind: 'managementGroup', managementGroupId: 'mg_(1).x' }, 'cb', '1.0.0');
    await client.createPolicySetDefinitionVersion({ kind: 'managementGroup', managementGroupId: 'mg_(1).x' }, 'cb', '1.0.0', {
      policyDefinitions: [],
    });
    assert.equal((seen[0] as mockttp.CompletedRequest).url, good);
  });
});

describe('6: one redaction of every string printed, whatever the case or encoding', { concurrency: 3 }, () => {
  // A token with characters URL encoding changes, as real bearer tokens (base64) have.
  const SECRET = 'tok/Hostile+7f3a9c1e=5b2d4806';
  const forms = [SECRET, SECRET.toLowerCase(), SECRET.toUpperCase(), encodeURIComponent(SECRET), encodeURIComponent(SECRET).toLowerCase()];
  const leaks = (text: string) => forms.filter((f) => text.includes(f)) as string[];
  const echo = (prefix: string) =>
    `${prefix} Bearer ${SECRET}, ${SECRET.toLowerCase()}, ${encodeURIComponent(SECRET)}, ${encodeURIComponent(`Bearer ${SECRET}`).toLowerCase()}`;
  const UUID = '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d';

  test('successful answers that echo the token (E3 text and JSON, E4 JSON, -o files) and an error that echoes it in other cases', async () => {
    const server = await mock();
    await server.forGet('/providers/Provider.Advisor/metadata').thenJson(200, {
      value: [
        {
          name: 'echo',
          properties: { displayName: echo('E3'), supportedValues: [{ id: SECRET.toUpperCase(), displayName: echo('value') }] },
        },
      ],
    });
    await server
      .forGet(`/v1/workspaces/${UUID}/eventstreams/${UUID}`)
      .thenJson(200, { id: UUID, type: 'Eventstream', displayName: echo('E4'), description: echo('E4'), workspaceId: UUID });
    await server.forGet(/policySetDefinitions/).thenJson(400, { error: { code: 'BadToken', message: echo('error') } });
    const env = { POLICYSET_ACCESS_TOKEN: SECRET };
    const base = { url: server.url };
    const out = path.join(dir, 'echo-e3.json');
    const e4 = path.join(dir, 'echo-e4.json');
    const runs = [
      await cli(base, ['advisor', 'metadata'], env),
      await cli(base, ['advisor', 'metadata', '--format', 'json'], env),
      await cli(base, ['advisor', 'metadata', '--format', 'json', '-o', out], env),
      await cli(base, ['eventstream', 'get', UUID, UUID, '--items-base-url', server.url], env),
      await cli(base, ['eventstream', 'get', UUID, UUID, '--items-base-url', server.url, '-o', e4], env),
      await cli(base, ['fetch', 'some-set'], env),
    ];
    assert.deepEqual(
      runs.map((r) => r.code),
      [0, 0, 0, 0, 0, 2],
      runs.map((r) => r.stderr).join('\n'),
    );
    assert.match(runs[0].stdout, /E3 Bearer \[redacted\]/);
    assert.match(runs[5].stderr, /BadToken/);
    for (const run of runs) assert.deepEqual(leaks(run.stdout + run.stderr), []);
    for (const file of [out, e4]) assert.deepEqual(leaks(fs.readFileSync(file, 'utf8')), []);
    // The service did receive the token: the redaction hid something real.
    const seen = await server.getMockedEndpoints();
    assert.ok(seen.length > 0);
  });
});

describe('5: service text made safe before it reaches a terminal', { concurrency: 3 }, () => {
  const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\r\ndeleted OK\u009b31m';
  const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  test('an error message with escape sequences and 1 MB of text: escaped, cut with a note, one message', async () => {
    const server = await mock();
    await server
      .forGet(/policySetDefinitions/)
      .thenJson(400, { error: { code: 'Bad\u001b[2J', message: HOSTILE + 'A'.repeat(1024 * 1024) } });
    const result = await cli({ url: server.url }, ['fetch', 'some-set']);
    assert.equal(result.code, 2, result.stderr);
    assert.doesNotMatch(result.stderr, RAW_CONTROLS);
    assert.doesNotMatch(result.stderr, /^deleted OK/m);
    assert.match(result.stderr, /\\u001b\]0;pwned\\u0007/);
    assert.match(result.stderr, /more characters not shown/);
    assert.ok(result.stderr.length < 10_000, `${result.stderr.length} characters printed`);
  });

  test('E3 data: text output escaped on one line; JSON output keeps the data, escaped', async () => {
    const server = await mock();
    await server.forGet('/providers/Provider.Advisor/metadata').thenJson(200, {
      value: [{ name: 'x', properties: { displayName: HOSTILE, supportedValues: [{ id: 'v', displayName: HOSTILE }] } }],
    });
    const text = await cli({ url: server.url }, ['advisor', 'metadata']);
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(text.stdout, RAW_CONTROLS);
    assert.doesNotMatch(text.stdout, /^deleted OK/m);
    const json = await cli({ url: server.url }, ['advisor', 'metadata', '--format', 'json']);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout, RAW_CONTROLS);
    assert.equal(JSON.parse(json.stdout)[0].properties.displayName, HOSTILE);
  });
});

describe('4: large answers are bounded, pages appended without spreading', { concurrency: 3 }, () => {
  test('an E3 page of 130,000 entries is read whole (no call-stack overflow)', async () => {
    const server = await mock();
    const value = Array.from({ length: 130_000 }, (_, i) => ({ name: `m${i}` }));
    await server.forGet('/providers/Provider.Advisor/metadata').thenJson(200, { value });
    const out = path.join(dir, 'many-e3.json');
    const result = await cli({ url: server.url }, ['advisor', 'metadata', '--format', 'json', '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).length, 130_000);
  });

  test('E3 pages over the byte budget: cut off while they arrive, one clear message, exit 2', async () => {
    const server = await mock();
    const big = 'x'.repeat(1024 * 1024);
    // Page after page of 6 MB: the third passes the 16 MB budget.
    let n = 0;
    await server.forGet('/providers/Provider.Advisor/metadata').thenCallback(() => ({
      statusCode: 200,
      json: {
        value: Array.from({ length: 6 }, () => ({ name: big })),
        nextLink: `${server.url}/providers/Provider.Advisor/metadata?api-version=2025-01-01&page=${++n}`,
      },
    }));
    const result = await cli({ url: server.url }, ['advisor', 'metadata', '--format', 'json']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /^policyset: The service sent more than 16 MB or 200,000 entries of metadata; not read further: narrow it with a filter \(--filter\)$/m,
    );
    assert.ok(isOneLine(result.stderr), result.stderr.slice(0, 500));
  });

  test('an E7 page of 130,000 entries: a clear message, exit 2, no crash', async () => {
    const server = await mock();
    await server
      .forGet(/\/usages$/)
      .thenJson(200, { value: Array.from({ length: 130_000 }, () => ({ name: { value: 'x' }, currentValue: 0, limit: 1 })) });
    const result = await cli({ url: server.url }, ['quota', 'usage', '--subscription', SUB, '--location', 'eastus']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /more than 8 MB or 50,000 entries of usage for eastus; not read further/);
    assert.doesNotMatch(result.stderr, /Maximum call stack|unexpected failure/);
  });

  test('a nextLink that is not a string ends the listing with a message, not silently', async () => {
    const server = await mock();
    await server.forGet('/providers/Provider.Advisor/metadata').thenJson(200, { value: [{ name: 'a' }], nextLink: { href: '/next' } });
    await server.forGet(/\/usages$/).thenJson(200, { value: [], nextLink: 42 });
    const e3 = await cli({ url: server.url }, ['advisor', 'metadata']);
    assert.equal(e3.code, 2, e3.stderr);
    assert.match(e3.stderr, /nextLink of page 1 is not a string \(object\)/);
    const e7 = await cli({ url: server.url }, ['quota', 'usage', '--subscription', SUB, '--location', 'eastus']);
    assert.equal(e7.code, 2, e7.stderr);
    assert.match(e7.stderr, /nextLink is not a string \(number\)/);
  });
});

const isOneLine = (stderr: string) => stderr.trim().split('\n').length === 1;

describe('8: Retry-After only as whole seconds or an HTTP date', { concurrency: 3 }, () => {
  test('retryAfterSeconds: a negative, fractional or bare number, or a year, is no Retry-After', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    const of = (value: string) => retryAfterSeconds({ 'retry-after': value }, now);
    assert.deepEqual(['-5', '1.5', '2020', '+3', '1e3', 'soon', ' -5 '].map(of), [
      undefined,
      undefined,
      2020,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    assert.equal(of('7'), 7);
    assert.equal(of('Wed, 21 Oct 2026 07:28:30 GMT'), 30);
    assert.equal(of('Wednesday, 21-Oct-26 07:28:30 GMT'), 30);
  });

  test("429 with 'Retry-After: -5' (mockttp): the default backoff, not three immediate retries", async () => {
    const server = await mock();
    await server.forAnyRequest().thenReply(429, JSON.stringify({ error: { code: 'TooManyRequests', message: 'slow down' } }), {
      'Retry-After': '-5',
      'Content-Type': 'application/json',
    });
    const waits: number[] = [];
    const http = new HttpClient({
      baseUrl: server.url,
      token: async () => TOKEN,
      backoffMs: 1000,
      wait: async (ms) => void waits.push(ms),
    });
    await assert.rejects(http.send({ method: 'GET', path: '/x', apiVersion: '1', area: 'policy' }), /TooManyRequests/);
    assert.equal(waits.length, 3);
    // Full jitter in the upper half of 1, 2, 4 s.
    waits.forEach((ms, i) => assert.ok(ms >= 500 * 2 ** i, `wait ${i + 1}: ${ms} ms`));
  });
});

describe('9: a write the service accepted is reported as accepted, whatever its body', { concurrency: 3 }, () => {
  const UUID = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';

  test('deploy: 200 with a body that is not JSON is exit 0, says so, and the PUT went once', async () => {
    const server = await mock();
    const put = await server.forPut(/\/versions\//).thenReply(200, 'OK, stored', { 'Content-Type': 'text/plain' });
    const file = write('set-accepted.json', cleanSet('accepted-set', 'Accepted', '1.0.0'));
    const result = await cli({ url: server.url }, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^updated \/subscriptions\/.*\/versions\/1\.0\.0 \(200\); the service's answer could not be read \(not JSON: "OK, stored"\), but it accepted the request$/m,
    );
    assert.equal((await put.getSeenRequests()).length, 1);
  });

  test('eventstream delete: 200 with garbage is exit 0 "deleted"; model deploy: 201 with HTML is exit 0 "created"', async () => {
    const server = await mock();
    await server
      .forGet(`/v1/workspaces/${UUID}/eventstreams/${UUID}`)
      .thenJson(200, { id: UUID, type: 'Eventstream', displayName: 'es', workspaceId: UUID });
    const deleted = await server.forDelete(`/v1/workspaces/${UUID}/eventstreams/${UUID}`).thenReply(200, '<html>gone</html>');
    await server.forGet(/\/deployments\/chat$/).thenJson(404, { error: { code: 'DeploymentNotFound', message: 'no' } });
    const put = await server.forPut(/\/deployments\/chat$/).thenReply(201, '<html>created</html>');
    const del = await cli({ url: server.url }, ['eventstream', 'delete', UUID, UUID, '--items-base-url', server.url, '--yes']);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /^deleted eventstream 'es' .*\(200\); the service's answer could not be read/m);
    assert.equal((await deleted.getSeenRequests()).length, 1);
    const model = await cli({ url: server.url }, [
      'model',
      'deploy',
      '--subscription',
      SUB,
      '--resource-group',
      'rg',
      '--account',
      'acct',
      '--name',
      'chat',
      '--model',
      'gpt-4o',
      '--capacity',
      '1',
      '--yes',
    ]);
    assert.equal(model.code, 0, model.stderr);
    assert.match(model.stdout, /^created .*\(201\); the service's answer could not be read/m);
    assert.equal((await put.getSeenRequests()).length, 1);
  });
});
