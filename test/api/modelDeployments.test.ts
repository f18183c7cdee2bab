// E6 (create or resize a model deployment) and E7 (quota usage) end to end: the api client and the CLI
// (`policyset quota usage`, `policyset model deploy`) against our local service, and against mockttp, a
// stand-in that no one in this project wrote, whose record of seen requests the assertions read.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { ModelDeploymentClient, ServiceError, InvalidRequestError, NetworkError } from '#api';
import { runCli, isCleanMessage, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import type { QuotaSeed } from '../fake-service/modelDeployments';

const TOKEN = 'TOKEN-quota-5c2e9a7b1d04f836';
const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const RG = 'rg-ai';
const API_VERSION = '2023-05-01';
const CS = '/providers/Provider.CognitiveServices';
const deploymentPath = (account: string, name: string) =>
  `/subscriptions/${SUB}/resourceGroups/${RG}${CS}/accounts/${account}/deployments/${name}`;
const usagesPath = (location: string) => `/subscriptions/${SUB}${CS}/locations/${location}/usages`;

/** eastus: gpt-4o quota 100 units (100,000 TPM), of which the deployment 'big' on another account holds 90. */
const SEED: QuotaSeed = {
  accounts: [
    { subscriptionId: SUB, resourceGroup: RG, name: 'acct-a', location: 'eastus' },
    { subscriptionId: SUB, resourceGroup: RG, name: 'acct-b', location: 'eastus' },
  ],
  limits: [
    { location: 'eastus', model: 'gpt-4o', limit: 100 },
    { location: 'eastus', model: 'o3-mini', limit: 50 },
    { location: 'eastus', model: 'gpt-35-turbo', limit: 240 },
  ],
  deployments: [
    { subscriptionId: SUB, resourceGroup: RG, account: 'acct-b', name: 'big', model: 'gpt-4o', version: '2024-08-06', capacity: 90 },
    { subscriptionId: SUB, resourceGroup: RG, account: 'acct-a', name: 'small', model: 'gpt-4o', version: '2024-08-06', capacity: 5 },
  ],
  pageSize: 2,
};

let dir: string;
const services: LocalService[] = [];
const mocks: mockttp.Mockttp[] = [];
const outputs: string[] = [];
const fresh = async () => {
  const service = await startLocalService({ quota: structuredClone(SEED) });
  services.push(service);
  return service;
};

async function cli(baseUrl: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, POLICYSET_BASE_URL: baseUrl, POLICYSET_ACCESS_TOKEN: TOKEN, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const result = await runCli(args, { env: fullEnv, timeoutMs: 30_000 });
  outputs.push(result.stdout, result.stderr);
  return result;
}

const deployArgs = (name: string, extra: string[]) => [
  'model',
  'deploy',
  '--subscription',
  SUB,
  '--resource-group',
  RG,
  '--account',
  'acct-a',
  '--name',
  name,
  '--model',
  'gpt-4o:2024-08-06',
  ...extra,
];
const puts = (service: LocalService) => service.requests.filter((r) => r.method === 'PUT');

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-quota-'));
});
after(async () => {
  await Promise.all([...services.map((s) => s.close()), ...mocks.map((m) => m.stop())]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const CONCURRENT = { concurrency: 3 };

describe('the api client against the local service (E6, E7)', CONCURRENT, () => {
  const client = (service: LocalService) =>
    new ModelDeploymentClient({ baseUrl: service.url, providerNamespace: 'Provider' }, { token: async () => TOKEN, backoffMs: 10 });

  test('usages: every page is read (nextLink), usage computed from the deployments', async () => {
    const service = await fresh();
    const { value, pages } = await client(service).listUsages(SUB, 'eastus');
    assert.ok(pages >= 2, `${pages} pages`);
    const gpt4o = value.find((u) => u.name?.value === 'OpenAI.Standard.gpt-4o');
    assert.deepEqual(gpt4o, {
      name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 'Tokens Per Minute (thousands) - gpt-4o' },
      currentValue: 95,
      limit: 100,
      unit: 'Count',
    });
    assert.deepEqual(
      value.find((u) => u.name?.value === 'AccountCount'),
      {
        name: { value: 'AccountCount', localizedValue: 'Cognitive Services total account limit' },
        currentValue: 2,
        limit: 30,
        unit: 'Count',
      },
    );
    assert.ok(service.requests.every((r) => r.query['api-version'] === API_VERSION && r.headers.authorization === `Bearer ${TOKEN}`));
  });

  test('GET of a deployment: its sku, or undefined on 404 (new)', async () => {
    const service = await fresh();
    const c = client(service);
    const big = await c.getDeployment({ subscriptionId: SUB, resourceGroupName: RG, accountName: 'acct-b', deploymentName: 'big' });
    assert.deepEqual(big?.sku, { name: 'Standard', capacity: 90 });
    assert.equal(
      await c.getDeployment({ subscriptionId: SUB, resourceGroupName: RG, accountName: 'acct-a', deploymentName: 'nope' }),
      undefined,
    );
  });

  test('PUT over the free quota: 400 InsufficientQuota, nothing stored; within it 201, then a resize 200', async () => {
    const service = await fresh();
    const c = client(service);
    const target = { subscriptionId: SUB, resourceGroupName: RG, accountName: 'acct-a', deploymentName: 'chat' };
    const body = (capacity: number) => ({
      sku: { name: 'Standard', capacity },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } },
    });
    await assert.rejects(
      c.createOrUpdateDeployment(target, body(6)),
      (e: unknown) => e instanceof ServiceError && e.status === 400 && e.code === 'InsufficientQuota' && /5 available/.test(e.message),
    );
    const created = await c.createOrUpdateDeployment(target, body(3));
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.properties?.rateLimits, [
      { key: 'request', renewalPeriod: 10, count: 3 },
      { key: 'token', renewalPeriod: 60, count: 3000 },
    ]);
    // 2 units are free now; resizing 'small' (5) to 7 fits, as its own 5 are freed first.
    const resized = await c.createOrUpdateDeployment({ ...target, deploymentName: 'small' }, body(7));
    assert.equal(resized.status, 200);
    assert.equal(resized.body.sku?.capacity, 7);
    assert.equal(puts(service).length, 3, 'one PUT per call');
  });

  test('path segments and the body are checked before anything is sent', async () => {
    const service = await fresh();
    const c = client(service);
    const good = { subscriptionId: SUB, resourceGroupName: RG, accountName: 'acct-a', deploymentName: 'chat' };
    const body = { sku: { name: 'Standard', capacity: 1 }, properties: { model: { format: 'OpenAI', name: 'gpt-4o' } } };
    for (const bad of [
      { subscriptionId: 'not-a-guid' },
      { resourceGroupName: 'rg/../x' },
      { accountName: 'a' },
      { deploymentName: 'x/y' },
    ]) {
      await assert.rejects(c.createOrUpdateDeployment({ ...good, ...bad }, body), InvalidRequestError);
    }
    await assert.rejects(c.createOrUpdateDeployment(good, { ...body, sku: { name: 'Standard', capacity: 1.5 } }), /positive whole number/);
    await assert.rejects(c.listUsages(SUB, 'East US'), /lowercase-joined/);
    assert.equal(service.requests.length, 0);
  });

  test('a PUT whose connection drops after it was sent is not sent again', async () => {
    const service = await fresh();
    await fetch(`${service.url}/_local/faults`, { method: 'POST', body: JSON.stringify({ mode: 'drop', method: 'PUT', count: 1 }) });
    const target = { subscriptionId: SUB, resourceGroupName: RG, accountName: 'acct-a', deploymentName: 'chat' };
    await assert.rejects(
      client(service).createOrUpdateDeployment(target, {
        sku: { name: 'Standard', capacity: 1 },
        properties: { model: { format: 'OpenAI', name: 'gpt-4o' } },
      }),
      NetworkError,
    );
    assert.equal(puts(service).length, 1);
  });

  test('a 429 on the usages read is waited out (Retry-After) and read again', async () => {
    const service = await fresh();
    await fetch(`${service.url}/_local/faults`, {
      method: 'POST',
      body: JSON.stringify({ mode: '429', retryAfter: 0, count: 1, method: 'GET' }),
    });
    const { value } = await client(service).listUsages(SUB, 'eastus');
    assert.ok(value.length >= 4);
    assert.equal(service.requests[0].outcome, 'fault 429');
  });
});

