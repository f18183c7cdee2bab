// `policyset advisor metadata` and `policyset eventstream get|delete` as a user runs them: a separate
// process against our local service and against mockttp (which no one here wrote); every subcommand and
// exit status, and no token in any output.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { runCli, isCleanMessage, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { LOCAL_EVENTSTREAMS, LOCAL_WORKSPACES } from '../fake-service/eventstreams';

const TOKEN = 'TOKEN-cli-items-8e1d4a7c2b9f0536';
const WS = LOCAL_WORKSPACES.sales;
const MISSING = '00000000-dead-4bee-8f00-000000000000';

let dir: string;
const services: LocalService[] = [];
const mocks: mockttp.Mockttp[] = [];
const outputs: string[] = [];
const CONCURRENT = { concurrency: 3 };

const fresh = async () => {
  const service = await startLocalService();
  services.push(service);
  return service;
};
const freshMock = async () => {
  const server = mockttp.getLocal();
  await server.start();
  mocks.push(server);
  return { server, url: `http://127.0.0.1:${server.port}` };
};

/** Runs the CLI with both addresses on `url` (the local service serves E3 and the items API on one port). */
async function cli(url: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    POLICYSET_BASE_URL: url,
    POLICYSET_ITEMS_BASE_URL: url,
    POLICYSET_ACCESS_TOKEN: TOKEN,
    ...env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const result = await runCli(args, { env: fullEnv, timeoutMs: 30_000 });
  outputs.push(result.stdout, result.stderr);
  return result;
}
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1) ?? '';

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-cli-items-'));
});
after(async () => {
  await Promise.all([...services.map((s) => s.close()), ...mocks.map((m) => m.stop())]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('policyset advisor metadata (local service)', CONCURRENT, () => {
  test('text: a block per entity with depends-on, scenarios and supported values, from all three pages', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['advisor', 'metadata']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^recommendationType {2}"Recommendation Type"\n {2}depends on: +recommendationCategory, recommendationImpact\n {2}applicable scenarios: Alerts\n {2}supported values \(6\):\n {4}ID +DISPLAY NAME\n/,
    );
    assert.match(result.stdout, /\nrecommendationCategory {2}"Category"\n {2}depends on: +-\n/);
    assert.match(result.stdout, /\n {4}OperationalExcellence {2}Operational excellence\n/);
    assert.match(result.stdout, /\n {4}Low {5}Low\n\n3 entities\n$/);
    assert.equal(service.requests.length, 3);
  });

  test('--format json: the array of all entities; --filter passed through; -o saves', async () => {
    const service = await fresh();
    const all = await cli(service.url, ['advisor', 'metadata', '--format', 'json']);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      (JSON.parse(all.stdout) as Array<{ name: string }>).map((e) => e.name),
      ['recommendationType', 'recommendationCategory', 'recommendationImpact'],
    );
    const out = path.join(dir, 'impact.json');
    const filtered = await cli(service.url, ['advisor', 'metadata', '--filter', "name eq 'recommendationImpact'", '-f', 'json', '-o', out]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.equal(filtered.stdout, '');
    assert.match(filtered.stderr, /saved 1 metadata entity to /);
    assert.equal((JSON.parse(fs.readFileSync(out, 'utf8')) as unknown[]).length, 1);
    assert.equal(service.requests.at(-1)!.query.$filter, "name eq 'recommendationImpact'");
  });

  test('a filter the service refuses: its code and message, exit 2', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['advisor', 'metadata', '--filter', "recommendationCategory eq 'Cost'"]);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      /^policyset: InvalidFilter \(400\): The \$filter 'recommendationCategory eq 'Cost'' is not supported by the local service/,
    );
  });

  test('usage mistakes: exit 2, nothing sent', async () => {
    const service = await fresh();
    for (const args of [
      ['advisor'],
      ['advisor', 'recommendations'],
      ['advisor', 'metadata', 'extra'],
      ['advisor', 'metadata', '--format', 'sarif'],
      ['advisor', 'metadata', '--bogus'],
    ]) {
      const result = await cli(service.url, args);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
    const noUrl = await cli(service.url, ['advisor', 'metadata'], { POLICYSET_BASE_URL: undefined });
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /no service address: give --base-url/);
    const help = await cli(service.url, ['advisor', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: policyset advisor metadata/);
    assert.equal(service.requests.length, 0);
  });
});

