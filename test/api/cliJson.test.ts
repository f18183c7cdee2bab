// `--format json` of the commands that report (deploy, model deploy, eventstream get|delete, fetch) and honest
// deploys (warnings counted, response-only fields left out of the PUT and named), as a user runs them: a
// separate process against our local service, and the PUT body seen by mockttp (which no one here wrote).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { LOCAL_EVENTSTREAMS, LOCAL_WORKSPACES } from '../fake-service/eventstreams';
import { cleanSet } from '../support/sets';
import { SERVED_BUILT_IN } from '../support/corpus';

const TOKEN = 'TOKEN-cli-json-3a7f0c9e5d21b846';
const SUB = '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab';
const CONCURRENT = { concurrency: 3 };
/** A built-in set the local service serves: from the corpus when it is there, else its own seed. */
const BUILT_IN = SERVED_BUILT_IN;

let dir: string;
const services: LocalService[] = [];
const mocks: mockttp.Mockttp[] = [];
const outputs: string[] = [];
const fresh = async (options: Parameters<typeof startLocalService>[0] = {}) => {
  const service = await startLocalService(options);
  services.push(service);
  return service;
};
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
};
async function cli(url: string, args: string[], options: { cwd?: string } = {}): Promise<RunResult> {
  const env = { ...process.env, POLICYSET_BASE_URL: url, POLICYSET_ITEMS_BASE_URL: url, POLICYSET_ACCESS_TOKEN: TOKEN };
  const result = await runCli(args, { env, timeoutMs: 30_000, ...options });
  outputs.push(result.stdout, result.stderr);
  return result;
}

/** A set as `policyset fetch` saves it: the resource's id, type, systemData, properties.versions and expanded reference versions. */
function fetchedSet() {
  const set = cleanSet('fetched-set', 'Fetched set', '1.2.0') as ReturnType<typeof cleanSet> & Record<string, unknown>;
  set.id = '/providers/Provider.Authorization/policySetDefinitions/fetched-set';
  set.type = 'Provider.Authorization/policySetDefinitions';
  set.systemData = { createdBy: 'someone', createdAt: '2025-01-01T00:00:00Z' };
  (set.properties as Record<string, unknown>).versions = ['1.2.0', '1.1.0'];
  const reference = set.properties.policyDefinitions[0] as Record<string, unknown>;
  reference.latestDefinitionVersion = '1.0.0';
  reference.effectiveDefinitionVersion = '1.0.0';
  return set;
}

/** A clean set with two parameters no reference uses: two PS7003 warnings. */
function setWithWarnings() {
  const set = cleanSet('warned-set', 'Warned set', '1.0.0') as { properties: { parameters: Record<string, unknown> } };
  set.properties.parameters.unusedA = { type: 'String' };
  set.properties.parameters.unusedB = { type: 'String' };
  return set;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-cli-json-'));
});
after(async () => {
  await Promise.all([...services.map((s) => s.close()), ...mocks.map((m) => m.stop())]);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const output of outputs) assert.ok(!output.includes(TOKEN), 'the token never appears in output');
});

