// Issue 22, replayed through the CLI as a user runs it (a separate process): hostile files (devices, FIFOs,
// huge files, secrets named as inputs), outputs that would replace an input, and numbers out of range.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, isCleanMessage } from '../support/run';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-hostile-cli-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};
const fifo = (name: string) => {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
};
const PLAN = (usage: string) =>
  JSON.stringify({
    region: 'eastus',
    usage,
    deployments: [{ account: 'a', name: 'd', model: 'gpt-4o', sku: { name: 'Standard', capacity: 1 } }],
  });
// Looks like a shadow file: its first characters must never be quoted.
const SECRET = 'root:*:20222:0:99999:7:::\nsecret-line-xyz\n';

describe('1: every user file through one bounded reader', { concurrency: 4 }, () => {
  test('a plan whose "usage" is /dev/zero: exit 2 at once, the device named', async () => {
    const plan = write('zero-plan.json', PLAN('/dev/zero'));
    const result = await runCli(['quota', 'plan', plan], { timeoutMs: 30000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /\/dev\/zero.*a device, not a regular file/);
    assert.ok(isCleanMessage(result.stderr));
  });

  test('quota plan /dev/zero, --usage /dev/zero, --capacity-units /dev/zero: refused', async () => {
    const plan = write('plain-plan.json', PLAN('x.json').replace('"usage":"x.json",', ''));
    for (const args of [
      ['quota', 'plan', '/dev/zero'],
      ['quota', 'plan', plan, '--usage', '/dev/zero'],
      ['quota', 'plan', plan, '--capacity-units', '/dev/zero'],
    ]) {
      const result = await runCli(args, { timeoutMs: 30000 });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /a device, not a regular file/);
    }
  });

  test('a FIFO as the usage file, the plan or a linted file: refused without blocking', async () => {
    const pipe = fifo('usage.fifo');
    const plan = write('fifo-plan.json', PLAN(pipe));
    const lintPipe = fifo('fifo-set.json');
    for (const args of [
      ['quota', 'plan', plan],
      ['quota', 'plan', pipe],
      ['lint', lintPipe],
    ]) {
      const result = await runCli(args, { timeoutMs: 30000 });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /a pipe \(FIFO\), not a regular file/);
    }
  });

  test('a usage file over its size cap: a clear message, nothing read', async () => {
    const big = path.join(dir, 'big-usage.json');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 17 * 1024 * 1024);
    const plan = write('big-plan.json', PLAN(big));
    const result = await runCli(['quota', 'plan', plan], { timeoutMs: 30000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /too large to read \(17 MiB; saved usage files are read up to 16 MiB\)/);
  });

  test('a file that is not JSON (a secret) named as usage, capacity units, definitions or config: its content is never quoted', async () => {
    const secret = write('shadow', SECRET);
    const plan = write('secret-plan.json', PLAN(secret));
    const set = write('set.json', JSON.stringify({ properties: { displayName: 'x', policyDefinitions: [] } }));
    const configDir = path.join(dir, 'config');
    write('config/.policysetrc.json', SECRET);
    const runs = [
      await runCli(['quota', 'plan', plan], { timeoutMs: 30000 }),
      await runCli(['quota', 'calc', '--model', 'gpt-4o', '--capacity', '1', '--capacity-units', secret], { timeoutMs: 30000 }),
      await runCli(['lint', set, '-d', secret], { timeoutMs: 30000 }),
      await runCli(['lint', set], { timeoutMs: 30000, cwd: configDir }),
    ];
    for (const result of runs) {
      assert.equal(result.code, 2, result.stderr);
      assert.doesNotMatch(result.stderr + result.stdout, /root|20222|secret-line/);
      assert.match(result.stderr, /line 1, column 1/);
    }
  });
});

