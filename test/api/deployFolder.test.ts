// policyset deploy <folder> --against <revision>: only the sets that changed, each under the version its changes
// need, one plan and one confirmation, then one PUT each; a PUT whose outcome is unknown stops the rest and is
// never sent again. Against the local service, in a git repository.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, type RunResult } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';

const TOKEN = 'TOKEN-deploy-folder-4b7e';
const SUB = '3d4e5f60-5a1d-4c2e-9f8a-0123456789ab';
const DEF = (n: number) => `/providers/Microsoft.Authorization/policyDefinitions/0000000${n}-0000-4000-8000-000000000000`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const set = (name: string, version: string, references: number[]): Json => ({
  name,
  properties: {
    displayName: name,
    version,
    policyDefinitions: references.map((n) => ({ policyDefinitionReferenceId: `r${n}`, policyDefinitionId: DEF(n) })),
  },
});

let repo: string;
let service: LocalService;
const write = (file: string, content: unknown) => fs.writeFileSync(path.join(repo, file), JSON.stringify(content, null, 2));
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: repo,
    stdio: 'pipe',
  });
const deploy = (...extra: string[]): Promise<RunResult> =>
  runCli(['deploy', 'sets', '--against', 'HEAD', '--subscription', SUB, '--base-url', service.url, ...extra], {
    cwd: repo,
    env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN },
    timeoutMs: 90_000,
  });
const puts = () => service.requests.filter((r) => r.method === 'PUT').map((r) => r.path.replace(/^.*policySetDefinitions\//, ''));

before(async () => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-deploy-folder-'));
  fs.mkdirSync(path.join(repo, 'sets'));
  git('init', '-q');
  write('sets/a.json', set('set-a', '1.0.0', [1]));
  write('sets/b.json', set('set-b', '1.0.0', [2]));
  git('add', '-A');
  git('commit', '-q', '-m', 'sets');
  service = await startLocalService();
});
after(async () => {
  await service.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('deploy <folder> --against <revision>', () => {
  test('nothing changed: nothing to deploy, nothing sent', async () => {
    service.requests.length = 0;
    const result = await deploy('--yes');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Nothing to deploy: no set under sets changed since HEAD/);
    assert.equal(service.requests.length, 0);
  });

  test('a breaking change under a minor version: the plan, the version to use, nothing sent (exit 1)', async () => {
    write('sets/a.json', set('set-a', '1.1.0', [3])); // reference r1 removed: major
    service.requests.length = 0;
    const result = await deploy('--yes');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /sets\/a\.json: its .* need a major version, and 1\.1\.0 after 1\.0\.0 is not one \(use 2\.0\.0\)/);
    assert.match(result.stderr, /nothing sent/);
    assert.equal(service.requests.length, 0);
  });

  test('only the changed and the new sets, each once, after the plan; b (unchanged) is not sent', async () => {
    write('sets/a.json', set('set-a', '1.1.0', [1, 3])); // a reference added: minor
    write('sets/c.json', set('set-c', '1.0.0', [4])); // new since HEAD
    service.requests.length = 0;
    const result = await deploy('--yes');
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^Deploy plan: 2 sets changed under sets since HEAD, to subscription /m);
    assert.match(result.stdout, /^set-a\s+1\.0\.0 -> 1\.1\.0\s+minor\s+1\s+sets\/a\.json$/m);
    assert.match(result.stdout, /^set-c\s+new -> 1\.0\.0\s+new\s+0\s+sets\/c\.json$/m);
    assert.deepEqual(puts(), ['set-a/versions/1.1.0', 'set-c/versions/1.0.0']);
    assert.match(result.stdout, /Deployed 2 of 2\./);
  });

  test('without a terminal and without --yes: refused, nothing sent', async () => {
    service.requests.length = 0;
    const result = await deploy();
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /nothing was sent: no terminal to confirm on/);
    assert.equal(service.requests.length, 0);
  });

  test('a PUT answered 500 (it may have been applied): not sent again, the rest not sent, exit 2', async () => {
    service.requests.length = 0;
    service.faults.push({ mode: '500', count: 1, method: 'PUT' });
    const result = await deploy('--yes');
    service.faults.length = 0;
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.deepEqual(puts(), ['set-a/versions/1.1.0']);
    assert.match(
      result.stdout,
      /Deployed 0 of 2\.\nUNKNOWN set-a 1\.1\.0: its PUT was sent and may have been applied; it is not sent again/,
    );
    assert.match(result.stdout, /not sent: set-c 1\.0\.0/);
  });

  test('a folder without --against is a usage error', async () => {
    const result = await runCli(['deploy', 'sets', '--subscription', SUB, '--yes', '--base-url', service.url], {
      cwd: repo,
      env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /sets is a folder: deploy <folder> goes with --against <git revision>/);
  });
});
