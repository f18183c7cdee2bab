// Quota as desired state through the CLI: `policyset model apply`, `quota where` and `model deploy --capacity max`
// against mockttp (a stand-in no one in this project wrote: the issue's own scenario, the PUTs and their order
// as it saw them, a failed PUT in the middle, answers that may have been applied and are not sent again, a
// region that fails) and against our local service (the docs' demo).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import type { QuotaSeed } from '../fake-service/modelDeployments';

const TOKEN = 'TOKEN-apply-7d1e4c9a2b55f063';
const SUB = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const RG = 'rg-ai';
const API_VERSION = '2023-05-01';
const CS = '/providers/Provider.CognitiveServices';
const deploymentPath = (account: string, name: string) =>
  `/subscriptions/${SUB}/resourceGroups/${RG}${CS}/accounts/${account}/deployments/${name}`;
const usagesPath = (location: string) => `/subscriptions/${SUB}${CS}/locations/${location}/usages`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-apply-'));
const mocks: mockttp.Mockttp[] = [];
const services: LocalService[] = [];
const outputs: string[] = [];
after(async () => {
  await Promise.all([...mocks.map((m) => m.stop()), ...services.map((s) => s.close())]);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(baseUrl: string, args: string[]): Promise<RunResult> {
  const result = await runCli(args, {
    env: { ...process.env, POLICYSET_BASE_URL: baseUrl, POLICYSET_ACCESS_TOKEN: TOKEN },
    timeoutMs: 60_000,
  });
  outputs.push(result.stdout, result.stderr);
  return result;
}

let planCount = 0;
function planFile(deployments: Array<{ account: string; name: string; capacity: number; region?: string; model?: string }>): string {
  const file = path.join(dir, `plan-${++planCount}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      subscription: SUB,
      resourceGroup: RG,
      deployments: deployments.map((d) => ({
        account: d.account,
        region: d.region ?? REGION_OF[d.account],
        name: d.name,
        model: { format: 'OpenAI', name: d.model ?? 'gpt-4o', version: '2024-08-06' },
        sku: { name: 'Standard', capacity: d.capacity },
      })),
    }),
  );
  return file;
}

const REGION_OF: Record<string, string> = { 'ai-east': 'eastus', 'ai-west': 'westus', 'ai-sweden': 'swedencentral' };
/** The issue's scenario: eastus gpt-4o limit 100 units, one deployment holding 80; westus limit 300, one holding 100; swedencentral limit 50. */
const LIMITS: Record<string, number> = { eastus: 100, westus: 300, swedencentral: 50 };

interface Stand {
  server: mockttp.Mockttp;
  url: string;
  seen: mockttp.CompletedRequest[];
  puts: () => Array<{ path: string; capacity: number }>;
}

/**
 * A stand-in with state: deployments by path, usage computed from them per region, a PUT over the free quota
 * answered 400 InsufficientQuota as the real service answers it (so a PUT sent in the wrong order fails here).
 */
async function standIn(): Promise<Stand> {
  const server = mockttp.getLocal();
  await server.start();
  mocks.push(server);
  const url = `http://127.0.0.1:${server.port}`;
  const seen: mockttp.CompletedRequest[] = [];
  await server.on('request', (r) => void seen.push(r));
  const deployments = new Map<string, { account: string; name: string; capacity: number; model: string }>([
    [deploymentPath('ai-east', 'chat'), { account: 'ai-east', name: 'chat', capacity: 80, model: 'gpt-4o' }],
    [deploymentPath('ai-west', 'chat'), { account: 'ai-west', name: 'chat', capacity: 100, model: 'gpt-4o' }],
  ]);
  const used = (region: string, except?: string) =>
    [...deployments]
      .filter(([p, d]) => p !== except && REGION_OF[d.account] === region && d.model === 'gpt-4o')
      .reduce((sum, [, d]) => sum + d.capacity, 0);
  const err = (code: string, message: string) => ({ error: { code, message } });
  await server
    .forAnyRequest()
    .matching((r) => r.headers.authorization !== `Bearer ${TOKEN}`)
    .asPriority(5)
    .thenJson(401, err('AuthenticationFailed', 'no token'));
  await server
    .forGet(/\/locations\/[a-z]+\/usages$/)
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenCallback((r) => {
      const region = /\/locations\/([a-z]+)\/usages/.exec(new URL(r.url).pathname)![1];
      if (!(region in LIMITS)) return { statusCode: 200, json: { value: [] } };
      const accounts = Object.values(REGION_OF).filter((l) => l === region).length;
      return {
        statusCode: 200,
        json: {
          value: [
            {
              name: { value: 'OpenAI.Standard.gpt-4o', localizedValue: 'Tokens Per Minute (thousands) - gpt-4o' },
              currentValue: used(region),
              limit: LIMITS[region],
              unit: 'Count',
            },
            {
              name: { value: 'AccountCount', localizedValue: 'Cognitive Services total account limit' },
              currentValue: accounts,
              limit: 30,
              unit: 'Count',
            },
          ],
        },
      };
    });
  await server
    .forGet(/\/deployments\/[^/?]+$/)
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenCallback((r) => {
      const d = deployments.get(new URL(r.url).pathname);
      if (!d) return { statusCode: 404, json: err('DeploymentNotFound', 'Deployment not found.') };
      return {
        statusCode: 200,
        json: {
          name: d.name,
          sku: { name: 'Standard', capacity: d.capacity },
          properties: { model: { format: 'OpenAI', name: d.model, version: '2024-08-06' }, provisioningState: 'Succeeded' },
        },
      };
    });
  await server
    .forPut(/\/deployments\/[^/?]+$/)
    .withQuery({ 'api-version': API_VERSION })
    .asPriority(2)
    .thenCallback(async (r) => {
      const p = new URL(r.url).pathname;
      const [, account, name] = /\/accounts\/([^/]+)\/deployments\/([^/]+)$/.exec(p)!;
      const body = (await r.body.getJson()) as { sku: { capacity: number }; properties: { model: { name: string } } };
      const region = REGION_OF[account];
      const free = LIMITS[region] - used(region, p);
      if (body.sku.capacity > free)
        return {
          statusCode: 400,
          json: err('InsufficientQuota', `This operation needs ${body.sku.capacity} capacity; ${free} available.`),
        };
      const existed = deployments.has(p);
      deployments.set(p, { account, name, capacity: body.sku.capacity, model: body.properties.model.name });
      return {
        statusCode: existed ? 200 : 201,
        json: { id: p, name, ...body, properties: { ...body.properties, provisioningState: 'Succeeded' } },
      };
    });
  await server.forUnmatchedRequest().thenJson(400, err('InvalidRequest', 'No such operation.'));
  const puts = () =>
    seen
      .filter((r) => r.method === 'PUT')
      .map((r) => ({ path: new URL(r.url).pathname, capacity: JSON.parse(r.body.buffer.toString('utf8')).sku.capacity as number }));
  return { server, url, seen, puts };
}

const CONCURRENT = { concurrency: 3 };

describe("the issue's scenario against a stand-in (mockttp)", CONCURRENT, () => {
  test('quota where for 150,000 TPM of gpt-4o: only westus fits, with its 200,000 free TPM', async () => {
    const stand = await standIn();
    const args = [
      'quota',
      'where',
      '--subscription',
      SUB,
      '--model',
      'gpt-4o',
      '--tpm',
      '150000',
      '--locations',
      'eastus,westus,swedencentral',
    ];
    const json = await cli(stand.url, [...args, '--format', 'json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), [
      { location: 'westus', model: 'gpt-4o', sku: 'Standard', limitTpm: 300_000, usedTpm: 100_000, freeTpm: 200_000, fits: true },
      { location: 'swedencentral', model: 'gpt-4o', sku: 'Standard', limitTpm: 50_000, usedTpm: 0, freeTpm: 50_000, fits: false },
      { location: 'eastus', model: 'gpt-4o', sku: 'Standard', limitTpm: 100_000, usedTpm: 80_000, freeTpm: 20_000, fits: false },
    ]);
    const text = await cli(stand.url, args);
    assert.match(text.stdout, /^westus\s+300,000\s+100,000\s+200,000\s+fits$/m);
    assert.match(text.stdout, /^fits in: westus$/m);
    assert.equal(stand.puts().length, 0);
  });

  test('a plan keeping the 80 and adding 30 in eastus is refused: exit 1, no PUT, the quota named with how much over', async () => {
    const stand = await standIn();
    const result = await cli(stand.url, [
      'model',
      'apply',
      planFile([
        { account: 'ai-east', name: 'chat', capacity: 80 },
        { account: 'ai-east', name: 'chat-2', capacity: 30 },
      ]),
      '--yes',
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /Refused: the plan does not fit; nothing was sent/);
    assert.match(
      result.stdout,
      /'gpt-4o' \(Standard\) in 'eastus': 110,000 TPM after the plan, over the 100,000 TPM quota by 10,000 TPM .*ai-east\/chat \(unchanged, 80\), ai-east\/chat-2 \(new → 30\)/,
    );
    assert.deepEqual(stand.puts(), []);
  });

  test('shrinking the 80 to 50, adding 50 and an unchanged westus deployment: exactly two PUTs, the shrink first', async () => {
    const stand = await standIn();
    const file = planFile([
      { account: 'ai-east', name: 'chat-2', capacity: 50 },
      { account: 'ai-east', name: 'chat', capacity: 50 },
      { account: 'ai-west', name: 'chat', capacity: 100 },
    ]);
    const result = await cli(stand.url, ['model', 'apply', file, '--yes', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(stand.puts(), [
      { path: deploymentPath('ai-east', 'chat'), capacity: 50 },
      { path: deploymentPath('ai-east', 'chat-2'), capacity: 50 },
    ]);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.order, ['ai-east/chat', 'ai-east/chat-2']);
    assert.deepEqual(report.applied, ['ai-east/chat', 'ai-east/chat-2']);
    assert.deepEqual(
      report.actions.map((a: { account: string; name: string; action: string; from: number | null; to: number }) => [
        `${a.account}/${a.name}`,
        a.action,
        a.from,
        a.to,
      ]),
      [
        ['ai-east/chat-2', 'create', null, 50],
        ['ai-east/chat', 'resize', 80, 50],
        ['ai-west/chat', 'unchanged', 100, 100],
      ],
    );
    assert.deepEqual(
      report.quotas.map((q: { region: string; limitTpm: number; usedTpm: number; afterTpm: number; fits: boolean }) => [
        q.region,
        q.limitTpm,
        q.usedTpm,
        q.afterTpm,
        q.fits,
      ]),
      [
        ['eastus', 100_000, 80_000, 100_000, true],
        ['westus', 300_000, 100_000, 100_000, true],
      ],
    );
    // Reads first (GET of each entry, usage of each region), then the PUTs: nothing else was sent.
    const methods = stand.seen.map((r) => r.method);
    assert.deepEqual(methods.slice(methods.indexOf('PUT')), ['PUT', 'PUT']);
    // Applied again: nothing to do, no PUT.
    const again = await cli(stand.url, ['model', 'apply', file, '--yes']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Nothing to do/);
    assert.equal(stand.puts().length, 2);
  });

  test('--dry-run reads and sends nothing: exit 0 when the plan fits', async () => {
    const stand = await standIn();
    const result = await cli(stand.url, [
      'model',
      'apply',
      planFile([
        { account: 'ai-east', name: 'chat', capacity: 50 },
        { account: 'ai-east', name: 'chat-2', capacity: 50 },
      ]),
      '--dry-run',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /1\. ai-east\/chat: 'gpt-4o' \(Standard\) in 'eastus' 80,000 -> 50,000 of 100,000 TPM\n\s+2\. ai-east\/chat-2: 'gpt-4o' \(Standard\) in 'eastus' 50,000 -> 100,000 of 100,000 TPM/,
    );
    assert.match(result.stdout, /Dry run: nothing was sent/);
    assert.equal(stand.puts().length, 0);
  });

  test('--dry-run: the whole text report, column by column, as a person reads it', async () => {
    const stand = await standIn();
    const file = planFile([
      { account: 'ai-east', name: 'chat-2', capacity: 50 },
      { account: 'ai-east', name: 'chat', capacity: 50 },
      { account: 'ai-west', name: 'chat', capacity: 100 },
      { account: 'ai-west', name: 'mini', capacity: 10, model: 'gpt-4o-mini' },
    ]);
    const result = await cli(stand.url, ['model', 'apply', file, '--dry-run']);
    assert.equal(result.code, 1, result.stderr);
    // Worked out by hand: eastus 80 units held (80,000 TPM of 100,000), the plan takes it to 50 + 50; westus
    // keeps its 100; gpt-4o-mini has no usage entry in westus, so its quota is not known and the plan is refused.
    assert.equal(
      result.stdout,
      [
        `${file}: 4 deployments, 3 to change`,
        '',
        '  entry           region  model                 action     capacity    TPM after  RPM after',
        '  ai-east/chat-2  eastus  gpt-4o Standard       create     - -> 50        50,000  300 (5 per 1 s window, 50 per 10 s)',
        '  ai-east/chat    eastus  gpt-4o Standard       resize     80 -> 50       50,000  300 (5 per 1 s window, 50 per 10 s)',
        '  ai-west/chat    westus  gpt-4o Standard       unchanged  100 -> 100    100,000  600 (10 per 1 s window, 100 per 10 s)',
        '  ai-west/mini    westus  gpt-4o-mini Standard  create     - -> 10        10,000  60 (1 per 1 s window, 10 per 10 s)',
        '',
        '  quota                           limit TPM  used now  used after',
        '  gpt-4o Standard in eastus         100,000    80,000     100,000  fits',
        '  gpt-4o Standard in westus         300,000   100,000     100,000  fits',
        '  gpt-4o-mini Standard in westus          ?         ?           ?  not known',
        '',
        'Refused: the plan does not fit; nothing was sent.',
        "  - 'gpt-4o-mini' (Standard) in 'westus': the region's usage has no entry for this model and deployment type (it may not be offered there); drawn on by ai-west/mini (new → 10)",
        '',
      ].join('\n'),
    );
    // Without the entry it cannot check: the order, each step with the quota before and after it.
    const fits = await cli(stand.url, [
      'model',
      'apply',
      planFile([
        { account: 'ai-east', name: 'chat-2', capacity: 50 },
        { account: 'ai-east', name: 'chat', capacity: 50 },
      ]),
      '--dry-run',
    ]);
    assert.equal(fits.code, 0, fits.stderr);
    assert.equal(
      fits.stdout.slice(fits.stdout.indexOf('\n  quota')),
      [
        '',
        '  quota                      limit TPM  used now  used after',
        '  gpt-4o Standard in eastus    100,000    80,000     100,000  fits',
        '',
        'Order (each PUT checked against the quota it draws on, as the service checks it):',
        "  1. ai-east/chat: 'gpt-4o' (Standard) in 'eastus' 80,000 -> 50,000 of 100,000 TPM",
        "  2. ai-east/chat-2: 'gpt-4o' (Standard) in 'eastus' 50,000 -> 100,000 of 100,000 TPM",
        '',
        'Dry run: nothing was sent.',
        '',
      ].join('\n'),
    );
  });

  test('model deploy --capacity max in westus asks for exactly the 200 free units', async () => {
    const stand = await standIn();
    const result = await cli(stand.url, [
      'model',
      'deploy',
      '--subscription',
      SUB,
      '--resource-group',
      RG,
      '--account',
      'ai-west',
      '--name',
      'chat-2',
      '--model',
      'gpt-4o:2024-08-06',
      '--capacity',
      'max',
      '--location',
      'westus',
      '--yes',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /--capacity max: 200 units \(200,000 TPM\)/);
    assert.deepEqual(stand.puts(), [{ path: deploymentPath('ai-west', 'chat-2'), capacity: 200 }]);
  });

  test('--capacity max counts a resize’s own capacity, and is refused with the reason when nothing is free', async () => {
    const stand = await standIn();
    const deploy = (account: string, name: string, location: string) =>
      cli(stand.url, [
        'model',
        'deploy',
        '--subscription',
        SUB,
        '--resource-group',
        RG,
        '--account',
        account,
        '--name',
        name,
        '--model',
        'gpt-4o:2024-08-06',
        '--capacity',
        'max',
        '--location',
        location,
        '--yes',
      ]);
    const resize = await deploy('ai-east', 'chat', 'eastus');
    assert.equal(resize.code, 0, resize.stderr);
    assert.match(resize.stderr, /--capacity max: 100 units .*counting the 80,000 TPM this deployment holds now/);
    const full = await deploy('ai-east', 'chat-3', 'eastus');
    assert.equal(full.code, 1);
    assert.match(full.stderr, /not deployed: --capacity max: no free quota for gpt-4o \(Standard\) in eastus: 100,000 of 100,000 TPM used/);
    assert.deepEqual(stand.puts(), [{ path: deploymentPath('ai-east', 'chat'), capacity: 100 }]);
    const noLocation = await cli(stand.url, [
      'model',
      'deploy',
      '--subscription',
      SUB,
      '--resource-group',
      RG,
      '--account',
      'ai-east',
      '--name',
      'x1',
      '--model',
      'gpt-4o',
      '--capacity',
      'max',
      '--yes',
    ]);
    assert.equal(noLocation.code, 2);
    assert.match(noLocation.stderr, /--capacity max needs --location/);
  });
});

describe('model apply: its refusals, its JSON and the bodies it sends (mockttp)', CONCURRENT, () => {
  const rawPlan = (deployments: unknown[], extra: Record<string, unknown> = {}) => {
    const file = path.join(dir, `raw-plan-${++planCount}.json`);
    fs.writeFileSync(file, JSON.stringify({ subscription: SUB, resourceGroup: RG, deployments, ...extra }));
    return file;
  };
  const entry = (account: string, name: string, model: Record<string, unknown>, capacity: number) => ({
    account,
    region: REGION_OF[account],
    name,
    model,
    sku: { name: 'Standard', capacity },
  });

  test('usage and input errors: exit 2 before anything is read, each saying what is wrong', async () => {
    const stand = await standIn();
    const two = await cli(stand.url, ['model', 'apply', planFile([{ account: 'ai-east', name: 'chat', capacity: 50 }]), 'other.json']);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /model apply takes one plan file/);
    const format = await cli(stand.url, [
      'model',
      'apply',
      planFile([{ account: 'ai-east', name: 'chat', capacity: 50 }]),
      '--format',
      'xml',
    ]);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /--format takes text or json, not 'xml'/);
    const broken = path.join(dir, 'broken-plan.json');
    fs.writeFileSync(broken, '{ "deployments": [1 2] }');
    const one = await cli(stand.url, ['model', 'apply', broken]);
    assert.equal(one.code, 2);
    assert.match(one.stderr, /broken-plan\.json could not be read as a plan \(1 syntax error\): run policyset quota plan .* to see where/);
    fs.writeFileSync(broken, '{ "deployments": [ } ] ,, ');
    assert.match((await cli(stand.url, ['model', 'apply', broken])).stderr, /could not be read as a plan \([2-9] syntax errors\)/);
    const empty = await cli(stand.url, ['model', 'apply', rawPlan([])]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /is not a deployment plan \(\{ "deployments": \[\.\.\.\] \}\); model deploy sends a single deployment/);
    const badRegion = await cli(stand.url, [
      'model',
      'apply',
      rawPlan([{ ...entry('ai-east', 'chat', { name: 'gpt-4o' }, 1), region: 'east/us' }]),
    ]);
    assert.equal(badRegion.code, 2);
    assert.match(badRegion.stderr, /raw-plan-\d+\.json: /);
    assert.equal(stand.seen.length, 0, 'nothing read');
  });

  test('a deployment the service describes without a model or capacity: nothing sent, said as such', async () => {
    const server = mockttp.getLocal();
    await server.start();
    mocks.push(server);
    await server.forGet(/\/usages$/).thenJson(200, { value: [] });
    await server.forGet(/\/deployments\/[^/?]+$/).thenJson(200, { name: 'chat', properties: {} });
    const result = await cli(server.url, ['model', 'apply', planFile([{ account: 'ai-east', name: 'chat', capacity: 50 }])]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /the service's answer for ai-east\/chat has no model name or capacity: cannot tell what would change; nothing sent/,
    );
    assert.doesNotMatch(result.stderr, /a read failed/, 'the read succeeded: what it said is the problem');
  });

  test('--format json: refused, nothing to do, a dry run and not confirmed each give their fields', async () => {
    const stand = await standIn();
    const json = async (file: string, ...more: string[]) => {
      const result = await cli(stand.url, ['model', 'apply', file, '--format', 'json', ...more]);
      return { code: result.code, report: JSON.parse(result.stdout) as Record<string, unknown>, stderr: result.stderr };
    };
    const over = await json(
      planFile([
        { account: 'ai-east', name: 'chat', capacity: 80 },
        { account: 'ai-east', name: 'chat-2', capacity: 30 },
      ]),
    );
    assert.deepEqual([over.code, over.report.refused], [1, true]);
    const same = await json(planFile([{ account: 'ai-east', name: 'chat', capacity: 80 }]));
    assert.deepEqual([same.code, same.report.applied], [0, []]);
    const dry = await json(planFile([{ account: 'ai-east', name: 'chat', capacity: 50 }]), '--dry-run');
    assert.deepEqual([dry.code, dry.report.dryRun], [0, true]);
    // No --yes and no terminal to ask on: nothing sent, exit 1.
    const asked = await json(planFile([{ account: 'ai-east', name: 'chat', capacity: 50 }]));
    assert.deepEqual([asked.code, asked.report.confirmed], [1, false]);
    assert.match(asked.stderr, /nothing was sent: no terminal to confirm on; pass --yes to go ahead without asking/);
    assert.equal(stand.puts().length, 0);
  });

  test('what the text says: OVER by how much, a resize of more than capacity, no order when nothing is to do', async () => {
    const stand = await standIn();
    const over = await cli(stand.url, [
      'model',
      'apply',
      planFile([
        { account: 'ai-east', name: 'chat', capacity: 80 },
        { account: 'ai-east', name: 'chat-2', capacity: 30 },
      ]),
      '--dry-run',
    ]);
    assert.match(over.stdout, /^ {2}gpt-4o Standard in eastus +100,000 +80,000 +110,000 +OVER by 10,000$/m);
    const version = await cli(stand.url, [
      'model',
      'apply',
      rawPlan([entry('ai-east', 'chat', { format: 'OpenAI', name: 'gpt-4o', version: '2024-11-20' }, 80)]),
      '--dry-run',
    ]);
    assert.match(version.stdout, /^ {2}ai-east\/chat +eastus +gpt-4o Standard +resize \(version\) +80 -> 80 /m);
    const both = await cli(stand.url, [
      'model',
      'apply',
      rawPlan([entry('ai-east', 'chat', { format: 'OpenAI', name: 'gpt-4o', version: '2024-11-20' }, 50)]),
      '--dry-run',
    ]);
    assert.match(both.stdout, /^ {2}ai-east\/chat +eastus +gpt-4o Standard +resize \(capacity, version\) +80 -> 50 /m);
    assert.match(both.stdout, /: 1 deployment, 1 to change$/m);
    const nothing = await cli(stand.url, ['model', 'apply', planFile([{ account: 'ai-east', name: 'chat', capacity: 80 }])]);
    assert.match(nothing.stdout, /Nothing to do/);
    assert.doesNotMatch(nothing.stdout, /^Order/m);
  });

  test('the bodies sent: no format in the plan is the deployed one or OpenAI; the deployed version kept for the same model in any case', async () => {
    const stand = await standIn();
    const result = await cli(stand.url, [
      'model',
      'apply',
      rawPlan([entry('ai-east', 'chat', { name: 'GPT-4o' }, 50), entry('ai-west', 'new', { name: 'gpt-4o' }, 10)]),
      '--yes',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const bodies = stand.seen.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body.buffer.toString('utf8')));
    assert.deepEqual(
      bodies.map((b) => b.properties.model),
      [
        { format: 'OpenAI', name: 'GPT-4o', version: '2024-08-06' },
        { format: 'OpenAI', name: 'gpt-4o' },
      ],
    );
  });

  test('a PUT answered 201 with no body: applied, nothing read from what is not there', async () => {
    const server = await standIn();
    await server.server
      .forPut(/\/deployments\/[^/?]+$/)
      .asPriority(9)
      .thenReply(201, '');
    const result = await cli(server.url, ['model', 'apply', planFile([{ account: 'ai-west', name: 'bare', capacity: 10 }]), '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^applied {3}ai-west\/bare$/m);
  });
});

describe('model apply when a PUT fails (mockttp)', CONCURRENT, () => {
  const threeChanges = () =>
    planFile([
      { account: 'ai-west', name: 'one', capacity: 10 },
      { account: 'ai-west', name: 'two', capacity: 10 },
      { account: 'ai-west', name: 'three', capacity: 10 },
    ]);

  test('a PUT refused in the middle: stops there; what was applied, what failed, what was not sent; exit 2', async () => {
    const stand = await standIn();
    await stand.server
      .forPut(deploymentPath('ai-west', 'two'))
      .asPriority(4)
      .thenJson(400, { error: { code: 'InvalidResourceProperties', message: 'The model version is not available.' } });
    const result = await cli(stand.url, ['model', 'apply', threeChanges(), '--yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout, /^applied {3}ai-west\/one$/m);
    assert.match(result.stdout, /^failed {4}ai-west\/two: .*InvalidResourceProperties \(400\)/m);
    assert.match(result.stdout, /^not sent {2}ai-west\/three$/m);
    assert.deepEqual(
      stand.puts().map((p) => p.path),
      [deploymentPath('ai-west', 'one'), deploymentPath('ai-west', 'two')],
    );
  });

  test('an answer that may have been applied (500) is not sent again, and is reported as unknown', async () => {
    const stand = await standIn();
    await stand.server
      .forPut(deploymentPath('ai-west', 'two'))
      .asPriority(4)
      .thenJson(500, { error: { code: 'InternalServerError', message: 'Something went wrong.' } });
    const result = await cli(stand.url, ['model', 'apply', threeChanges(), '--yes', '--format', 'json']);
    assert.equal(result.code, 2, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.applied, ['ai-west/one']);
    assert.equal(report.failed.key, 'ai-west/two');
    assert.equal(report.failed.outcome, 'unknown');
    assert.equal(report.failed.status, 500);
    assert.deepEqual(report.notSent, ['ai-west/three']);
    assert.equal(stand.puts().filter((p) => p.path === deploymentPath('ai-west', 'two')).length, 1, 'sent once');
  });

  test('a connection closed after the PUT was sent: unknown, not sent again', async () => {
    const stand = await standIn();
    await stand.server.forPut(deploymentPath('ai-west', 'two')).asPriority(4).thenCloseConnection();
    const result = await cli(stand.url, ['model', 'apply', threeChanges(), '--yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout, /^UNKNOWN {3}ai-west\/two: /m);
    assert.match(result.stdout, /The PUT of ai-west\/two may have been applied: it is not sent again/);
    assert.equal(stand.puts().filter((p) => p.path === deploymentPath('ai-west', 'two')).length, 1, 'sent once');
    assert.ok(!stand.puts().some((p) => p.path === deploymentPath('ai-west', 'three')));
  });

  test('a read that fails: nothing sent, exit 2', async () => {
    const stand = await standIn();
    await stand.server
      .forGet(usagesPath('westus'))
      .asPriority(4)
      .thenJson(403, { error: { code: 'AuthorizationFailed', message: 'No read access to usages.' } });
    const result = await cli(stand.url, ['model', 'apply', threeChanges(), '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /nothing sent: a read failed/);
    assert.match(result.stderr, /AuthorizationFailed \(403\)/);
    assert.equal(stand.puts().length, 0);
  });
});

describe('quota where with regions that fail (mockttp)', () => {
  test('a region that answers 403 and one that closes the connection are listed with their errors, never dropped', async () => {
    const stand = await standIn();
    await stand.server
      .forGet(usagesPath('swedencentral'))
      .asPriority(4)
      .thenJson(403, { error: { code: 'AuthorizationFailed', message: 'No access.' } });
    await stand.server.forGet(usagesPath('eastus')).asPriority(4).thenCloseConnection();
    const result = await cli(stand.url, [
      'quota',
      'where',
      '--subscription',
      SUB,
      '--model',
      'gpt-4o',
      '--capacity',
      '10',
      '--locations',
      'eastus,westus,swedencentral,norwayeast',
      '--format',
      'json',
      '--timeout',
      '5',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as Array<{ location: string; fits: boolean; error?: string }>;
    assert.deepEqual(
      rows.map((r) => [r.location, r.fits]),
      [
        ['westus', true],
        ['eastus', false],
        ['swedencentral', false],
        ['norwayeast', false],
      ],
    );
    assert.ok(rows.find((r) => r.location === 'eastus')!.error);
    assert.match(rows.find((r) => r.location === 'swedencentral')!.error!, /AuthorizationFailed \(403\)/);
    assert.match(rows.find((r) => r.location === 'norwayeast')!.error!, /lists no quota for 'gpt-4o'/);
  });

  test('no region fits: exit 1; every region failing: exit 2', async () => {
    const stand = await standIn();
    const none = await cli(stand.url, [
      'quota',
      'where',
      '--subscription',
      SUB,
      '--model',
      'gpt-4o',
      '--tpm',
      '250000',
      '--locations',
      'eastus,westus',
    ]);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /fits in none of these regions/);
    await stand.server
      .forGet(/\/usages$/)
      .asPriority(4)
      .thenJson(403, { error: { code: 'AuthorizationFailed', message: 'No access.' } });
    const failing = await cli(stand.url, [
      'quota',
      'where',
      '--subscription',
      SUB,
      '--model',
      'gpt-4o',
      '--tpm',
      '1000',
      '--locations',
      'eastus',
    ]);
    assert.equal(failing.code, 2);
  });
});

describe('model apply against the local service (the docs demo)', CONCURRENT, () => {
  const DEMO_SUB = '00000000-0000-0000-0000-000000000000';
  const seed = JSON.parse(
    fs.readFileSync(path.join(__dirname, '../../../test/fake-service/seed-quota/demo-regions.json'), 'utf8'),
  ) as QuotaSeed;
  const demoPlan = path.join(__dirname, '../../../test/fake-service/seed-quota/demo-apply.deployment-plan.json');
  const fresh = async () => {
    const service = await startLocalService({ quota: structuredClone(seed) });
    services.push(service);
    return service;
  };

  test('the demo plan: two PUTs in the order the service saw them (shrink first), then nothing to do', async () => {
    const service = await fresh();
    const result = await cli(service.url, ['model', 'apply', demoPlan, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    const puts = service.requests.filter((r) => r.method === 'PUT');
    assert.deepEqual(
      puts.map((r) => [r.path.split('/').slice(-3).join('/'), JSON.parse(r.body).sku.capacity, r.outcome]),
      [
        ['ai-demo-east/deployments/chat', 50, '200 updated'],
        ['ai-demo-east/deployments/chat-batch', 50, '201 created'],
      ],
    );
    const again = await cli(service.url, ['model', 'apply', demoPlan, '--yes']);
    assert.match(again.stdout, /Nothing to do/);
    assert.equal(service.requests.filter((r) => r.method === 'PUT').length, 2);
    assert.equal(DEMO_SUB, service.quota.accounts.values().next().value!.subscriptionId);
  });

  test('a PUT whose connection drops after it was sent: reported unknown, not sent again; the next one not sent', async () => {
    const service = await fresh();
    const second = `/subscriptions/${DEMO_SUB}/resourceGroups/rg-demo/providers/Provider.CognitiveServices/accounts/ai-demo-east/deployments/chat-batch`;
    service.faults.push({ mode: 'drop', method: 'PUT', path: second, count: 1 });
    const result = await cli(service.url, ['model', 'apply', demoPlan, '--yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout, /^applied {3}ai-demo-east\/chat$/m);
    assert.match(result.stdout, /^UNKNOWN {3}ai-demo-east\/chat-batch/m);
    assert.equal(service.requests.filter((r) => r.method === 'PUT' && r.path === second).length, 1);
  });

  test('a resize in a plan that names no version keeps the deployed version in the PUT', async () => {
    const service = await fresh();
    const file = path.join(dir, 'no-version.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        subscription: DEMO_SUB,
        resourceGroup: 'rg-demo',
        region: 'eastus',
        deployments: [{ account: 'ai-demo-east', name: 'chat', model: 'gpt-4o', sku: { capacity: 60 } }],
      }),
    );
    const result = await cli(service.url, ['model', 'apply', file, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    const puts = service.requests.filter((r) => r.method === 'PUT');
    assert.deepEqual(
      puts.map((r) => JSON.parse(r.body)),
      [{ sku: { name: 'Standard', capacity: 60 }, properties: { model: { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' } } }],
    );
  });

  test('two full quotas swapping deployments: the end state fits, no order does; refused with nothing sent', async () => {
    const service = await startLocalService({
      quota: {
        accounts: [{ subscriptionId: SUB, resourceGroup: RG, name: 'ai-east', location: 'eastus' }],
        limits: [
          { location: 'eastus', model: 'gpt-4o', limit: 10 },
          { location: 'eastus', model: 'gpt-4o-mini', limit: 10 },
        ],
        deployments: [
          { subscriptionId: SUB, resourceGroup: RG, account: 'ai-east', name: 'x1', model: 'gpt-4o', capacity: 10 },
          { subscriptionId: SUB, resourceGroup: RG, account: 'ai-east', name: 'y1', model: 'gpt-4o-mini', capacity: 10 },
        ],
      },
    });
    services.push(service);
    const file = path.join(dir, 'swap.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        subscription: SUB,
        resourceGroup: RG,
        region: 'eastus',
        account: 'ai-east',
        deployments: [
          { name: 'x1', model: 'gpt-4o-mini', sku: { capacity: 10 } },
          { name: 'y1', model: 'gpt-4o', sku: { capacity: 10 } },
        ],
      }),
    );
    const result = await cli(service.url, ['model', 'apply', file, '--yes', '--format', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.fits, true);
    assert.deepEqual(report.order, []);
    assert.match(report.noOrder, /every order passes a quota on the way/);
    assert.equal(service.requests.filter((r) => r.method === 'PUT').length, 0);
  });

  test('a new account would be the 31st resource in the region: refused with nothing sent (its GET said ParentResourceNotFound)', async () => {
    const accounts = Array.from({ length: 30 }, (_, i) => ({
      subscriptionId: SUB,
      resourceGroup: RG,
      name: `acct-${i}`,
      location: 'eastus',
    }));
    const service = await startLocalService({ quota: { accounts, limits: [{ location: 'eastus', model: 'gpt-4o', limit: 100 }] } });
    services.push(service);
    const file = path.join(dir, 'resource-31.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        subscription: SUB,
        resourceGroup: RG,
        region: 'eastus',
        deployments: [{ account: 'acct-new', name: 'chat', model: 'gpt-4o', sku: { capacity: 1 } }],
      }),
    );
    const result = await cli(service.url, ['model', 'apply', file, '--yes']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /'eastus': 31 model-service resources after the plan \(30 now and 1 new: rg-ai\/acct-new\), over the limit of 30/,
    );
    assert.equal(service.requests.filter((r) => r.method === 'PUT').length, 0);
  });

  test('a plan with an entry that lacks its account: exit 2, nothing read or sent', async () => {
    const service = await fresh();
    const file = path.join(dir, 'incomplete.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ subscription: DEMO_SUB, region: 'eastus', deployments: [{ name: 'x1', model: 'gpt-4o', sku: { capacity: 1 } }] }),
    );
    const result = await cli(service.url, ['model', 'apply', file, '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /entry 1 \(\?\/x1\) needs a resource group, an account/);
    assert.equal(service.requests.length, 0);
  });
});

test('no output of any run holds the token', () => {
  assert.ok(outputs.length > 0);
  for (const output of outputs) assert.ok(!output.includes(TOKEN), 'token leaked');
});
