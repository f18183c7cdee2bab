// Issue 22 against services: our local service (test/service) and mockttp (a server no one here wrote).
// What is confirmed is what is sent; nothing is sent to an address URL parsing would change.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mockttp from 'mockttp';
import { HttpClient, InvalidRequestError, ModelDeploymentClient, PolicySetClient } from '#api';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../service/localService';
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
    for (const args of [['--management-group', 'mg_(1).x-y'], ['--subscription', SUB]]) {
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
      await assert.rejects(client.createPolicySetDefinitionVersion({ kind: 'managementGroup', managementGroupId }, 'cb', '1.0.0', { policyDefinitions: [] }), InvalidRequestError);
    }
    const deployments = new ModelDeploymentClient(SETTINGS(server.url), { token: async () => TOKEN });
    assert.throws(() => deployments.deploymentPath({ subscriptionId: SUB, resourceGroupName: 'rg', accountName: 'acct', deploymentName: 'chat.' }), InvalidRequestError);
    assert.throws(() => deployments.deploymentPath({ subscriptionId: SUB, resourceGroupName: '..', accountName: 'acct', deploymentName: 'chat' }), InvalidRequestError);
    // The one place URLs are built: a path URL parsing would change is refused, even encoded.
    const http = new HttpClient({ baseUrl: server.url + '/base', token: async () => TOKEN });
    for (const p of ['/a/../b', '/a/./b', '/a/%2e%2e/b', '/a/.%2E/b']) {
      assert.throws(() => http.urlOf({ path: p, apiVersion: '1' }), InvalidRequestError, p);
      await assert.rejects(http.send({ method: 'PUT', path: p, apiVersion: '1', area: 'policy', body: {} }), InvalidRequestError);
    }
    assert.equal(seen.length, 0);
    // A good path: what urlOf says is where send goes.
    const good = client.versionUrl({ kind: 'managementGroup', managementGroupId: 'mg_(1).x' }, 'cb', '1.0.0');
    await client.createPolicySetDefinitionVersion({ kind: 'managementGroup', managementGroupId: 'mg_(1).x' }, 'cb', '1.0.0', { policyDefinitions: [] });
    assert.equal((seen[0] as mockttp.CompletedRequest).url, good);
  });
});
