// Issue 32, replayed through the CLI as a user runs it (a separate process): hostile patterns in a
// stranger's repository, terminal escapes in names, diff paths that match nothing, outputs that are inputs.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { CLI, runCli, isCleanMessage } from '../support/run';

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
            p: {
              type: 'Object',
              metadata: { displayName: 'p', description: 'p' },
              schema: { type: 'object', properties: { name: { type: 'string', pattern } } },
              defaultValue: { name: 'ab' },
            },
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

describe('2: nothing from a file reaches a terminal raw: no forged "✔ 0 errors" line', { concurrency: 3 }, () => {
  const FORGED = '\n\u001b[32m✔ 0 errors\u001b[0m\u001b[2K\r\u009b1A';
  const noRaw = (text: string) => {
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(text.slice(0, 400)));
    // No line of the output is only the forged summary.
    assert.ok(!text.split('\n').some((line) => /^\s*✔ 0 errors\s*$/.test(line)), text);
  };

  test('lint: a file name and a parameter name holding line breaks and escape sequences are shown escaped', async () => {
    const folder = path.join(dir, 'forged-lint');
    const name = `set${FORGED.replace(/\//g, '')}.json`;
    write(
      `forged-lint/${name}`,
      JSON.stringify({ properties: { displayName: 'x', parameters: { [`p${FORGED}`]: { type: 'String' } }, policyDefinitions: [] } }),
    );
    const result = await runCli(['lint', '.', '--no-color'], { cwd: folder });
    assert.equal(result.code, 0, result.stderr);
    noRaw(result.stdout);
    noRaw(result.stderr);
    assert.match(result.stdout, /\\u001b\[32m✔ 0 errors/);
    assert.match(result.stdout, /✔ 0 errors, 1 warning in 1 policy document/);
  });

  test('lint -f json: C1 controls (a CSI) are \\u-escaped too, and the JSON stays valid', async () => {
    const folder = path.join(dir, 'forged-json');
    write(
      'forged-json/set.json',
      JSON.stringify({ properties: { displayName: 'x', parameters: { [`q${FORGED}`]: { type: 'String' } }, policyDefinitions: [] } }),
    );
    const result = await runCli(['lint', '.', '-f', 'json'], { cwd: folder });
    noRaw(result.stdout);
    const parsed = JSON.parse(result.stdout) as { files: Array<{ diagnostics: Array<{ message: string }> }> };
    assert.ok(parsed.files[0].diagnostics[0].message.includes('\u009b1A'));
  });

  test('quota plan: names inside the plan are shown escaped', async () => {
    const plan = write(
      'forged-plan.json',
      JSON.stringify({
        region: `eastus${FORGED}`,
        deployments: [{ account: `a${FORGED}`, name: `d${FORGED}`, model: 'gpt-4o', sku: { name: 'Standard', capacity: 1 } }],
      }),
    );
    const result = await runCli(['quota', 'plan', plan]);
    noRaw(result.stdout);
    noRaw(result.stderr);
    assert.match(result.stdout, /a\\u000a\\u001b\[32m✔ 0 errors/);
  });

  test('a config error quoting an unknown key: one line, escaped', async () => {
    const folder = path.join(dir, 'forged-config');
    write('forged-config/.policysetrc.json', JSON.stringify({ [`rulez${FORGED}`]: {} }));
    write('forged-config/set.json', SET);
    const result = await runCli(['lint', '.'], { cwd: folder });
    assert.equal(result.code, 2, result.stderr);
    noRaw(result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });

  test('diff: a parameter name holding a line break is shown escaped', async () => {
    const oldFile = write(
      'forged-diff/old.json',
      JSON.stringify({ properties: { displayName: 'x', parameters: {}, policyDefinitions: [] } }),
    );
    const newFile = write(
      'forged-diff/new.json',
      JSON.stringify({
        properties: { displayName: 'x', parameters: { [`r${FORGED}`]: { type: 'String', defaultValue: 'v' } }, policyDefinitions: [] },
      }),
    );
    const result = await runCli(['diff', oldFile, newFile, '--no-color']);
    noRaw(result.stdout);
    noRaw(result.stderr);
    assert.match(result.stdout, /r\\u000a\\u001b\[32m✔ 0 errors/);
  });
});

describe(
  '3, 8, 9 and 12: diff and --against: paths that name nothing, outputs that are inputs, git that hangs or refuses',
  { concurrency: 1 },
  () => {
    let repo: string;
    const git = (...args: string[]) =>
      execFileSync(
        'git',
        [
          '-c',
          'user.name=Test',
          '-c',
          'user.email=test@example.com',
          '-c',
          'init.defaultBranch=main',
          '-c',
          'commit.gpgsign=false',
          ...args,
        ],
        { cwd: repo, stdio: 'pipe' },
      ).toString();
    before(() => {
      repo = path.join(dir, 'git-repo');
      fs.mkdirSync(path.join(repo, 'sets'), { recursive: true });
      git('init', '-q');
      fs.writeFileSync(path.join(repo, 'sets/a.json'), SET);
      git('add', '-A');
      git('commit', '-q', '-m', 'a');
    });

    test('diff --against HEAD <a path that does not exist> or <a glob>: exit 2 with a clear message, even without --fail-on', async () => {
      for (const [missing, message] of [
        ['setz', /no such file or folder 'setz' \(now or at HEAD\)/],
        ['sets/*.json', /no such file or folder 'sets\/\*\.json' \(now or at HEAD\): --against takes files and folders, not glob patterns/],
      ] as const) {
        for (const extra of [[], ['--fail-on', 'major']]) {
          const result = await runCli(['diff', '--against', 'HEAD', missing, ...extra], { cwd: repo });
          assert.equal(result.code, 2, `${missing}: ${result.stdout} ${result.stderr}`);
          assert.match(result.stderr, message);
          assert.doesNotMatch(result.stdout, /0 sets compared/);
        }
      }
      // A path deleted since the revision is still compared (it is there at the revision).
      fs.renameSync(path.join(repo, 'sets/a.json'), path.join(dir, 'a-away.json'));
      try {
        const deleted = await runCli(['diff', '--against', 'HEAD', 'sets/a.json'], { cwd: repo });
        assert.equal(deleted.code, 0, deleted.stderr);
        assert.match(deleted.stdout, /set-removed|removed/);
      } finally {
        fs.renameSync(path.join(dir, 'a-away.json'), path.join(repo, 'sets/a.json'));
      }
    });

    test('diff old.json new.json -o hard.json (a hard link to new.json): exit 2, the input kept', async () => {
      const oldFile = write('hard/old.json', SET);
      const newFile = write('hard/new.json', SET.replace('Kept', 'Kept too'));
      const link = path.join(dir, 'hard', 'hard.json');
      fs.linkSync(newFile, link);
      const result = await runCli(['diff', oldFile, newFile, '-o', link]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /would replace an input|is one of the inputs/);
      assert.equal(fs.readFileSync(newFile, 'utf8'), SET.replace('Kept', 'Kept too'));
    });

    test(
      '-o /dev/stdout and /dev/stderr: the report on that stream wherever it goes, the links in /dev left as they are',
      { skip: process.platform !== 'linux' && "/dev/stdout as a link into /proc is Linux's" },
      async () => {
        const oldFile = write('fd/old.json', SET);
        const newFile = write('fd/new.json', SET.replace('Kept', 'Kept too'));
        const args = ['diff', oldFile, newFile, '--format', 'json'];
        const plain = await runCli(args);
        assert.match(plain.stdout, /"changes"/);
        const links = ['/dev/stdout', '/dev/stderr'].map((link) => [link, fs.lstatSync(link).isSymbolicLink()] as const);
        // A pipe: the report on the stream, the same bytes as without -o (as root the link was replaced by a file).
        const toStdout = await runCli([...args, '-o', '/dev/stdout']);
        assert.equal(toStdout.code, plain.code, toStdout.stderr);
        assert.equal(toStdout.stdout, plain.stdout);
        const toStderr = await runCli([...args, '-o', '/dev/fd/2']);
        assert.equal(toStderr.code, plain.code, toStderr.stderr);
        assert.equal(toStderr.stdout, '');
        assert.ok(toStderr.stderr.includes(plain.stdout), toStderr.stderr);
        for (const [link, wasLink] of links) assert.equal(fs.lstatSync(link).isSymbolicLink(), wasLink, `${link} kept as it was`);
        // Standard output redirected onto a file: the report lands in it.
        const out = path.join(dir, 'fd', 'out.json');
        const outFd = fs.openSync(out, 'w');
        const toFile = spawnSync(process.execPath, [CLI, ...args, '-o', '/dev/stdout'], { stdio: ['ignore', outFd, 'pipe'] });
        fs.closeSync(outFd);
        assert.equal(toFile.status, plain.code, String(toFile.stderr));
        assert.equal(fs.readFileSync(out, 'utf8'), plain.stdout);
        // Standard output redirected onto an input (>> new.json): refused, the input kept.
        const inputFd = fs.openSync(newFile, 'a');
        const ontoInput = spawnSync(process.execPath, [CLI, ...args, '-o', '/dev/stdout'], { stdio: ['ignore', inputFd, 'pipe'] });
        fs.closeSync(inputFd);
        assert.equal(ontoInput.status, 2, String(ontoInput.stderr));
        assert.match(String(ontoInput.stderr), /-o '?\/dev\/stdout'? (would replace an input|is one of the inputs)/);
        assert.equal(fs.readFileSync(newFile, 'utf8'), SET.replace('Kept', 'Kept too'));
        // Any other descriptor is refused (past 2 they are Node's own), nothing written or replaced.
        for (const other of ['/dev/stdin', '/dev/fd/3', '/proc/self/fd/7']) {
          const refused = await runCli([...args, '-o', other]);
          assert.equal(refused.code, 2, `${other}: ${refused.stderr}`);
          assert.match(refused.stderr, /only standard output and standard error take a report/);
          assert.equal(refused.stdout, '');
        }
      },
    );

    test('12: an --against folder, or a -d definitions file, given as the output: exit 2, nothing replaced', async () => {
      const folder = await runCli(['diff', '--against', 'HEAD', 'sets', '-o', 'sets'], { cwd: repo });
      assert.equal(folder.code, 2, folder.stderr);
      assert.ok(fs.statSync(path.join(repo, 'sets')).isDirectory());
      assert.equal(fs.readFileSync(path.join(repo, 'sets/a.json'), 'utf8'), SET);
      const definitions = write('defs/definitions.json', JSON.stringify([]));
      const set = write('defs/set.json', SET);
      const lint = await runCli(['lint', set, '-d', definitions, '-o', definitions]);
      assert.equal(lint.code, 2, lint.stderr);
      assert.match(lint.stderr, /is one of the inputs/);
      assert.equal(fs.readFileSync(definitions, 'utf8'), '[]');
    });

    test('12: an option-shaped revision reaches the guard (--against=-x), and is refused by it', async () => {
      const result = await runCli(['diff', '--against=-x', 'sets'], { cwd: repo });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /'-x' is not a git revision/);
    });

    test('9: a repository config that is a FIFO: git is stopped at the time limit, one clear line, exit 2', async () => {
      const blocked = path.join(dir, 'fifo-repo');
      fs.mkdirSync(blocked);
      execFileSync('git', ['init', '-q'], { cwd: blocked });
      fs.rmSync(path.join(blocked, '.git', 'config'));
      execFileSync('mkfifo', [path.join(blocked, '.git', 'config')]);
      const result = await runCli(['diff', '--against', 'HEAD'], {
        cwd: blocked,
        timeoutMs: 60000,
        env: { ...process.env, POLICYSET_GIT_TIMEOUT_MS: '1500' },
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /git did not finish within 1\.5 s and was stopped/);
      assert.ok(isCleanMessage(result.stderr));
    });

    test('9: a blob larger than the output bound: a clear message, not "spawnSync git ENOBUFS"', async () => {
      const big = path.join(dir, 'big-repo');
      fs.mkdirSync(big);
      execFileSync('git', ['init', '-q'], { cwd: big });
      fs.writeFileSync(path.join(big, 'big.json'), `{"x":"${'a'.repeat(33 * 1024 * 1024)}"}`);
      execFileSync('git', ['add', 'big.json'], { cwd: big, stdio: 'ignore' });
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'big'], {
        cwd: big,
        stdio: 'ignore',
      });
      // Small on disk now: only the committed blob is large, so it is git's output that passes the bound.
      fs.writeFileSync(path.join(big, 'big.json'), SET);
      const result = await runCli(['diff', '--against', 'HEAD', 'big.json'], { cwd: big, timeoutMs: 60000 });
      assert.equal(result.code, 2, result.stderr);
      assert.doesNotMatch(result.stderr, /ENOBUFS|unexpected failure/);
      assert.match(result.stderr, /big\.json at HEAD: git's output is larger than 32 MB: not read/);
    });

    test("9: a repository owned by another user: git's own reason (dubious ownership, safe.directory), not 'not a git repository'", async () => {
      const foreign = path.join(dir, 'foreign-repo');
      fs.mkdirSync(foreign);
      execFileSync('git', ['init', '-q'], { cwd: foreign });
      let env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' };
      if (process.getuid?.() === 0) {
        // Root can give the repository to another user: the real git refuses it.
        execFileSync('chown', ['-R', '65534:65534', foreign]);
      } else {
        // Otherwise a git that answers as the real one does for another user's repository.
        const bin = path.join(dir, 'fake-git-bin');
        fs.mkdirSync(bin, { recursive: true });
        fs.writeFileSync(
          path.join(bin, 'git'),
          `#!/bin/sh\necho "fatal: detected dubious ownership in repository at '${foreign}'" >&2\necho "To add an exception for this directory, call:" >&2\necho "\tgit config --global --add safe.directory ${foreign}" >&2\nexit 128\n`,
          { mode: 0o755 },
        );
        env = { ...env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
      }
      const result = await runCli(['diff', '--against', 'HEAD'], { cwd: foreign, env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /dubious ownership/);
      assert.match(result.stderr, /safe\.directory/);
      assert.doesNotMatch(result.stderr, /not in a git repository/);
    });
  },
);

describe('12: --max-warnings -1 over the config, and the config size cap', { concurrency: 2 }, () => {
  test("--max-warnings -1 lifts a config's maxWarnings: exit 0; without it, the config's 0 fails the run", async () => {
    const folder = path.join(dir, 'max-warnings');
    write('max-warnings/.policysetrc.json', JSON.stringify({ maxWarnings: 0 }));
    // One warning: an unused parameter.
    write(
      'max-warnings/set.json',
      JSON.stringify({ properties: { displayName: 'x', parameters: { unused: { type: 'String' } }, policyDefinitions: [] } }),
    );
    const limited = await runCli(['lint', '.'], { cwd: folder });
    assert.equal(limited.code, 1, limited.stderr);
    assert.match(limited.stderr, /too many warnings: 1, and at most 0 are allowed/);
    const lifted = await runCli(['lint', '.', '--max-warnings=-1'], { cwd: folder });
    assert.equal(lifted.code, 0, lifted.stderr);
    assert.doesNotMatch(lifted.stderr, /too many warnings/);
    const tighter = await runCli(['lint', '.', '--max-warnings', '1'], { cwd: folder });
    assert.equal(tighter.code, 0, tighter.stderr);
  });

  test('a config file over 1 MiB: exit 2, the file named, nothing of it quoted', async () => {
    const folder = path.join(dir, 'big-config');
    const config = write('big-config/.policysetrc.json', `{"ignore": ["secret-${'x'.repeat(1024 * 1024)}"]}`);
    write('big-config/set.json', SET);
    const result = await runCli(['lint', '.'], { cwd: folder });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.includes(config));
    assert.match(result.stderr, /too large to read \(1 MiB; configuration files are read up to 1 MiB\)/);
    assert.doesNotMatch(result.stderr, /secret-/);
  });
});