describe('honest deploys', CONCURRENT, () => {
  test('a fetched set: the PUT (local service) has no response-only field, and the command names what it left out', async () => {
    const service = await fresh();
    const file = write('fetched.json', fetchedSet());
    const result = await cli(service.url, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(service.requests.length, 1);
    const sent = JSON.parse(service.requests[0].body) as {
      properties: Record<string, unknown> & { policyDefinitions: Array<Record<string, unknown>> };
    };
    assert.ok(!('versions' in sent.properties));
    assert.ok(
      !('latestDefinitionVersion' in sent.properties.policyDefinitions[0]) &&
        !('effectiveDefinitionVersion' in sent.properties.policyDefinitions[0]),
    );
    assert.deepEqual(Object.keys(sent), ['properties']);
    // Everything else is sent as it was.
    const expected = structuredClone(fetchedSet().properties) as Record<string, unknown> & {
      policyDefinitions: Array<Record<string, unknown>>;
    };
    delete expected.versions;
    delete expected.policyDefinitions[0].latestDefinitionVersion;
    delete expected.policyDefinitions[0].effectiveDefinitionVersion;
    assert.deepEqual(sent.properties, expected);
    assert.match(
      result.stderr,
      /left out of the PUT, because the service returns them and does not take them: id, type, systemData, properties\.versions, policyDefinitions\[\]\.effectiveDefinitionVersion \(1 reference\), policyDefinitions\[\]\.latestDefinitionVersion \(1 reference\)/,
    );
  });

  test('the PUT body as mockttp received it: no properties.versions', async () => {
    const server = mockttp.getLocal();
    await server.start();
    mocks.push(server);
    const endpoint = await server
      .forPut(/\/policySetDefinitions\/fetched-set\/versions\/1\.2\.0$/)
      .thenReply(201, JSON.stringify({ id: '/x/fetched-set/versions/1.2.0', name: '1.2.0' }), { 'content-type': 'application/json' });
    const file = write('fetched-mock.json', fetchedSet());
    const result = await cli(`http://127.0.0.1:${server.port}`, ['deploy', file, '--subscription', SUB, '--yes', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const seen = await endpoint.getSeenRequests();
    assert.equal(seen.length, 1);
    const body = (await seen[0].body.getJson()) as { properties: Record<string, unknown> };
    assert.ok(body.properties.policyDefinitions);
    assert.ok(!('versions' in body.properties));
    const outcome = JSON.parse(result.stdout) as { outcome: string; omitted: string[] };
    assert.equal(outcome.outcome, 'created');
    assert.ok(outcome.omitted.includes('properties.versions'));
  });

  test('a set with warnings: deployed, saying how many; --verbose lists them', async () => {
    const service = await fresh();
    const file = write('warned.json', setWithWarnings());
    const result = await cli(service.url, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /warned\.json has 2 warnings; it is deployed with them \(--verbose lists them\)/);
    assert.doesNotMatch(result.stderr, /PS7003/);
    assert.match(result.stdout, /^created .* with 2 warnings\n$/);
    const verbose = await cli(service.url, ['deploy', file, '--subscription', SUB, '--yes', '--verbose']);
    assert.equal((verbose.stderr.match(/warning +Parameter 'unused[AB]' is declared but no reference uses it\. +PS7003/g) ?? []).length, 2);
    // The team's config turns the rule off: no warnings to speak of (deploy lints as lint does).
    const project = fs.mkdtempSync(path.join(dir, 'project-'));
    fs.writeFileSync(path.join(project, '.policysetrc.json'), '{ "rules": { "unused-parameter": "off" } }');
    const configured = await cli(service.url, ['deploy', file, '--subscription', SUB, '--yes'], { cwd: project });
    assert.equal(configured.code, 0, configured.stderr);
    assert.doesNotMatch(configured.stderr, /warning/);
  });

  test('deploy --format json: the outcome as one object; a refusal too', async () => {
    const service = await fresh();
    const result = await cli(service.url, [
      'deploy',
      write('json.json', setWithWarnings()),
      '--subscription',
      SUB,
      '--yes',
      '--format',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const outcome = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(
      { ...outcome, requestId: typeof outcome.requestId },
      {
        outcome: 'created',
        status: 201,
        id: `/subscriptions/${SUB}/providers/Provider.Authorization/policySetDefinitions/warned-set/versions/1.0.0`,
        name: 'warned-set',
        version: '1.0.0',
        scope: { kind: 'subscription', subscriptionId: SUB },
        requestId: 'string',
        warnings: 2,
        omitted: [],
      },
    );
    const broken = structuredClone(cleanSet('b', 'B', '1.0.0'));
    broken.properties.policyDefinitions[0].groupNames = ['Netwrok'];
    const refused = await cli(service.url, ['deploy', write('broken.json', broken), '--subscription', SUB, '--yes', '-f', 'json']);
    assert.equal(refused.code, 1);
    const refusal = JSON.parse(refused.stdout) as { outcome: string; errors: Array<{ code: string }> };
    assert.equal(refusal.outcome, 'refused');
    assert.deepEqual(
      refusal.errors.map((e) => e.code),
      ['PS5001'],
    );
    assert.equal(service.requests.length, 1, 'the refused set was not sent');
  });
});

describe('--format json of the other reporting commands', CONCURRENT, () => {
  test('model deploy --format json', async () => {
    const service = await fresh({
      quota: {
        accounts: [{ subscriptionId: SUB, resourceGroup: 'rg', name: 'acct', location: 'eastus' }],
        limits: [{ location: 'eastus', model: 'gpt-4o', limit: 100 }],
        deployments: [],
      },
    });
    const args = [
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
      'gpt-4o:2024-08-06',
      '--capacity',
      '3',
      '--yes',
      '--format',
      'json',
    ];
    const result = await cli(service.url, args);
    assert.equal(result.code, 0, result.stderr);
    const outcome = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(outcome.outcome, 'created');
    assert.equal(outcome.status, 201);
    assert.equal(outcome.deployment, 'chat');
    assert.deepEqual(outcome.sku, { name: 'Standard', capacity: 3 });
    assert.equal(outcome.tpm, 3000);
    assert.deepEqual(outcome.model, { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' });
    const refused = await cli(service.url, [...args.slice(0, -4), '200', '--location', 'eastus', '--yes', '--format', 'json']);
    assert.equal(refused.code, 1);
    assert.equal((JSON.parse(refused.stdout) as { outcome: string }).outcome, 'refused');
  });

  test('eventstream delete and get -o, fetch -o: --format json', async () => {
    const service = await fresh();
    const ws = LOCAL_WORKSPACES.sales;
    const saved = path.join(dir, 'item.json');
    const get = await cli(service.url, ['eventstream', 'get', ws, LOCAL_EVENTSTREAMS.clicks, '-o', saved, '--format', 'json']);
    assert.equal(get.code, 0, get.stderr);
    assert.deepEqual(
      { ...(JSON.parse(get.stdout) as object), requestId: undefined, displayName: undefined },
      {
        outcome: 'saved',
        file: saved,
        workspaceId: ws,
        eventstreamId: LOCAL_EVENTSTREAMS.clicks,
        requestId: undefined,
        displayName: undefined,
      },
    );
    assert.ok(fs.existsSync(saved));
    const deleted = await cli(service.url, ['eventstream', 'delete', ws, LOCAL_EVENTSTREAMS.clicks, '--yes', '--format', 'json']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const outcome = JSON.parse(deleted.stdout) as { outcome: string; status: number; eventstreamId: string };
    assert.equal(outcome.outcome, 'deleted');
    assert.equal(outcome.eventstreamId, LOCAL_EVENTSTREAMS.clicks);
    const fetchedFile = path.join(dir, 'fetched-out.json');
    const fetched = await cli(service.url, ['fetch', BUILT_IN, '-o', fetchedFile, '--format', 'json']);
    assert.equal(fetched.code, 0, fetched.stderr);
    const fetchOutcome = JSON.parse(fetched.stdout) as { outcome: string; file: string; name: string };
    assert.deepEqual([fetchOutcome.outcome, fetchOutcome.file, fetchOutcome.name], ['saved', fetchedFile, BUILT_IN]);
  });
});