describe('policyset eventstream (local service)', CONCURRENT, () => {
  test('get prints the item; -o saves it; --items-base-url wins over the environment', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(result.code, 0, result.stderr);
    const item = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(
      [item.id, item.workspaceId, item.displayName, item.type],
      [LOCAL_EVENTSTREAMS.orders, WS, 'Orders stream', 'Eventstream'],
    );
    const out = path.join(dir, 'orders.json');
    const saved = await cli('http://127.0.0.1:9', [
      'eventstream',
      'get',
      WS,
      LOCAL_EVENTSTREAMS.orders,
      '-o',
      out,
      '--items-base-url',
      service.url,
    ]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stderr, /saved eventstream 'Orders stream' to /);
    assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')), item);
    assert.equal(service.requests.length, 2);
  });

  test('get of a missing item: "no eventstream ... in workspace ...", exit 2', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['eventstream', 'get', LOCAL_WORKSPACES.telemetry, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      new RegExp(
        `^policyset: No eventstream ${LOCAL_EVENTSTREAMS.orders} in workspace ${LOCAL_WORKSPACES.telemetry}: ItemNotFound \\(404\\) \\(request id [0-9a-f-]{36}\\)$`,
      ),
    );
  });

  test('delete --yes: reads, names it, one DELETE, exit 0; the item is gone', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.clicks, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /delete eventstream 'Clickstream' \(5e7d1c2b-2222-4e2f-9a3b-0000000000a2\) in workspace /);
    assert.match(result.stdout, /^deleted eventstream 'Clickstream' .* \(200, request id [0-9a-f-]{36}\)\n$/);
    assert.deepEqual(
      service.requests.map((r) => r.method),
      ['GET', 'DELETE'],
    );
    assert.equal(service.eventstreams.get(WS, LOCAL_EVENTSTREAMS.clicks), undefined);
  });

  test('delete without --yes and without a terminal: refused after naming it, no DELETE, exit 1', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /delete eventstream 'Orders stream'/);
    assert.match(lastLine(result.stderr), /not deleted: no terminal to confirm on; pass --yes/);
    assert.deepEqual(
      service.requests.map((r) => r.method),
      ['GET'],
    );
  });

  test('delete of a missing item: ItemNotFound from the read, no DELETE, exit 2', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['eventstream', 'delete', WS, MISSING, '--yes']);
    assert.equal(result.code, 2);
    assert.match(lastLine(result.stderr), /No eventstream .* in workspace .*: ItemNotFound/);
    assert.deepEqual(
      service.requests.map((r) => r.method),
      ['GET'],
    );
  });

  test('delete with a 500 on the DELETE: sent once, exit 2 with the service message', async () => {
    const service = await fresh();
    service.faults.push({ mode: '500', method: 'DELETE' });
    const result = await cli(service.url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders, '--yes']);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      /^policyset: InternalServerError \(500\): The local service failed on purpose\. \(request id [0-9a-f-]{36}\)$/,
    );
    assert.equal(service.requests.filter((r) => r.method === 'DELETE').length, 1);
  });

  test('usage mistakes and IDs that are not UUIDs: exit 2, nothing sent', async () => {
    const service = await fresh();
    for (const args of [
      ['eventstream'],
      ['eventstream', 'list', WS],
      ['eventstream', 'get', WS],
      ['eventstream', 'get', WS, 'nope'],
      ['eventstream', 'get', 'nope', LOCAL_EVENTSTREAMS.orders],
      ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders, 'extra'],
      ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders, '-o', 'x.json'],
      ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders, '--items-base-url', 'http://items.example.com'],
    ]) {
      const result = await cli(service.url, args);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
    const noItems = await cli(service.url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders], { POLICYSET_ITEMS_BASE_URL: undefined });
    assert.equal(noItems.code, 2);
    assert.match(noItems.stderr, /no workspace-items address: give --items-base-url <url> or set POLICYSET_ITEMS_BASE_URL/);
    const noToken = await cli(service.url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders], { POLICYSET_ACCESS_TOKEN: undefined });
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /Not signed in/);
    assert.equal(service.requests.length, 0);
  });

  test('429 with Retry-After: 1 on the items API: says it retries, waits, succeeds', async () => {
    const service = await fresh();
    service.faults.push({ mode: '429', retryAfter: 1, count: 1, path: '/v1/' });
    const result = await cli(service.url, ['eventstream', 'get', LOCAL_WORKSPACES.telemetry, LOCAL_EVENTSTREAMS.deviceEvents]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { displayName: string }).displayName, 'Device events');
    assert.match(result.stderr, /429 RequestBlocked; retrying in 1\.0 s/);
    assert.equal(service.requests.length, 2);
    assert.ok(service.requests[1].at - service.requests[0].at >= 1000);
  });
});

