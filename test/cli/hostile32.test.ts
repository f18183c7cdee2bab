// Issue 32, replayed through the CLI as a user runs it (a separate process): hostile patterns in a
// stranger's repository, terminal escapes in names, diff paths that match nothing, outputs that are inputs.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, isCleanMessage } from '../support/run';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-hostile32-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};
const SET = JSON.stringify({ properties: { displayName: 'Kept', policyDefinitions: [] } }, null, 2);

describe('1 and 8: one bounded pattern engine for every ignore pattern and schema pattern', { concurrency: 3 }, () => {
  test("a cloned repository's ignore pattern *a*a…*ab and a long file name: lint . ends in seconds", async () => {
    const repo = path.join(dir, 'glob-repo');
    write('glob-repo/.policysetrc.json', JSON.stringify({ ignore: ['*a'.repeat(40) + 'b'] }));
    write(`glob-repo/${'a'.repeat(200)}.json`, SET);
    const result = await runCli(['lint', '.'], { cwd: repo, timeoutMs: 60000 });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.milliseconds < 30000, `${result.milliseconds} ms`);
    assert.match(result.stdout, /0 errors/);
  });

  test('an ignore pattern over 64 KB: exit 2, the config file and the key named', async () => {
    const repo = path.join(dir, 'long-glob-repo');
    const config = write('long-glob-repo/.policysetrc.json', JSON.stringify({ ignore: ['legacy/', 'x'.repeat(70 * 1024)] }));
    write('long-glob-repo/set.json', SET);
    const result = await runCli(['lint', '.'], { cwd: repo, timeoutMs: 60000 });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.includes(config), result.stderr);
    assert.match(result.stderr, /'ignore' pattern 2 .*longer than 64 KB/);
    assert.doesNotMatch(result.stderr, /unexpected failure/);
    assert.ok(isCleanMessage(result.stderr));
    assert.ok(result.stderr.length < 1000);
  });

  test('--ignore-pattern over 64 KB: a usage error, exit 2', async () => {
    const set = write('long-flag/set.json', SET);
    const result = await runCli(['lint', set, '--ignore-pattern', 'y'.repeat(70 * 1024)], { timeoutMs: 60000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--ignore-pattern: pattern 1 .*longer than 64 KB/);
  });

  test('a parameter schema pattern that expands to 100,000 states: lint reports it not checked (PS6007), in seconds', async () => {
    const pattern = `^${'(?:a|b){0,1000}'.repeat(100)}c$`;
    const set = write(
      'regex/set.json',
      JSON.stringify({
        properties: {
          displayName: 'Regex',
          parameters: {
            p: { type: 'Object', metadata: { displayName: 'p', description: 'p' }, schema: { type: 'object', properties: { name: { type: 'string', pattern } } }, defaultValue: { name: 'ab' } },
          },
          policyDefinitions: [],
        },
      }),
    );
    const result = await runCli(['lint', set, '-f', 'json'], { timeoutMs: 60000 });
    assert.ok(result.milliseconds < 20000, `${result.milliseconds} ms`);
    assert.match(result.stdout, /PS6007/);
    assert.match(result.stdout, /more states than can run in bounded time/);
  });
});