describe('3: -o never replaces an input, never half-writes, never writes through a link', { concurrency: 3 }, () => {
  const SET = JSON.stringify({ properties: { displayName: 'Kept', policyDefinitions: [] } }, null, 2);

  test('lint set.json -o set.json: exit 2, the input kept', async () => {
    const file = write('o-same/set.json', SET);
    const result = await runCli(['lint', file, '-o', file]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /-o '.*set\.json' is one of the inputs/);
    assert.equal(fs.readFileSync(file, 'utf8'), SET);
  });

  test('lint d -f sarif -o d/set.json (an input found in the folder), or through another spelling or a hard link: exit 2', async () => {
    const file = write('o-folder/d/set.json', SET);
    const folder = path.dirname(file);
    fs.linkSync(file, path.join(dir, 'o-folder', 'hard.json'));
    for (const target of [file, path.join(folder, '..', 'd', 'set.json'), path.join(dir, 'o-folder', 'hard.json')]) {
      const result = await runCli(['lint', folder, '-f', 'sarif', '-o', target]);
      assert.equal(result.code, 2, `${target}: ${result.stderr}`);
      assert.equal(fs.readFileSync(file, 'utf8'), SET);
    }
  });

  test('a symlink as -o is replaced by the report; the file it points to is untouched', async () => {
    const file = write('o-link/set.json', SET);
    const victim = write('o-link/victim.txt', 'precious');
    const link = path.join(dir, 'o-link', 'report.txt');
    fs.symlinkSync(victim, link);
    const result = await runCli(['lint', file, '-o', link]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
    assert.ok(fs.lstatSync(link).isFile());
    assert.match(fs.readFileSync(link, 'utf8'), /0 errors/);
    // No temporary file left beside it.
    assert.deepEqual(
      fs.readdirSync(path.dirname(link)).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  test('a symlink to an input as -o: exit 2, the input kept', async () => {
    const file = write('o-link2/set.json', SET);
    const link = path.join(dir, 'o-link2', 'out.json');
    fs.symlinkSync(file, link);
    const result = await runCli(['lint', file, '-o', link]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(fs.readFileSync(file, 'utf8'), SET);
  });

  test('links inside a folder linted are not followed, and said: a link to / walks nothing', async () => {
    const file = write('walk-links/sets/set.json', SET);
    fs.symlinkSync('/', path.join(dir, 'walk-links', 'sets', 'root'));
    fs.symlinkSync(file, path.join(dir, 'walk-links', 'sets', 'again.json'));
    const result = await runCli(['lint', path.join(dir, 'walk-links', 'sets')]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /in 1 policy document/);
    assert.match(
      result.stderr,
      /^policyset: 2 symbolic links in the folders walked not followed \('.*again\.json', '.*root'\): name a linked file on the command line to include it$/m,
    );
    // diff --consumers walks its folders the same way, and says so too.
    const renamed = write('walk-links/new.json', SET.replace('Kept', 'Renamed'));
    const diff = await runCli(['diff', file, renamed, '--consumers', path.join(dir, 'walk-links', 'sets')]);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stderr, /^policyset: --consumers: 2 symbolic links in the folders walked not followed \(/m);
    // A folder of definitions: walked the same way, said by lint, diff and evaluate alike.
    const definitions = path.join(dir, 'walk-links', 'sets');
    const said =
      /^policyset: --definitions: 2 symbolic links in the folders walked not followed \('.*again\.json', '.*root'\): name a linked file among the definitions to include it$/m;
    const linted = await runCli(['lint', file, '-d', definitions]);
    assert.equal(linted.code, 0, linted.stderr);
    assert.match(linted.stderr, said);
    const compared = await runCli(['diff', file, renamed, '-d', definitions]);
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stderr, said);
    const resource = write(
      'walk-links/resource.json',
      '{ "type": "Microsoft.Storage/storageAccounts", "name": "s", "location": "westeurope" }',
    );
    const evaluated = await runCli(['evaluate', file, '--resource', resource, '-d', definitions]);
    assert.match(evaluated.stderr, said);
  });
});

describe('7: numbers checked before anything is sent', { concurrency: 3 }, () => {
  // Nothing listens here: a request sent would end in a connection error, not in the usage message.
  const env = { ...process.env, POLICYSET_BASE_URL: 'http://127.0.0.1:9', POLICYSET_ACCESS_TOKEN: 'TOKEN-numbers-0123456789' };
  const deploy = [
    'model',
    'deploy',
    '--subscription',
    '6e0f3b4c-5a1d-4c2e-9f8a-0123456789ab',
    '--resource-group',
    'rg',
    '--account',
    'acct',
    '--name',
    'chat',
    '--model',
    'gpt-4o',
    '--yes',
  ];

  test('model deploy and quota calc: capacities past 2^53, 1e308, --tpm 1e21: one clear line, exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--capacity', '99999999999999999999'], /^policyset: --capacity 99999999999999999999 is too large to be taken exactly$/m],
      [['--capacity', '1e308'], /capacity must be at most 1,000,000 units/],
      [['--tpm', '1e21'], /TPM must be at most 1,000,000,000/],
      [['--tpm', '1000000001000'], /TPM must be at most 1,000,000,000/],
    ];
    for (const [flags, expected] of cases) {
      for (const args of [
        [...deploy, ...flags],
        ['quota', 'calc', '--model', 'gpt-4o', ...flags],
      ]) {
        const result = await runCli(args, { env, timeoutMs: 30000 });
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, expected, args.join(' '));
        assert.doesNotMatch(result.stderr, /ECONNREFUSED|refused/);
      }
    }
  });

  test('a plan capacity of 1e308 is PS9101, not ✔', async () => {
    const plan = write(
      'huge-capacity-plan.json',
      JSON.stringify({
        region: 'eastus',
        deployments: [{ account: 'a', name: 'd', model: 'gpt-4o', sku: { name: 'Standard', capacity: 1e308 } }],
      }),
    );
    const result = await runCli(['quota', 'plan', plan], { timeoutMs: 30000 });
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.match(result.stdout, /at most 1,000,000 units.*PS9101/);
  });
});