describe('the CLI against the local service', CONCURRENT, () => {
  test('quota usage: a table with used, limit and free TPM, a bar, and the RPM the free TPM buys', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['quota', 'usage', '--subscription', SUB, '--location', 'eastus']);
    assert.equal(result.code, 0, result.stderr);
    const row = result.stdout.split('\n').find((l) => l.startsWith('gpt-4o '));
    assert.ok(row, result.stdout);
    assert.match(row, /Standard\s+95,000\s+100,000\s+5,000\s+█{19}░\s+30$/);
    assert.match(result.stdout, /^o3-mini\s+Standard\s+0\s+50,000\s+50,000\s+░{20}\s+5$/m);
    assert.match(result.stdout, /model-service resources in the region: 2 of 30/);
  });

  test('quota usage --format json -o: the entries as returned plus freeTpm, with subscription and location', async () => {
    const service = await fresh();
    const out = path.join(dir, 'usage-local.json');
    const result = await cli(service.url, ['quota', 'usage', '--subscription', SUB, '--location', 'eastus', '--format', 'json', '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    const saved = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.equal(saved.location, 'eastus');
    assert.equal(saved.subscription, SUB);
    assert.equal(saved.value.find((u: { name: { value: string } }) => u.name.value === 'OpenAI.Standard.gpt-4o').freeTpm, 5000);
    assert.equal(saved.value.find((u: { name: { value: string } }) => u.name.value === 'AccountCount').freeTpm, undefined);
  });

  test('model deploy over the free quota: no PUT, says how much is free and the way out', async () => {
    const service = await fresh();
    const result = await cli(service.url, deployArgs('chat', ['--tpm', '20000', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /5,000 TPM free of the region's 100,000 TPM/);
    assert.match(result.stderr, /request a quota increase/);
    assert.match(result.stderr, /48 hours/);
    assert.equal(puts(service).length, 0);
  });

  test('model deploy within the quota: exactly one PUT; TPM and RPM shown; the service answer reported', async () => {
    const service = await fresh();
    const result = await cli(service.url, deployArgs('chat', ['--capacity', '5', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /5,000 TPM, 30 RPM \(0 per 1 s window, 5 per 10 s\)/);
    assert.match(result.stdout, /^created .*\/deployments\/chat \(201, provisioningState Creating/);
    assert.match(result.stdout, /rate limits the service reports: 5 requests per 10 s, 5,000 tokens per 60 s/);
    const [put] = puts(service);
    assert.equal(puts(service).length, 1);
    assert.equal(put.path, deploymentPath('acct-a', 'chat'));
    assert.equal(put.query['api-version'], API_VERSION);
    assert.equal(put.headers.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(JSON.parse(put.body), {
      sku: { name: 'Standard', capacity: 5 },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } },
    });
  });

  test('model deploy resize: the old TPM is freed first (10 fits where 5 are free and it holds 5)', async () => {
    const service = await fresh();
    const result = await cli(service.url, deployArgs('small', ['--capacity', '10', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /its 5,000 TPM is freed first/);
    assert.match(result.stderr, /10,000 TPM free/);
    assert.match(result.stdout, /^updated .*\(200/);
    assert.equal(puts(service).length, 1);
    // And 11 does not fit: refused without a PUT.
    const over = await cli(service.url, deployArgs('small', ['--capacity', '16', '--location', 'eastus', '--yes']));
    assert.equal(over.code, 1);
    assert.match(over.stderr, /10,000 TPM free .*counting the 10,000 TPM this deployment holds now/);
    assert.equal(puts(service).length, 1);
  });

  test('model deploy without --location: the service refuses over quota (InsufficientQuota), the CLI adds what to do', async () => {
    const service = await fresh();
    const result = await cli(service.url, deployArgs('chat', ['--capacity', '50', '--yes']));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /InsufficientQuota \(400\)/);
    assert.match(result.stderr, /what you can do: lower the TPM of another deployment/);
    assert.ok(isCleanMessage(result.stderr));
    assert.equal(puts(service).length, 1, 'sent once, not again');
  });

  test('model deploy without --yes and without a terminal sends nothing', async () => {
    const service = await fresh();
    const result = await cli(service.url, deployArgs('chat', ['--capacity', '1']));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no terminal to confirm on/);
    assert.equal(puts(service).length, 0);
  });

  test('bad sizes and names: usage errors, nothing sent', async () => {
    const service = await fresh();
    const step = await cli(service.url, deployArgs('chat', ['--tpm', '1500', '--yes']));
    assert.equal(step.code, 2);
    assert.match(step.stderr, /nearest valid values are 1,000 and 2,000/);
    const name = await cli(service.url, [
      ...deployArgs('chat', []).slice(0, 9),
      'bad/name',
      '--model',
      'gpt-4o',
      '--capacity',
      '1',
      '--yes',
    ]);
    assert.equal(name.code, 2);
    assert.match(name.stderr, /not a deployment name/);
    assert.equal(service.requests.length, 0);
  });
});

/** A mockttp stand-in for E6/E7 with one region where 'big' holds 90 of gpt-4o's 100 units. */
async function mockService(): Promise<{ server: mockttp.Mockttp; url: string; seen: mockttp.CompletedRequest[] }> {
  const server = mockttp.getLocal();
  await server.start();
  mocks.push(server);
  const seen: mockttp.CompletedRequest[] = [];
  await server.on('request', (r) => void seen.push(r));
  const url = `http://127.0.0.1:${server.port}`;
  const err = (code: string, message: string) => ({ error: { code, message } });
  await server
    .forAnyRequest()
    .matching((r) => r.headers.authorization !== `Bearer ${TOKEN}`)
    .asPriority(4)
    .thenJson(401, err('AuthenticationFailed', 'no token'));
  // E7, two pages: the second one by nextLink with a skip token.
  await server
    .forGet(usagesPath('eastus'))
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenCallback((r) => {
      const second = new URL(r.url).searchParams.get('$skiptoken') === 'p2';
      return {
        statusCode: 200,
        json: second
          ? { value: [{ name: { value: 'AccountCount', localizedValue: 'Account count' }, currentValue: 2, limit: 30, unit: 'Count' }] }
          : {
              value: [
                {
                  name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 'Tokens Per Minute (thousands) - gpt-4o' },
                  currentValue: 95,
                  limit: 100,
                  unit: 'Count',
                },
                {
                  name: {
                    value: 'OpenAI.GlobalStandard.gpt-4o',
                    localizedValue: 'Tokens Per Minute (thousands) - gpt-4o - GlobalStandard',
                  },
                  currentValue: 0,
                  limit: 450,
                  unit: 'Count',
                },
              ],
              nextLink: `${url}${usagesPath('eastus')}?api-version=${API_VERSION}&$skiptoken=p2`,
            },
      };
    });
  await server
    .forGet(deploymentPath('acct-a', 'small'))
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenJson(200, {
      name: 'small',
      sku: { name: 'Standard', capacity: 5 },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o' }, provisioningState: 'Succeeded' },
    });
  await server
    .forGet(/\/deployments\/[^/?]+/)
    .asPriority(1)
    .thenJson(404, err('DeploymentNotFound', 'Deployment not found.'));
  await server
    .forPut(/\/deployments\/[^/?]+/)
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenCallback(async (r) => {
      const body = (await r.body.getJson()) as { sku: { capacity: number } };
      return {
        statusCode: 201,
        json: {
          id: new URL(r.url).pathname,
          ...body,
          properties: { ...(body as unknown as { properties: object }).properties, provisioningState: 'Accepted' },
        },
      };
    });
  await server.forUnmatchedRequest().thenJson(400, err('InvalidRequest', 'No such operation.'));
  return { server, url, seen };
}

describe('the CLI against mockttp (a stand-in no one here wrote)', CONCURRENT, () => {
  test('model deploy over the free quota sends no PUT and says how much is free', async () => {
    const mock = await mockService();
    const result = await cli(mock.url, deployArgs('chat', ['--tpm', '6000', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /5,000 TPM free of the region's 100,000 TPM quota/);
    assert.equal(mock.seen.filter((r) => r.method === 'PUT').length, 0);
    assert.deepEqual(
      mock.seen.map((r) => `${r.method} ${new URL(r.url).pathname}`),
      [`GET ${deploymentPath('acct-a', 'chat')}`, `GET ${usagesPath('eastus')}`, `GET ${usagesPath('eastus')}`],
      'the deployment, then both usage pages',
    );
  });

  test('within the free quota: exactly one PUT with the right path, api-version, body and token', async () => {
    const mock = await mockService();
    const result = await cli(mock.url, deployArgs('chat', ['--tpm', '5000', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /provisioningState Accepted/);
    assert.match(result.stdout, /still provisioning/);
    const putsSeen = mock.seen.filter((r) => r.method === 'PUT');
    assert.equal(putsSeen.length, 1);
    const put = putsSeen[0];
    assert.equal(new URL(put.url).pathname, deploymentPath('acct-a', 'chat'));
    assert.equal(new URL(put.url).searchParams.get('api-version'), API_VERSION);
    assert.equal(put.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(String(put.headers['content-type']), /^application\/json/);
    assert.deepEqual(await put.body.getJson(), {
      sku: { name: 'Standard', capacity: 5 },
      properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } },
    });
  });

  test('a resize frees the old TPM first: 10 units fit where 5 are free and the deployment holds 5', async () => {
    const mock = await mockService();
    const result = await cli(mock.url, deployArgs('small', ['--capacity', '10', '--location', 'eastus', '--yes']));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /this is a resize \(its 5,000 TPM is freed first\)/);
    assert.equal(mock.seen.filter((r) => r.method === 'PUT').length, 1);
  });

  test("the service's over-quota answer (400 InsufficientQuota with usage and limit in its message): shown with what to do; not sent again", async () => {
    const mock = await mockService();
    await mock.server
      .forPut(deploymentPath('acct-a', 'quota-race'))
      .asPriority(3)
      .thenJson(400, {
        error: {
          code: 'InsufficientQuota',
          message: 'Capacity 8 asked in quota Tokens Per Minute (thousands) - gpt-4o exceeds the 5 available (usage 95, limit 100).',
        },
      });
    const result = await cli(mock.url, deployArgs('quota-race', ['--capacity', '8', '--yes']));
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /InsufficientQuota \(400\): Capacity 8 asked in quota Tokens Per Minute \(thousands\) - gpt-4o exceeds the 5 available/,
    );
    assert.match(
      result.stderr,
      /what you can do: lower the TPM of another deployment of this model in the region, or request a quota increase/,
    );
    assert.equal(mock.seen.filter((r) => r.method === 'PUT').length, 1);
  });

  test('a PUT answered 500 (it may have been applied) is not sent again', async () => {
    const mock = await mockService();
    await mock.server
      .forPut(deploymentPath('acct-a', 'flaky'))
      .asPriority(3)
      .thenJson(500, { error: { code: 'InternalServerError', message: 'Something went wrong.' } });
    const result = await cli(mock.url, deployArgs('flaky', ['--capacity', '1', '--yes']));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /InternalServerError \(500\)/);
    assert.ok(isCleanMessage(result.stderr));
    assert.equal(mock.seen.filter((r) => r.method === 'PUT').length, 1);
  });

  test('quota usage reads both pages; GlobalStandard is its own row', async () => {
    const mock = await mockService();
    const result = await cli(mock.url, ['quota', 'usage', '--subscription', SUB, '--location', 'eastus']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^gpt-4o\s+Standard\s+95,000\s+100,000\s+5,000/m);
    assert.match(result.stdout, /^gpt-4o\s+GlobalStandard\s+0\s+450,000\s+450,000/m);
    assert.match(result.stdout, /resources in the region: 2 of 30/);
  });
});

test('no output of any run holds the token', () => {
  assert.ok(outputs.length > 0);
  for (const output of outputs) assert.ok(!output.includes(TOKEN), 'token leaked');
});