describe('policyset advisor / eventstream against mockttp', CONCURRENT, () => {
  const META = '/providers/Provider.Advisor/metadata';
  const ITEM = `/v1/workspaces/${WS}/eventstreams/${LOCAL_EVENTSTREAMS.orders}`;
  const itemsError = (errorCode: string, message: string) => ({ errorCode, message, requestId: '0f1e2d3c-4b5a-4968-8776-655443322110' });

  test('advisor metadata lists all pages (three) and prints the table', async () => {
    const { server, url } = await freshMock();
    const entity = (name: string, values: string[]) => ({
      name,
      properties: {
        displayName: name.toUpperCase(),
        dependsOn: null,
        applicableScenarios: ['Alerts'],
        supportedValues: values.map((v) => ({ id: v, displayName: `${v} (display)` })),
      },
    });
    const endpoints = [
      await server
        .forGet(META)
        .withQuery({ page: '2' })
        .thenJson(200, { value: [entity('third', ['z'])] }),
      await server
        .forGet(META)
        .withQuery({ page: '1' })
        .thenJson(200, { value: [entity('second', ['y'])], nextLink: `${url}${META}?api-version=2025-01-01&page=2` }),
      await server.forGet(META).thenJson(200, { value: [entity('first', ['x'])], nextLink: `${url}${META}?api-version=2025-01-01&page=1` }),
    ];
    const result = await cli(url, ['advisor', 'metadata']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      [...result.stdout.matchAll(/^(\w+) {2}"/gm)].map((m) => m[1]),
      ['first', 'second', 'third'],
    );
    assert.match(result.stdout, / {4}z {3}z \(display\)\n\n3 entities\n$/);
    for (const endpoint of endpoints) assert.equal((await endpoint.getSeenRequests()).length, 1);
  });

  test('advisor metadata with a looping nextLink: one clear message, exit 2', async () => {
    const { server, url } = await freshMock();
    await server.forGet(META).thenJson(200, { value: [{ name: 'a' }], nextLink: `${url}${META}?api-version=2025-01-01` });
    const result = await cli(url, ['advisor', 'metadata']);
    assert.equal(result.code, 2);
    assert.equal(lastLine(result.stderr), 'policyset: Not following the nextLink of page 1: it repeats a page already read (a loop)');
  });

  test('eventstream get: 429 Retry-After then the item; ItemNotFound exit 2', async () => {
    const { server, url } = await freshMock();
    await server.forGet(ITEM).once().thenJson(429, itemsError('RequestBlocked', 'Slow down.'), { 'Retry-After': '1' });
    await server
      .forGet(ITEM)
      .once()
      .thenJson(200, { id: LOCAL_EVENTSTREAMS.orders, workspaceId: WS, displayName: 'Mocked', type: 'Eventstream' });
    await server.forGet(ITEM).thenJson(404, itemsError('ItemNotFound', 'Not there.'));
    const ok = await cli(url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { displayName: string }).displayName, 'Mocked');
    assert.match(ok.stderr, /429 RequestBlocked; retrying in 1\.0 s/);
    const missing = await cli(url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(missing.code, 2);
    assert.equal(
      lastLine(missing.stderr),
      `policyset: No eventstream ${LOCAL_EVENTSTREAMS.orders} in workspace ${WS}: ItemNotFound (404) (request id 0f1e2d3c-4b5a-4968-8776-655443322110)`,
    );
  });

  test('eventstream delete: 429 then ItemNotFound is "already deleted", exit 0', async () => {
    const { server, url } = await freshMock();
    await server.forGet(ITEM).thenJson(200, { id: LOCAL_EVENTSTREAMS.orders, workspaceId: WS, displayName: 'Doomed', type: 'Eventstream' });
    const throttled = await server.forDelete(ITEM).once().thenJson(429, itemsError('RequestBlocked', 'Slow down.'), { 'Retry-After': '1' });
    const gone = await server.forDelete(ITEM).thenJson(404, itemsError('ItemNotFound', 'Not there.'));
    const result = await cli(url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^already deleted: eventstream 'Doomed' .* \(404 ItemNotFound after a 429, request id 0f1e2d3c-/);
    assert.equal((await throttled.getSeenRequests()).length, 1);
    assert.equal((await gone.getSeenRequests()).length, 1);
  });

  test('eventstream delete: a reset connection on the DELETE: never sent again, exit 2', async () => {
    const { server, url } = await freshMock();
    await server
      .forGet(ITEM)
      .thenJson(200, { id: LOCAL_EVENTSTREAMS.orders, workspaceId: WS, displayName: 'Fragile', type: 'Eventstream' });
    const reset = await server.forDelete(ITEM).thenResetConnection();
    const result = await cli(url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders, '--yes', '--timeout', '5']);
    assert.equal(result.code, 2);
    assert.match(lastLine(result.stderr), /^policyset: DELETE \/v1\/workspaces\/\S+ failed: /);
    assert.equal((await reset.getSeenRequests()).length, 1);
  });

  test('eventstream delete: a hung DELETE: a time-out message, sent once, exit 2', async () => {
    const { server, url } = await freshMock();
    await server.forGet(ITEM).thenJson(200, { id: LOCAL_EVENTSTREAMS.orders, workspaceId: WS, displayName: 'Slow', type: 'Eventstream' });
    const hung = await server.forDelete(ITEM).thenTimeout();
    const result = await cli(url, ['eventstream', 'delete', WS, LOCAL_EVENTSTREAMS.orders, '--yes', '--timeout', '1']);
    assert.equal(result.code, 2);
    assert.match(lastLine(result.stderr), /^policyset: No answer from the service within 1 s \(DELETE \/v1\/workspaces\/\S+\)$/);
    assert.equal((await hung.getSeenRequests()).length, 1);
  });

  test('a service that echoes the token on the items API: redacted', async () => {
    const { server, url } = await freshMock();
    await server.forGet(ITEM).thenCallback((r) => ({
      statusCode: 403,
      json: itemsError('InsufficientScopes', `Token ${String(r.headers.authorization)} lacks scopes.`),
    }));
    const result = await cli(url, ['eventstream', 'get', WS, LOCAL_EVENTSTREAMS.orders]);
    assert.equal(result.code, 2);
    assert.match(
      lastLine(result.stderr),
      /^policyset: InsufficientScopes \(403\): Token Bearer \[redacted\] lacks scopes\. \(request id [^)]+\); reading an eventstream needs a token with the delegated scope Eventstream\.Read\.All or Item\.Read\.All/,
    );
  });
});

describe('the token never shows (advisor, eventstream)', () => {
  test('no output of any run above holds it, nor a file written', () => {
    assert.ok(outputs.length >= 40, `${outputs.length} outputs`);
    assert.deepEqual(
      outputs.filter((o) => o.includes(TOKEN) || o.includes(TOKEN.slice(6))),
      [],
    );
    for (const file of fs.readdirSync(dir)) assert.ok(!fs.readFileSync(path.join(dir, file), 'utf8').includes(TOKEN.slice(6)), file);
  });
});
