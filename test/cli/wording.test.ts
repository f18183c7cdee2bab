// The messages issue 19 found wanting, each pinned as it reads now.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { startLocalService, type LocalService } from '../fake-service/localService';

let dir: string;
let service: LocalService | undefined;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-wording-'));
});
after(async () => {
  await service?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};

describe('wording', { concurrency: 3 }, () => {
  test('"1 request/s", and "2 requests/s"', async () => {
    const args = (rps: string) => [
      'quota',
      'simulate',
      '--model',
      'gpt-4o',
      '--capacity',
      '10',
      '--rps',
      rps,
      '--prompt-tokens',
      '10',
      '--max-tokens',
      '10',
    ];
    assert.match((await runCli(args('1'))).stdout, /^load +1 request\/s for 1 min;/m);
    assert.match((await runCli(args('2'))).stdout, /^load +2 requests\/s for 1 min;/m);
  });

  test('a plan that is not valid JSON: its syntax errors, not "not a deployment plan"', async () => {
    const file = write('broken.deployment-plan.json', '{ deployments: [ { model: "gpt-4o" } ] }');
    const result = await runCli(['quota', 'plan', file]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /error .*PS1001/);
    assert.match(
      result.stderr,
      /broken\.deployment-plan\.json is not valid JSON \(the \d+ errors above\); fix it, then check the plan again/,
    );
    assert.doesNotMatch(result.stderr, /not a deployment plan/);
  });

  test('a capacity-unit file naming an undefined class: the file and the class, not "unexpected failure"', async () => {
    const file = write('units.json', '{ "models": { "my-model": "no-such-class" } }');
    const result = await runCli(['quota', 'calc', '--model', 'my-model', '--capacity', '1', '--capacity-units', file]);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `policyset: --capacity-units '${file}': model 'my-model' names class 'no-such-class', which is not defined\n`,
    );
  });

  test('a --token-command program that does not exist: said so, not "exit status 127"', async () => {
    service = await startLocalService();
    const env: NodeJS.ProcessEnv = { ...process.env, POLICYSET_BASE_URL: service.url };
    delete env.POLICYSET_ACCESS_TOKEN;
    const result = await runCli(['fetch', 'local-demo-locations', '--token-command', 'policyset-no-such-program --print'], { env });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /the --token-command could not be run: the shell found no program 'policyset-no-such-program' \(check the name and PATH\)/,
    );
    assert.doesNotMatch(result.stderr, /127/);
    const secret = await runCli(['fetch', 'local-demo-locations', '--token-command', 'SECRET=abc123 policyset-no-such-program'], { env });
    assert.match(secret.stderr, /the shell found no program \(check the name and PATH\)/);
    assert.doesNotMatch(secret.stderr, /abc123/);
    assert.equal(service.requests.length, 0, 'nothing sent without a token');
  });
});