describe('10: a document too large to check is said to be not checked, never ✔', () => {
  test('a plan over 8 MiB: lint notes it not checked (⚠, no ✔); quota plan refuses it, exit 2', async () => {
    const deployments = Array.from({ length: 90_000 }, (_, i) => ({
      account: 'a',
      name: `d${i}`,
      model: 'gpt-4o',
      sku: { name: 'Standard', capacity: 1 },
    }));
    const plan = write('large/plan.json', JSON.stringify({ region: 'eastus', deployments }, null, 1));
    assert.ok(fs.statSync(plan).size > 8 * 1024 * 1024);
    for (const args of [
      ['lint', plan],
      ['lint', path.dirname(plan)],
    ]) {
      const result = await runCli(args, { timeoutMs: 60000 });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout, /✔/);
      assert.match(result.stdout, /plan\.json: not checked: over 8 MiB, only its syntax and size were checked/);
      assert.match(result.stdout, /^⚠ 0 errors, 1 warning in 0 policy documents; 1 named file not checked$/m);
    }
    const strict = await runCli(['lint', plan, '--strict'], { timeoutMs: 60000 });
    assert.equal(strict.code, 2, strict.stderr);
    const quota = await runCli(['quota', 'plan', plan], { timeoutMs: 60000 });
    assert.equal(quota.code, 2, quota.stderr);
    assert.match(quota.stderr, /too large to read \(11\.\d MiB; deployment plans are read up to 8 MiB\)/);
  });
});

describe('11: messages in one clear line; the token command honours --timeout', { concurrency: 3 }, () => {
  const env = { ...process.env, POLICYSET_BASE_URL: 'http://127.0.0.1:9', POLICYSET_ACCESS_TOKEN: 'TOKEN-messages-0123456789' };
  const firstLine = (stderr: string) => stderr.split('\n')[0];

  test('--capacity -1: the negative number is the value (as --capacity=-1), refused in one line by the command', async () => {
    const result = await runCli(['quota', 'calc', '--model', 'gpt-4o', '--capacity', '-1']);
    assert.equal(result.code, 2);
    assert.equal(firstLine(result.stderr), 'policyset: capacity must be a positive whole number of units (1 unit = 1,000 TPM), not -1');
    assert.equal(result.stderr.trim().split('\n').length, 2, result.stderr);
  });

  test("a value that starts with '-' but is no number: one line that says how to pass it", async () => {
    const result = await runCli(['quota', 'calc', '--model', '-x', '--capacity', '1']);
    assert.equal(result.code, 2);
    assert.equal(
      firstLine(result.stderr),
      "policyset: option '--model' takes a value that starts with '-': write it as --model=<value> (like --model=-1)",
    );
  });

  test('a line break inside the token: one message, nothing sent', async () => {
    const result = await runCli(['fetch', 'some-set'], { env: { ...env, POLICYSET_ACCESS_TOKEN: 'TOKEN-first\r\nX-Injected: yes' } });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^policyset: The token holds a line break or another character an HTTP header cannot carry, so nothing was sent/,
    );
    assert.doesNotMatch(result.stderr, /unexpected failure|Invalid character/);
  });

  test('--timeout 0.0001 is refused (the help says from 0.1)', async () => {
    const result = await runCli(['fetch', 'some-set', '--timeout', '0.0001'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--timeout takes seconds from 0\.1 to 3600, not '0\.0001'/);
  });

  test('a hung --token-command is stopped at --timeout', async () => {
    const result = await runCli(
      ['fetch', 'some-set', '--timeout', '1', '--token-command', `"${process.execPath}" -e "setTimeout(() => {}, 600000)"`],
      { env, timeoutMs: 30000 },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /the --token-command did not finish within 1 s \(--timeout\) and was stopped/);
  });

  test('a 100 KB argument is not echoed whole', async () => {
    const huge = 'A'.repeat(100_000);
    const set = write('msg-set.json', JSON.stringify({ properties: { displayName: 'x', policyDefinitions: [] } }));
    for (const args of [
      ['deploy', set, '--name', 'x', '--version', '1.0.0', '--management-group', huge, '--yes'],
      ['quota', 'calc', '--model', 'gpt-4o', '--capacity', huge],
      ['lint', huge],
    ]) {
      const result = await runCli(args, { env });
      assert.equal(result.code, 2, args[0]);
      assert.ok(result.stderr.length < 1000, `${args[0]}: ${result.stderr.length} characters`);
      assert.match(result.stderr, /100,000 characters/);
    }
  });
});
