// policyset deploy --against: the version check before the PUT. Against our local service and against
// mockttp: no request at all when refused, exactly one PUT (to .../versions/<that version>) when allowed.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as mockttp from 'mockttp';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';

const TOKEN = 'TOKEN-deploy-against-5d2e8a1c';
const SUB = '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab';
const AUTHZ = '/providers/Provider.Authorization';
const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
const DEF_B = '/providers/Microsoft.Authorization/policyDefinitions/0a075868-4c26-42ef-914c-5bc007359560';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function set(version: string, breaking = false): Json {
  const result: Json = {
    name: 'guarded-set',
    properties: {
      displayName: 'Guarded set',
      policyType: 'Custom',
      version,
      parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' }, tagName: { type: 'String' } },
      policyDefinitions: [
        { policyDefinitionReferenceId: 'ref1', policyDefinitionId: DEF_A, parameters: { effect: { value: "[parameters('effect')]" } } },
        { policyDefinitionReferenceId: 'ref2', policyDefinitionId: DEF_B, parameters: { tagName: { value: "[parameters('tagName')]" } } },
      ],
    },
  };
  if (breaking) {
    delete result.properties.parameters.tagName;
    delete result.properties.policyDefinitions[1].parameters;
  }
  return result;
}

let dir: string;
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
};
const deploy = (url: string, args: string[], cwd?: string): Promise<RunResult> =>
  runCli(['deploy', ...args, '--subscription', SUB, '--yes', '--base-url', url], {
    env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN },
    timeoutMs: 60_000,
    ...(cwd ? { cwd } : {}),
  });
const versionPath = (version: string) => `/subscriptions/${SUB}${AUTHZ}/policySetDefinitions/guarded-set/versions/${version}`;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-deploy-against-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('deploy --against, local service', () => {
  let service: LocalService;
  before(async () => {
    service = await startLocalService();
  });
  after(() => service.close());

  test('a breaking change under 1.3.0 from 1.2.3: refused, 2.0.0 suggested, nothing sent', async () => {
    service.requests.length = 0;
    const old = write('local/old.json', set('1.2.3'));
    const result = await deploy(service.url, [write('local/low.json', set('1.3.0', true)), '--against', old]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /not deployed: 1 breaking change under version 1\.3\.0/);
    assert.match(result.stderr, /--version 2\.0\.0/);
    assert.match(result.stderr, /Parameter 'tagName' is removed/);
    assert.equal(service.requests.length, 0);
  });

  test('under 2.0.0: exactly one PUT, to .../versions/2.0.0', async () => {
    service.requests.length = 0;
    const old = write('local/old2.json', set('1.2.3'));
    const result = await deploy(service.url, [write('local/major.json', set('2.0.0', true)), '--against', old]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.path}`),
      [`PUT ${versionPath('2.0.0')}`],
    );
  });

  test('--version overrides the file: the check is on the version sent', async () => {
    service.requests.length = 0;
    const old = write('local/old3.json', set('1.2.3'));
    const unversioned = set('1.3.0', true);
    delete unversioned.properties.version;
    const low = await deploy(service.url, [write('local/override.json', unversioned), '--against', old, '--version', '1.3.0']);
    assert.equal(low.code, 1, low.stderr);
    assert.equal(service.requests.length, 0);
    const result = await deploy(service.url, [write('local/override.json', unversioned), '--against', old, '--version', '3.0.0']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.path}`),
      [`PUT ${versionPath('3.0.0')}`],
    );
  });

  test('--allow-breaking deploys it, and says so', async () => {
    service.requests.length = 0;
    const old = write('local/old4.json', set('1.2.3'));
    const result = await deploy(service.url, [write('local/forced.json', set('1.3.0', true)), '--against', old, '--allow-breaking']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /--allow-breaking: deploying 1 breaking change as version 1\.3\.0/);
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.path}`),
      [`PUT ${versionPath('1.3.0')}`],
    );
  });

  test('--against a git revision of the file; --allow-breaking alone is a usage error', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-deploy-git-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
          cwd: repo,
          stdio: 'pipe',
        });
      git('init', '-q');
      fs.writeFileSync(path.join(repo, 'set.json'), JSON.stringify(set('1.2.3'), null, 2));
      git('add', '-A');
      git('commit', '-q', '-m', 'set');
      fs.writeFileSync(path.join(repo, 'set.json'), JSON.stringify(set('1.2.4', true), null, 2));
      service.requests.length = 0;
      const refused = await deploy(service.url, ['set.json', '--against', 'HEAD'], repo);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /against HEAD:set\.json \(1\.2\.3\)/);
      assert.equal(service.requests.length, 0);
      const usage = await deploy(service.url, ['set.json', '--allow-breaking'], repo);
      assert.equal(usage.code, 2);
      assert.equal(service.requests.length, 0);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('deploy --against, mockttp', () => {
  let server: mockttp.Mockttp;
  const seen: mockttp.CompletedRequest[] = [];
  before(async () => {
    server = mockttp.getLocal();
    await server.start();
    await server.on('request', (request) => void seen.push(request));
    await server.forPut(/\/versions\/\d+\.\d+\.\d+$/).thenCallback(async (r) => ({
      statusCode: 201,
      json: { id: new URL(r.url).pathname, properties: ((await r.body.getJson()) as Json).properties },
    }));
    await server.forUnmatchedRequest().thenJson(400, { error: { code: 'InvalidRequest', message: 'No such operation' } });
  });
  after(() => server.stop());

  test('refused: no request at all', async () => {
    seen.length = 0;
    const result = await deploy(`http://127.0.0.1:${server.port}`, [
      write('mock/low.json', set('1.3.0', true)),
      '--against',
      write('mock/old.json', set('1.2.3')),
    ]);
    assert.equal(result.code, 1);
    assert.equal(seen.length, 0);
  });

  test('a proper major version: exactly one PUT, to .../versions/2.0.0, with the properties', async () => {
    seen.length = 0;
    const next = set('2.0.0', true);
    const result = await deploy(`http://127.0.0.1:${server.port}`, [
      write('mock/major.json', next),
      '--against',
      write('mock/old2.json', set('1.2.3')),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].method, 'PUT');
    assert.equal(new URL(seen[0].url).pathname, versionPath('2.0.0'));
    assert.deepEqual(await seen[0].body.getJson(), { properties: next.properties });
  });
});
