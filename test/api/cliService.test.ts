import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { runCli, isCleanMessage, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { SERVED_BUILT_IN, REPO_ROOT } from '../support/corpus';
import { cleanSet } from '../support/sets';

/** A token nobody would write by chance: the leak test searches every output for it. */
const TOKEN = 'TOKEN-leakcheck-4b9e2c71d0a35f68';
const SUB = '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab';
const BUILT_IN = SERVED_BUILT_IN;

let dir: string;
/** Each test has its own service, so the tests of this file run side by side (each one spawns the CLI). */
const services: LocalService[] = [];
const fresh = async (options: Parameters<typeof startLocalService>[0] = {}) => {
  const service = await startLocalService(options);
  services.push(service);
  return service;
};
const CONCURRENT = { concurrency: 3 };
/** Every output of every run in this file, for the leak test at the end. */
const outputs: string[] = [];

const CLEAN = cleanSet('cli-set', 'CLI set', '1.4.0');

const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
};

async function cli(service: LocalService, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, POLICYSET_BASE_URL: service.url, POLICYSET_ACCESS_TOKEN: TOKEN, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const result = await runCli(args, { env: fullEnv, timeoutMs: 30_000 });
  outputs.push(result.stdout, result.stderr);
  return result;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-api-cli-'));
});
after(async () => {
  await Promise.all(services.map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('policyset fetch', CONCURRENT, () => {
  test('prints the set; $expand fields exactly when asked', async () => {
    const service = await fresh();
    const plain = await cli(service, ['fetch', BUILT_IN]);
    assert.equal(plain.code, 0, plain.stderr);
    const set = JSON.parse(plain.stdout);
    assert.ok(set.properties.policyDefinitions.length > 0);
    assert.ok(
      set.properties.policyDefinitions.every(
        (r: Record<string, unknown>) => !('latestDefinitionVersion' in r) && !('effectiveDefinitionVersion' in r),
      ),
    );

    const expanded = await cli(service, ['fetch', BUILT_IN, '--expand', 'EffectiveDefinitionVersion']);
    const refs = JSON.parse(expanded.stdout).properties.policyDefinitions as Array<Record<string, unknown>>;
    assert.ok(refs.every((r) => typeof r.effectiveDefinitionVersion === 'string' && !('latestDefinitionVersion' in r)));
    assert.equal(service.requests.at(-1)!.query.$expand, 'EffectiveDefinitionVersion');
  });

  test('-o saves it', async () => {
    const service = await fresh();
    const out = path.join(dir, 'fetched.json');
    const result = await cli(service, ['fetch', BUILT_IN, '--expand', 'LatestDefinitionVersion,EffectiveDefinitionVersion', '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    const refs = JSON.parse(fs.readFileSync(out, 'utf8')).properties.policyDefinitions as Array<Record<string, unknown>>;
    assert.ok(refs.every((r) => r.latestDefinitionVersion && r.effectiveDefinitionVersion));
  });

  test('an unknown name: the service code and message, exit 2', async () => {
    const service = await fresh();
    const result = await cli(service, ['fetch', 'no-such-set']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /PolicySetDefinitionNotFound \(404\): The policy set definition 'no-such-set' could not be found/);
    assert.ok(isCleanMessage(result.stderr));
  });

  test('a display name: the 404, then a sentence that says fetch takes the name (a GUID for built-ins)', async () => {
    const service = await fresh();
    const result = await cli(service, ['fetch', 'Microsoft cloud security benchmark']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /\(404\)/);
    assert.match(
      result.stderr,
      /policyset: 'Microsoft cloud security benchmark' looks like a display name: fetch takes the set's name, for built-ins a GUID \(the last segment of its id/,
    );
    assert.ok(isCleanMessage(result.stderr));
  });

  test('usage mistakes and a bad name send nothing, exit 2', async () => {
    const service = await fresh();
    for (const args of [['fetch'], ['fetch', 'a.b'], ['fetch', 'x', '--expand', 'Everything'], ['fetch', 'x', '--timeout', 'soon']]) {
      const result = await cli(service, args);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
    const noUrl = await cli(service, ['fetch', 'x'], { POLICYSET_BASE_URL: undefined });
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /no service address/);
    assert.equal(service.requests.length, 0);
  });

  test('no token: nothing sent, exit 2', async () => {
    const service = await fresh();
    const result = await cli(service, ['fetch', BUILT_IN], { POLICYSET_ACCESS_TOKEN: undefined });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Not signed in/);
    assert.equal(service.requests.length, 0);
  });

  test('--token-command: its output is the token', async () => {
    const service = await fresh();
    const result = await cli(service, ['fetch', BUILT_IN, '--token-command', `node -e "console.log('${TOKEN}')"`], {
      POLICYSET_ACCESS_TOKEN: undefined,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(service.requests[0].headers.authorization, `Bearer ${TOKEN}`);
  });

  test('a failing --token-command: exit 2, its output not shown', async () => {
    const service = await fresh();
    const result = await cli(
      service,
      ['fetch', BUILT_IN, '--token-command', `node -e "console.log('${TOKEN}'); console.error('${TOKEN}'); process.exit(3)"`],
      { POLICYSET_ACCESS_TOKEN: undefined },
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /token-command failed with exit status 3/);
    assert.equal(service.requests.length, 0);
  });

  test('a hung service: a clear message within --timeout', async () => {
    const service = await fresh();
    service.faults.push({ mode: 'hang' });
    const result = await cli(service, ['fetch', BUILT_IN, '--timeout', '0.5']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /No answer from the service within 0\.5 s/);
    // Far below the default limit of 60 s; process start-up on a loaded machine is the rest.
    assert.ok(result.milliseconds < 20_000, `${result.milliseconds} ms`);
  });

  test('429 then success: says it retries, and succeeds', async () => {
    const service = await fresh();
    service.faults.push({ mode: '429', retryAfter: 1, count: 1 });
    const result = await cli(service, ['fetch', BUILT_IN]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /429 TooManyRequests; retrying in 1\.0 s/);
    assert.equal(service.requests.length, 2);
  });
});

describe('policyset deploy', CONCURRENT, () => {
  test('--yes sends exactly one PUT with the properties and the bearer token', async () => {
    const service = await fresh();
    const file = write('clean.json', CLEAN);
    const result = await cli(service, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(service.requests.length, 1);
    const [put] = service.requests;
    assert.equal(put.method, 'PUT');
    assert.equal(put.path, `/subscriptions/${SUB}/providers/Provider.Authorization/policySetDefinitions/cli-set/versions/1.4.0`);
    assert.equal(put.query['api-version'], '2025-11-01');
    assert.equal(put.headers.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(JSON.parse(put.body), { properties: CLEAN.properties });
    assert.match(result.stdout, /^created \/subscriptions\/.*\/versions\/1\.4\.0 \(201, request id local-\d+\)/);
    assert.match(result.stderr, /PUT http:\/\/127\.0\.0\.1:\d+\/subscriptions\//);
  });

  test('a management group, a version resource with --name', async () => {
    const service = await fresh();
    const version = { name: '2.0.0', properties: { ...CLEAN.properties, version: undefined } };
    const file = write('version.json', version);
    const result = await cli(service, ['deploy', file, '--management-group', 'contoso', '--name', 'cli-set', '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      service.requests[0].path,
      '/providers/Provider.Management/managementGroups/contoso/providers/Provider.Authorization/policySetDefinitions/cli-set/versions/2.0.0',
    );
    const missingName = await cli(service, ['deploy', file, '--management-group', 'contoso', '--yes']);
    assert.equal(missingName.code, 2);
    assert.match(missingName.stderr, /give --name/);
  });

  test('a document with errors is not sent (exit 1), and the errors are shown', async () => {
    const service = await fresh();
    const broken = structuredClone(CLEAN);
    broken.properties.policyDefinitions[0].groupNames = ['Netwrok'];
    const file = write('broken.json', broken);
    const result = await cli(service, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Group 'Netwrok' is not declared.*PS5001/);
    assert.match(result.stderr, /not deployed: .* has 1 error/);
    assert.equal(service.requests.length, 0);
  });

  test('without --yes and without a terminal: refused, nothing sent', async () => {
    const service = await fresh();
    const file = write('clean2.json', CLEAN);
    const result = await cli(service, ['deploy', file, '--subscription', SUB]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no terminal to confirm on; pass --yes/);
    assert.equal(service.requests.length, 0);
  });

  test('scope mistakes: exit 2', async () => {
    const service = await fresh();
    const file = write('clean3.json', CLEAN);
    for (const args of [[], ['--subscription', SUB, '--management-group', 'mg'], ['--subscription', 'nope']]) {
      const result = await cli(service, ['deploy', file, ...args, '--yes']);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(isCleanMessage(result.stderr));
    }
    assert.equal(service.requests.length, 0);
  });

  test('a 500 on the PUT: one request, exit 2 with the service message', async () => {
    const service = await fresh();
    service.faults.push({ mode: '500', method: 'PUT' });
    const file = write('clean4.json', CLEAN);
    const result = await cli(service, ['deploy', file, '--subscription', SUB, '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /InternalServerError \(500\)/);
    assert.equal(service.requests.length, 1);
  });
});

describe('the local service as a program', () => {
  test('npm run service:local prints its URL and serves; without the full corpus, the corpus subset and the seed', async () => {
    const service = await fresh();
    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'test/out/fake-service/main.js'), '--port', '0', '--fault', '429:0x1'],
      {
        env: { ...process.env, POLICYSET_CORPUS: path.join(dir, 'no-corpus') },
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let log = '';
      child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
      for (let i = 0; i < 100 && !/listening on/.test(log); i++) await new Promise((r) => setTimeout(r, 50));
      const url =
        /listening on (http:\/\/127\.0\.0\.1:\d+) \(9 of the public cloud's built-in sets from test\/fixtures\/corpus \(the corpus subset; POLICYSET_CORPUS names the full corpus\) and 2 from the seed\)/.exec(
          log,
        )?.[1];
      assert.ok(url, log);
      const result = await cli(service, ['fetch', 'local-demo-tagging'], { POLICYSET_BASE_URL: url });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).name, 'local-demo-tagging');
      for (let i = 0; i < 40 && !/-> 200/.test(log); i++) await new Promise((r) => setTimeout(r, 25));
      assert.match(log, /GET \/providers\/Provider\.Authorization\/policySetDefinitions\/local-demo-tagging -> fault 429/);
      assert.match(log, /-> 200/);
      const fromSubset = await cli(service, ['fetch', BUILT_IN], { POLICYSET_BASE_URL: url });
      assert.equal(fromSubset.code, 0, fromSubset.stderr);
      assert.equal(JSON.parse(fromSubset.stdout).properties.displayName, 'NIS2');
      outputs.push(log);
    } finally {
      child.kill();
    }
  });
});

describe('the token never shows', () => {
  test('a service that echoes the token: redacted in the message', async () => {
    const service = await fresh();
    service.faults.push({ mode: 'echo' });
    const result = await cli(service, ['fetch', BUILT_IN]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /BadToken \(400\): Rejected header 'Bearer \[redacted\]'/);
  });

  test('a deploy against a service that echoes the token: redacted', async () => {
    const service = await fresh();
    service.faults.push({ mode: 'echo', method: 'PUT' });
    const result = await cli(service, ['deploy', write('clean5.json', CLEAN), '--subscription', SUB, '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /BadToken \(400\): Rejected header 'Bearer \[redacted\]'\. \(target 'Bearer \[redacted\]'/);
  });

  test('no output of any run in this file holds the token', () => {
    assert.ok(outputs.length > 20, `only ${outputs.length} outputs were collected`);
    const leaks = outputs.filter((o) => o.includes(TOKEN) || o.includes(TOKEN.slice(6)));
    assert.deepEqual(leaks, []);
    // Nor a file the runs wrote.
    for (const file of fs.readdirSync(dir)) {
      const full = path.join(dir, file);
      if (fs.statSync(full).isFile()) assert.ok(!fs.readFileSync(full, 'utf8').includes(TOKEN), file);
    }
  });
});
