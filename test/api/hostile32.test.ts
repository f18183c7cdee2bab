// Issue 32 against services: mockttp (a server no one here wrote) and a raw socket for what mockttp cannot
// send (101). A PUT that failed is never success, an answer that never settles is an error, impossible
// numbers are refused, the token is never printed in any encoding, and Ctrl-C leaves a summary.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import * as mockttp from 'mockttp';
import { CLI, runCli, type RunResult } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const TOKEN = 'TOKEN-hostile32-5c8e1a7d3b9f2e60';
const SUB = '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab';
const RG = 'rg-ai';

let dir: string;
const mocks: mockttp.Mockttp[] = [];
const servers: net.Server[] = [];
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-hostile32-api-'));
});
after(async () => {
  await Promise.all(mocks.map((m) => m.stop()));
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const mock = async () => {
  const server = mockttp.getLocal();
  await server.start();
  mocks.push(server);
  return server;
};
const env = (url: string) => ({ ...process.env, POLICYSET_BASE_URL: url, POLICYSET_ACCESS_TOKEN: TOKEN });
const cli = (url: string, args: string[]): Promise<RunResult> => runCli(args, { env: env(url), timeoutMs: 60_000 });
const planFile = (name: string, deployments: Array<{ name: string; capacity: number; model?: object; sku?: string }>) => {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    JSON.stringify({
      subscription: SUB,
      resourceGroup: RG,
      region: 'eastus',
      account: 'ai-east',
      deployments: deployments.map((d) => ({
        name: d.name,
        model: d.model ?? { format: 'OpenAI', name: 'gpt-4o', version: '2024-08-06' },
        sku: { name: d.sku ?? 'Standard', capacity: d.capacity },
      })),
    }),
  );
  return file;
};
/** A stand-in for E6/E7: no deployment yet, gpt-4o 0 of `limit` used; PUTs answered by `put`. */
async function standIn(put: (server: mockttp.Mockttp) => Promise<unknown>, limit: number | string = 1000) {
  const server = await mock();
  await server.forGet(/\/locations\/eastus\/usages$/).thenJson(200, {
    value: [
      { name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 0, limit },
      { name: { value: 'AccountCount' }, currentValue: 1, limit: 30 },
    ],
  });
  await server.forGet(/\/deployments\/[^/?]+$/).thenJson(404, { error: { code: 'DeploymentNotFound', message: 'no' } });
  await put(server);
  return server;
}

describe('4: a PUT answered 200 with provisioningState Failed is no success', { concurrency: 2 }, () => {
  test('model deploy: exit 2, the state named; not "still provisioning it (Failed)"; the PUT went once', async () => {
    let puts = 0;
    const server = await standIn((s) =>
      s
        .forPut(/\/deployments\/chat$/)
        .thenCallback(() => (puts++, { statusCode: 200, json: { id: 'x', properties: { provisioningState: 'Failed' } } })),
    );
    const result = await cli(server.url, [
      'model',
      'deploy',
      '--subscription',
      SUB,
      '--resource-group',
      RG,
      '--account',
      'ai-east',
      '--name',
      'chat',
      '--model',
      'gpt-4o',
      '--capacity',
      '1',
      '--yes',
    ]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /provisioningState is 'Failed': the write did not succeed/);
    assert.doesNotMatch(result.stdout, /^(created|updated) /m);
    assert.doesNotMatch(result.stdout + result.stderr, /still provisioning/);
    assert.equal(puts, 1);
  });

  test('model apply: the entry reported failed, the rest not sent, exit 2', async () => {
    let puts = 0;
    const server = await standIn((s) =>
      s
        .forPut(/\/deployments\/[^/?]+$/)
        .thenCallback(() => (puts++, { statusCode: 201, json: { properties: { provisioningState: 'Failed' } } })),
    );
    const result = await cli(server.url, [
      'model',
      'apply',
      planFile('failed-plan.json', [
        { name: 'one', capacity: 1 },
        { name: 'two', capacity: 1 },
      ]),
      '--yes',
    ]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout, /^failed +ai-east\/one: .*provisioningState is 'Failed'/m);
    assert.match(result.stdout, /^not sent {2}ai-east\/two$/m);
    assert.doesNotMatch(result.stdout, /^applied/m);
    assert.equal(puts, 1);
  });
});

describe('3: what a service or a plan says reaches the terminal made safe (model apply)', { concurrency: 2 }, () => {
  const ESCAPES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  test('a provisioningState with terminal escapes and a line break: printed escaped, no forged line', async () => {
    const server = await standIn((s) =>
      s.forPut(/\/deployments\/[^/?]+$/).thenJson(201, {
        properties: { provisioningState: 'Succeeded\u001b[2J\u001b]0;owned\u0007\r\npolicyset: ✔ forged' },
      }),
    );
    const result = await cli(server.url, ['model', 'apply', planFile('escape-plan.json', [{ name: 'one', capacity: 1 }]), '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, ESCAPES);
    assert.doesNotMatch(result.stderr, /^policyset: ✔ forged/m);
    assert.match(result.stderr, /^policyset: {3}201 \(provisioningState Succeeded\\u001b\[2J/m);
  });

  test("a plan's model and SKU names with terminal escapes: printed escaped in the table, or refused", async () => {
    const server = await standIn((s) =>
      s.forPut(/\/deployments\/[^/?]+$/).thenJson(201, { properties: { provisioningState: 'Succeeded' } }),
    );
    const file = planFile('escape-names.json', [
      { name: 'one', capacity: 1, model: { format: 'OpenAI', name: 'gpt-4o\u001b[31m' }, sku: 'Standard\u001b]0;x\u0007' },
    ]);
    const result = await cli(server.url, ['model', 'apply', file, '--dry-run']);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, ESCAPES);
    assert.match(result.stdout, /^ {2}ai-east\/one +eastus +gpt-4o\\u001b\[31m Standard\\u001b\]0;x\\u0007 +create /m);
  });
});

test("fetch -o: the set's display name from the service is said made safe, the token in it redacted", async () => {
  const server = await mock();
  await server.forGet(/\/policySetDefinitions\/evil$/).thenJson(200, {
    name: 'evil',
    properties: { displayName: `Evil\u001b]0;owned\u0007\r\npolicyset: ✔ forged ${TOKEN}`, policyDefinitions: [] },
  });
  const out = path.join(dir, 'evil.json');
  const result = await cli(server.url, ['fetch', 'evil', '-o', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.doesNotMatch(result.stderr, /^policyset: ✔ forged/m);
  assert.ok(!result.stderr.includes(TOKEN), result.stderr);
  assert.match(result.stderr, /^policyset: saved 'Evil\\u001b\]0;owned\\u0007\\u000d\\u000apolicyset: ✔ forged \[redacted\]' to /m);
});

describe('15: a 101 Switching Protocols answer', { concurrency: 2 }, () => {
  /** A server that answers every request with 101 and then says nothing. */
  const switching = () =>
    new Promise<string>((resolve) => {
      const server = net.createServer((socket) => {
        socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
        socket.on('error', () => undefined);
      });
      servers.push(server);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`));
    });

  test('fetch: exit 2 at once with a clear message (it never settled before)', async () => {
    const url = await switching();
    const result = await runCli(['fetch', 'some-set', '--timeout', '60'], { env: env(url), timeoutMs: 30_000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /answered 101 Switching Protocols/);
    assert.ok(result.milliseconds < 20_000);
  });

  test('model deploy (a PUT): exit 2, its outcome unknown, not sent again', async () => {
    const url = await switching();
    const result = await runCli(
      [
        'model',
        'deploy',
        '--subscription',
        SUB,
        '--resource-group',
        RG,
        '--account',
        'ai-east',
        '--name',
        'chat',
        '--model',
        'gpt-4o',
        '--capacity',
        '1',
        '--yes',
        '--timeout',
        '60',
      ],
      { env: env(url), timeoutMs: 30_000 },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /101 Switching Protocols/);
    assert.doesNotMatch(result.stdout, /created|updated/);
  });
});

describe('6: impossible usage numbers from the service', { concurrency: 2 }, () => {
  for (const limit of [1e308, -1e308]) {
    test(`quota where and model apply with a limit of ${limit}: refused, exit 2, nothing "fits", no PUT`, async () => {
      let puts = 0;
      const server = await standIn(
        (s) => s.forPut(/\/deployments\/[^/?]+$/).thenCallback(() => (puts++, { statusCode: 201, json: {} })),
        limit,
      );
      const where = await cli(server.url, [
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
      assert.equal(where.code, 2, JSON.stringify(where));
      // The region's row says why; no region is said to fit.
      assert.match(where.stdout, /eastus .*error: The service's usage of eastus has an impossible limit/, JSON.stringify(where));
      assert.match(where.stdout, /fits in none of these regions/);
      assert.doesNotMatch(where.stdout, /∞/);
      const apply = await cli(server.url, [
        'model',
        'apply',
        planFile(`impossible-${limit}.json`, [{ name: 'one', capacity: 1 }]),
        '--yes',
      ]);
      assert.equal(apply.code, 2, apply.stderr);
      assert.match(apply.stderr, /impossible limit/);
      assert.equal(puts, 0);
    });
  }
});

describe('7: the token echoed in base64', () => {
  test("an error that echoes 'Bearer <token>' base64- and base64url-encoded: printed redacted", async () => {
    const server = await mock();
    const echoed = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
    const echoedUrl = Buffer.from(`x:Bearer ${TOKEN}`).toString('base64url');
    await server
      .forGet(/policySetDefinitions/)
      .thenJson(400, { error: { code: 'BadRequest', message: `bad header ${echoed}; seen ${echoedUrl}` } });
    const result = await cli(server.url, ['fetch', 'some-set']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /\[redacted\]/);
    for (const form of [echoed, echoedUrl, TOKEN]) assert.ok(!(result.stdout + result.stderr).includes(form.slice(8, 30)), result.stderr);
  });
});

describe('5 and 16: model apply reads the plan with its own cap, and Ctrl-C leaves a summary', { concurrency: 2 }, () => {
  test('a plan over 8 MiB: exit 2 before anything is read from the service', async () => {
    const file = path.join(dir, 'huge-plan.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ deployments: [{ name: 'x', model: 'gpt-4o', sku: { capacity: 1 } }], pad: 'x'.repeat(9 * 1024 * 1024) }),
    );
    const server = await mock();
    const result = await cli(server.url, ['model', 'apply', file, '--yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /8 MiB/);
    assert.equal((await server.getMockedEndpoints()).length, 0);
  });

  test('Ctrl-C while a PUT is in flight: applied, UNKNOWN (the one in flight) and not sent are printed; exit 130', async () => {
    let puts = 0;
    const server = await standIn(async (s) => {
      await s
        .forPut(/\/deployments\/one$/)
        .thenCallback(() => (puts++, { statusCode: 201, json: { properties: { provisioningState: 'Succeeded' } } }));
      // The second PUT is never answered.
      await s.forPut(/\/deployments\/two$/).thenCallback(() => (puts++, new Promise(() => undefined)));
    });
    const child = spawn(
      process.execPath,
      [
        CLI,
        'model',
        'apply',
        planFile('interrupted.json', [
          { name: 'one', capacity: 1 },
          { name: 'two', capacity: 1 },
          { name: 'three', capacity: 1 },
        ]),
        '--yes',
        '--timeout',
        '120',
      ],
      {
        cwd: REPO_ROOT,
        env: env(server.url),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (/PUT 2\/3/.test(stderr)) setTimeout(() => child.kill('SIGINT'), 300);
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 130, stderr);
    assert.match(stdout, /Interrupted \(Ctrl-C\):/);
    assert.match(stdout, /^applied {3}ai-east\/one$/m);
    assert.match(stdout, /^UNKNOWN {3}ai-east\/two: /m);
    assert.match(stdout, /^not sent {2}ai-east\/three$/m);
    assert.equal(puts, 2);
  });
});

describe('12: the deploy guard with a change that breaks nothing', () => {
  const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
  const DEF_B = '/providers/Microsoft.Authorization/policyDefinitions/0a075868-4c26-42ef-914c-5bc007359560';
  const set = (version: string, references: string[]) => ({
    name: 'guarded-set',
    properties: {
      displayName: 'Guarded set',
      policyType: 'Custom',
      version,
      policyDefinitions: references.map((id, i) => ({ policyDefinitionReferenceId: `ref${i + 1}`, policyDefinitionId: id })),
    },
  });
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(content, null, 2));
    return file;
  };

  test('a reference added, deployed again under the same version: refused, nothing sent; under the next minor: one PUT', async () => {
    const server = await mock();
    let requests = 0;
    await server.forAnyRequest().thenCallback(() => (requests++, { statusCode: 201, json: { id: 'x', properties: {} } }));
    const old = write('guard-old.json', set('1.2.3', [DEF_A]));
    const same = write('guard-same.json', set('1.2.3', [DEF_A, DEF_B]));
    const refused = await runCli(['deploy', same, '--against', old, '--subscription', SUB, '--yes', '--base-url', server.url], {
      env: env(server.url),
      timeoutMs: 60_000,
    });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /not deployed: a (minor|major) change under version 1\.2\.3/);
    assert.match(refused.stderr, /reference/i);
    assert.equal(requests, 0);
    const bumped = write('guard-bumped.json', set('1.3.0', [DEF_A, DEF_B]));
    const allowed = await runCli(['deploy', bumped, '--against', old, '--subscription', SUB, '--yes', '--base-url', server.url], {
      env: env(server.url),
      timeoutMs: 60_000,
    });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(requests, 1);
  });
});
