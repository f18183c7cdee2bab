// The git calls behind `--against <revision>` (server/src/cli/versions/git.ts), in-process, on real
// repositories made here: what each function returns, and each way a git call can fail said in one clear line
// (git missing or not runnable, stopped at the time limit, an output over the bound, a revision that is no
// commit, a folder that is no repository, a repository git refuses). No option is taken from a revision or a
// file name. Expected texts are written out by hand from docs/cli.md (diff --against) and the module's
// documented wording; where only a git that answers otherwise than this one can show a case (its messages, a
// copy in `git diff`'s list, a broken `cat-file` answer), a small script named git comes first on the PATH and
// answers that one command, leaving the others to the real git. The time limit is read when the module is
// loaded: those cases load a fresh copy of it, with POLICYSET_GIT_TIMEOUT_MS set for the load.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { filesAtRevision, renamesSince, showAtRevision, textsAtRevision, verifyRevision } from '#server/cli/versions/git';
import { InputError, UsageError } from '#server/node/files';

const POSIX = process.platform !== 'win32';
const MB = 1024 * 1024;
/** LARGE_DOCUMENT (server/src/service/json): the largest file compared, 8 MB. */
const LARGE = 8 * MB;
const GIT_MODULE = require.resolve('#server/cli/versions/git');
const SAVED_ENV = { ...process.env };

let dir: string;
/** sets/a.json, sets/B.JSON, sets/c.jsonc, sets/notes.txt, sets/a.json.bak, ..dots.json, sub/x.json, a name with a newline, '--output=o.json', '--/dashes.json'. */
let repo: string;
/** Four files of exactly 8 MB (e1..e4.json), one a byte over (over.json), one 64 bytes short (d.json): made by the first test that reads it. */
let bigMade: string | undefined;
let realGit: string;
let fakeBin: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
}

function write(root: string, name: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  fs.writeFileSync(path.join(root, name), text);
}

function newRepo(name: string): string {
  const root = path.join(dir, name);
  fs.mkdirSync(root);
  git(root, 'init', '-q');
  return root;
}

function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

/** Throws `kind` with exactly `message`. */
function throwsExactly(run: () => unknown, kind: typeof UsageError | typeof InputError, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof kind, `${String(error)} is not a ${kind.name}`);
    assert.equal((error as Error).message, message);
    return true;
  });
}

/** Runs `body` with a git first on the PATH that answers `command` as given, and leaves the rest to the real git. */
function withFakeGit<T>(
  answer: { command: string; status: number; stderr?: string; stdout?: string | Buffer; bytes?: number },
  body: () => T,
): T {
  const stdoutFile = path.join(dir, 'fake-stdout');
  fs.writeFileSync(stdoutFile, answer.stdout ?? '');
  Object.assign(process.env, {
    PATH: `${fakeBin}${path.delimiter}${SAVED_ENV.PATH}`,
    FAKE_GIT_COMMAND: answer.command,
    FAKE_GIT_STATUS: String(answer.status),
    FAKE_GIT_STDERR: answer.stderr ?? '',
    FAKE_GIT_STDOUT: stdoutFile,
    FAKE_GIT_BYTES: answer.bytes === undefined ? '' : String(answer.bytes),
  });
  try {
    return body();
  } finally {
    process.env.PATH = SAVED_ENV.PATH;
    for (const name of ['FAKE_GIT_COMMAND', 'FAKE_GIT_STATUS', 'FAKE_GIT_STDERR', 'FAKE_GIT_STDOUT', 'FAKE_GIT_BYTES'])
      delete process.env[name];
  }
}

/** The git commands `body` ran (their first word), and what it returned. */
function gitCallsOf<T>(body: () => T): { calls: string[]; value: T } {
  const log = path.join(dir, 'fake-log');
  fs.writeFileSync(log, '');
  Object.assign(process.env, { PATH: `${fakeBin}${path.delimiter}${SAVED_ENV.PATH}`, FAKE_GIT_LOG: log });
  try {
    const value = body();
    return { calls: fs.readFileSync(log, 'utf8').split('\n').filter(Boolean), value };
  } finally {
    process.env.PATH = SAVED_ENV.PATH;
    delete process.env.FAKE_GIT_LOG;
  }
}

/** Runs `body` with PATH set to `value` only. */
function withPath<T>(value: string, body: () => T): T {
  process.env.PATH = value;
  try {
    return body();
  } finally {
    process.env.PATH = SAVED_ENV.PATH;
  }
}

/** A copy of the module loaded with POLICYSET_GIT_TIMEOUT_MS set to `value` (unset when undefined). */
function loadedWith(value: string | undefined): typeof import('#server/cli/versions/git') {
  if (value === undefined) delete process.env.POLICYSET_GIT_TIMEOUT_MS;
  else process.env.POLICYSET_GIT_TIMEOUT_MS = value;
  delete require.cache[GIT_MODULE];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh load, the time limit read again
    return require(GIT_MODULE) as typeof import('#server/cli/versions/git');
  } finally {
    delete require.cache[GIT_MODULE];
    delete process.env.POLICYSET_GIT_TIMEOUT_MS;
  }
}

/** The repository of large files, made once. */
function big(): string {
  if (bigMade) return bigMade;
  const root = newRepo('big');
  for (const n of [1, 2, 3, 4]) write(root, `e${n}.json`, Buffer.alloc(LARGE, 48 + n));
  write(root, 'over.json', Buffer.alloc(LARGE + 1, 'o'));
  // 64 bytes short of 8 MB: with the 64 bytes allowed for its answer's header, it and an 8 MB file make half
  // the output bound exactly, one byte too many for one call.
  write(root, 'd.json', Buffer.alloc(LARGE - 64, 'd'));
  commitAll(root, 'big');
  return (bigMade = root);
}

before(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-cligit-')));
  // This machine's own git configuration out of the way (safe.directory, aliases, hooks), and the folder
  // above the temporary one never taken for a repository.
  Object.assign(process.env, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CEILING_DIRECTORIES: dir });
  Object.assign(SAVED_ENV, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CEILING_DIRECTORIES: dir });
  realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fakeBin = path.join(dir, 'fake-bin');
  fs.mkdirSync(fakeBin);
  fs.writeFileSync(
    path.join(fakeBin, 'git'),
    `#!/bin/sh
if [ -n "$FAKE_GIT_LOG" ]; then echo "$1" >> "$FAKE_GIT_LOG"; fi
if [ "$1" = "$FAKE_GIT_COMMAND" ]; then
  if [ -n "$FAKE_GIT_BYTES" ]; then head -c "$FAKE_GIT_BYTES" /dev/zero; fi
  cat "$FAKE_GIT_STDOUT"
  printf '%s' "$FAKE_GIT_STDERR" >&2
  exit "$FAKE_GIT_STATUS"
fi
exec ${JSON.stringify(realGit)} "$@"
`,
    { mode: 0o755 },
  );

  repo = newRepo('repo');
  write(repo, 'sets/a.json', '{"a":0}\n');
  commitAll(repo, 'first');
  write(repo, 'sets/a.json', '{"a":1}\n');
  write(repo, 'sets/B.JSON', '{"b":2}');
  write(repo, 'sets/c.jsonc', '// c\n{"c":3}');
  write(repo, 'sets/notes.txt', 'not json');
  write(repo, 'sets/a.json.bak', '{}');
  write(repo, '..dots.json', '{"dots":true}');
  write(repo, 'sub/x.json', '{"x":"é"}');
  write(repo, 'new\nline.json', '{"newline":1}');
  write(repo, '--output=o.json', '{"option":"no"}');
  // A folder named '--': listed only when the paths asked for hold it.
  write(repo, '--/dashes.json', '{"dashes":2}');
  commitAll(repo, 'second');
  git(repo, 'branch', 'release-');
});

after(() => {
  for (const name of Object.keys(process.env)) if (!(name in SAVED_ENV)) delete process.env[name];
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('verifyRevision', () => {
  test('a commit here passes: HEAD, HEAD~1, a full object name, a branch whose name ends with a dash', () => {
    assert.equal(verifyRevision('HEAD', repo), undefined);
    assert.equal(verifyRevision('HEAD~1', repo), undefined);
    assert.equal(verifyRevision(git(repo, 'rev-parse', 'HEAD').trim(), repo), undefined);
    assert.equal(verifyRevision('release-', repo), undefined);
  });

  test('an empty or option-shaped revision is a usage error before git runs, and nothing is written', () => {
    throwsExactly(() => verifyRevision('', repo), UsageError, "'' is not a git revision");
    throwsExactly(() => verifyRevision('-p', repo), UsageError, "'-p' is not a git revision");
    throwsExactly(() => verifyRevision('--output=written', repo), UsageError, "'--output=written' is not a git revision");
    // Even where no git would run: the check is the revision's, not the repository's.
    throwsExactly(() => withPath(path.join(dir, 'nowhere'), () => verifyRevision('-x', repo)), UsageError, "'-x' is not a git revision");
    assert.equal(fs.existsSync(path.join(repo, 'written')), false);
  });

  test('a revision that names nothing, a tree or a blob: no such commit (a usage error)', () => {
    throwsExactly(() => verifyRevision('nosuch', repo), UsageError, '--against nosuch: no such commit in this repository');
    const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
    throwsExactly(() => verifyRevision(tree, repo), UsageError, `--against ${tree}: no such commit in this repository`);
    throwsExactly(
      () => verifyRevision('HEAD:sets/a.json', repo),
      UsageError,
      '--against HEAD:sets/a.json: no such commit in this repository',
    );
  });

  test('a folder outside any repository: a usage error that names it', () => {
    const plain = path.join(dir, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    throwsExactly(() => verifyRevision('HEAD', plain), UsageError, `--against HEAD: ${plain} is not in a git repository`);
  });

  test('a repository git refuses says git’s reason and the safe.directory hint (an input error, not a usage error)', () => {
    const stderr = `warning: something first\nfatal: detected dubious ownership in repository at '${repo}'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory ${repo}\n`;
    throwsExactly(
      () => withFakeGit({ command: 'rev-parse', status: 128, stderr }, () => verifyRevision('HEAD', repo)),
      InputError,
      `--against HEAD: git cannot read the repository at ${repo}: fatal: detected dubious ownership in repository at '${repo}' (the repository belongs to another user: git refuses it until it is added to safe.directory, see git config --global --add safe.directory)`,
    );
  });

  test('the real git and another user’s repository (as root: the repository given to nobody)', (t) => {
    if (!POSIX || process.getuid?.() !== 0) {
      t.skip('not root: no repository can be given to another user (the case above answers as that git does)');
      return;
    }
    const foreign = newRepo('foreign');
    execFileSync('chown', ['-R', '65534:65534', foreign]);
    assert.throws(
      () => verifyRevision('HEAD', foreign),
      (error: unknown) =>
        error instanceof InputError &&
        error.message.startsWith(
          `--against HEAD: git cannot read the repository at ${foreign}: fatal: detected dubious ownership in repository at '${foreign}'`,
        ) &&
        error.message.endsWith(
          ' (the repository belongs to another user: git refuses it until it is added to safe.directory, see git config --global --add safe.directory)',
        ),
    );
  });

  test('a git that fails without a word, or says the folder is no repository: not in a git repository', () => {
    for (const stderr of [
      '',
      '  \n',
      'fatal: not a git repository (or any of the parent directories): .git\n',
      'FATAL: Not A Git Repository\n',
    ])
      throwsExactly(
        () => withFakeGit({ command: 'rev-parse', status: 128, stderr }, () => verifyRevision('HEAD', repo)),
        UsageError,
        `--against HEAD: ${repo} is not in a git repository`,
      );
  });

  test('another failure of git is said in git’s words: its fatal or error line, trimmed, at most 300 characters', () => {
    const said = (stderr: string) =>
      withFakeGit({ command: 'rev-parse', status: 128, stderr }, () => {
        try {
          verifyRevision('HEAD', repo);
        } catch (error) {
          assert.ok(error instanceof InputError, String(error));
          const prefix = `--against HEAD: git cannot read the repository at ${repo}: `;
          assert.ok(error.message.startsWith(prefix), error.message);
          return error.message.slice(prefix.length);
        }
        assert.fail('no error');
      });
    assert.equal(said('hint: one\nhint: two\n'), 'hint: one');
    assert.equal(said('\n   \nhint: after blank lines\n'), 'hint: after blank lines');
    assert.equal(said('   fatal: spaced out   \n'), 'fatal: spaced out');
    assert.equal(said('note: this is not fatal: nor an error: at all\nerror: the real one\nfatal: later\n'), 'error: the real one');
    assert.equal(said('warning: w\nfatal: the fatal one\n'), 'fatal: the fatal one');
    const exactly300 = `fatal: ${'x'.repeat(293)}`;
    assert.equal(said(`${exactly300}\n`), exactly300);
    assert.equal(said(`${exactly300}y\n`), `${exactly300}…`);
    // The hint follows the words dubious ownership wherever git says them.
    assert.equal(
      said('fatal: unsafe repository\nhint: dubious ownership\n'),
      'fatal: unsafe repository (the repository belongs to another user: git refuses it until it is added to safe.directory, see git config --global --add safe.directory)',
    );
  });
});

describe('every git call: git missing, not runnable, or stopped at the time limit', () => {
  test('no git on the PATH: one line that says so (exit 2, not "spawnSync git ENOENT")', () => {
    const empty = path.join(dir, 'empty-bin');
    fs.mkdirSync(empty, { recursive: true });
    throwsExactly(
      () => withPath(empty, () => verifyRevision('HEAD', repo)),
      InputError,
      '--against <revision> needs git, and git was not found on the PATH',
    );
    throwsExactly(
      () => withPath(empty, () => filesAtRevision('HEAD', ['.'], repo)),
      InputError,
      '--against <revision> needs git, and git was not found on the PATH',
    );
  });

  test('a git on the PATH that cannot be run: what stopped it', () => {
    const broken = path.join(dir, 'broken-bin');
    fs.mkdirSync(broken, { recursive: true });
    fs.writeFileSync(path.join(broken, 'git'), 'not a program', { mode: 0o644 });
    throwsExactly(
      () => withPath(broken, () => verifyRevision('HEAD', repo)),
      InputError,
      '--against HEAD: cannot run git: spawnSync git EACCES',
    );
    throwsExactly(
      () => withPath(broken, () => showAtRevision('HEAD', 'sets/a.json', repo)),
      InputError,
      'sets/a.json at HEAD: cannot run git: spawnSync git EACCES',
    );
  });

  test('POLICYSET_GIT_TIMEOUT_MS: a positive number of milliseconds, else 30 s (docs/cli.md)', () => {
    assert.equal(loadedWith(undefined).GIT_TIMEOUT_MS, 30_000);
    assert.equal(loadedWith('1500').GIT_TIMEOUT_MS, 1500);
    assert.equal(loadedWith('1').GIT_TIMEOUT_MS, 1);
    for (const value of ['0', '-5', 'soon', ''])
      assert.equal(loadedWith(value).GIT_TIMEOUT_MS, 30_000, `POLICYSET_GIT_TIMEOUT_MS=${value}`);
  });

  test('a repository whose config is a FIFO: git is stopped at the time limit, one clear line', { skip: !POSIX && 'needs mkfifo' }, () => {
    const blocked = newRepo('fifo-repo');
    fs.rmSync(path.join(blocked, '.git', 'config'));
    execFileSync('mkfifo', [path.join(blocked, '.git', 'config')]);
    const started = Date.now();
    throwsExactly(
      () => loadedWith('1000').verifyRevision('HEAD', blocked),
      InputError,
      '--against HEAD: git did not finish within 1 s and was stopped (a repository file that blocks, such as a FIFO in .git?)',
    );
    // Stopped, not waited for: far less than the 30 s default (and git would have waited for ever).
    assert.ok(Date.now() - started < 25_000, `${Date.now() - started} ms`);
  });

  test("an output over 32 MB is not read: one line, not 'spawnSync git ENOBUFS'", () => {
    throwsExactly(
      () => withFakeGit({ command: 'show', status: 0, bytes: 32 * MB + 1 }, () => showAtRevision('HEAD', 'sets/a.json', repo)),
      InputError,
      "sets/a.json at HEAD: git's output is larger than 32 MB: not read",
    );
  });
});

describe('showAtRevision', () => {
  test('the text of a file at a revision, the path relative to the folder given, or absolute', () => {
    assert.equal(showAtRevision('HEAD', 'sets/a.json', repo), '{"a":1}\n');
    assert.equal(showAtRevision('HEAD~1', 'sets/a.json', repo), '{"a":0}\n');
    assert.equal(showAtRevision('HEAD', 'a.json', path.join(repo, 'sets')), '{"a":1}\n');
    assert.equal(showAtRevision('HEAD', path.join(repo, 'sub', 'x.json'), repo), '{"x":"é"}');
    assert.equal(showAtRevision('HEAD', './sets/../sub/x.json', repo), '{"x":"é"}');
  });

  test('a file whose name starts with two dots is inside the folder; a name shaped like an option is a name', () => {
    assert.equal(showAtRevision('HEAD', '..dots.json', repo), '{"dots":true}');
    assert.equal(showAtRevision('HEAD', '--output=o.json', repo), '{"option":"no"}');
    assert.equal(fs.existsSync(path.join(repo, 'o.json')), false);
  });

  test('a file not there at the revision: undefined (new since, or named nowhere)', () => {
    write(repo, 'sets/new.json', '{}');
    try {
      assert.equal(showAtRevision('HEAD', 'sets/new.json', repo), undefined);
      assert.equal(showAtRevision('HEAD~1', 'sets/B.JSON', repo), undefined);
      assert.equal(showAtRevision('HEAD', 'sets/gone.json', repo), undefined);
    } finally {
      fs.rmSync(path.join(repo, 'sets/new.json'));
    }
    // The wording of other git versions for a path that is not there.
    for (const stderr of [
      "fatal: path 'sets/a.json' does not exist (neither on disk nor in the index)\n",
      "fatal: Path 'sets/a.json' Does Not Exist In 'HEAD'\n",
    ])
      assert.equal(
        withFakeGit({ command: 'show', status: 128, stderr }, () => showAtRevision('HEAD', 'sets/a.json', repo)),
        undefined,
      );
  });

  test('a file outside the folder: a usage error', () => {
    throwsExactly(
      () => showAtRevision('HEAD', '../elsewhere.json', repo),
      UsageError,
      '../elsewhere.json is outside the current folder: run policyset from the repository that holds it',
    );
    // The folder above itself too: from the repository's root it is no path of the repository (git would show
    // the commit), from a subfolder its files would be listed where their texts are refused.
    throwsExactly(
      () => showAtRevision('HEAD', '..', repo),
      UsageError,
      '.. is outside the current folder: run policyset from the repository that holds it',
    );
    throwsExactly(
      () => filesAtRevision('HEAD', ['..'], path.join(repo, 'sets')),
      UsageError,
      '.. is outside the current folder: run policyset from the repository that holds it',
    );
    throwsExactly(
      () => textsAtRevision('HEAD', ['a/../..'], path.join(repo, 'sets')),
      UsageError,
      'a/../.. is outside the current folder: run policyset from the repository that holds it',
    );
    throwsExactly(
      () => showAtRevision('HEAD', path.join(dir, 'elsewhere.json'), repo),
      UsageError,
      `${path.join(dir, 'elsewhere.json')} is outside the current folder: run policyset from the repository that holds it`,
    );
  });

  test('a revision git does not know, or another failure: git show <revision>:<path> failed, in git’s words', () => {
    throwsExactly(
      () => showAtRevision('nosuch', 'sets/a.json', repo),
      InputError,
      "git show nosuch:sets/a.json failed: fatal: invalid object name 'nosuch'.",
    );
    throwsExactly(
      () => withFakeGit({ command: 'show', status: 1, stderr: '\n  \n' }, () => showAtRevision('HEAD', 'sets/a.json', repo)),
      InputError,
      'git show HEAD:sets/a.json failed: no message',
    );
  });

  test('a revision shaped like an option is no option: nothing written, no text', () => {
    // `git show --output=out:./sets/a.json` would write git's output into out:./sets/a.json.
    fs.mkdirSync(path.join(repo, 'out:.', 'sets'), { recursive: true });
    try {
      for (const revision of ['--output=out', '-p'])
        assert.throws(
          () => showAtRevision(revision, 'sets/a.json', repo),
          (error: unknown) => error instanceof InputError && error.message.startsWith(`git show ${revision}:sets/a.json failed: fatal: `),
        );
      assert.deepEqual(fs.readdirSync(path.join(repo, 'out:.', 'sets')), []);
    } finally {
      fs.rmSync(path.join(repo, 'out:.'), { recursive: true });
    }
  });

  test('up to 8 MB is read; a byte more is not compared', () => {
    assert.ok(showAtRevision('HEAD', 'e1.json', big()) === '1'.repeat(LARGE), 'e1.json at HEAD: its 8 MB');
    throwsExactly(() => showAtRevision('HEAD', 'over.json', big()), InputError, 'over.json at HEAD is larger than 8 MB: not compared');
  });
});

describe('textsAtRevision and filesAtRevision', () => {
  const SETS = ['sets/B.JSON', 'sets/a.json', 'sets/c.jsonc'];

  test('the .json and .jsonc files under the paths (any case), with their texts', () => {
    const { names, texts } = textsAtRevision('HEAD', ['sets'], repo);
    assert.deepEqual(names, SETS);
    assert.deepEqual(
      [...texts],
      [
        ['sets/B.JSON', '{"b":2}'],
        ['sets/a.json', '{"a":1}\n'],
        ['sets/c.jsonc', '// c\n{"c":3}'],
      ],
    );
    assert.deepEqual(filesAtRevision('HEAD', ['sets'], repo), SETS);
  });

  test('the whole folder: names that start with dashes or dots, or hold a newline, and an earlier revision', () => {
    const every = ['--/dashes.json', '--output=o.json', '..dots.json', 'new\nline.json', ...SETS, 'sub/x.json'];
    for (const paths of [['.'], [repo], []]) {
      const { names, texts } = textsAtRevision('HEAD', paths, repo);
      assert.deepEqual(names, every, `paths ${JSON.stringify(paths)}`);
      assert.equal(texts.get('new\nline.json'), '{"newline":1}');
      assert.equal(texts.get('--output=o.json'), '{"option":"no"}');
      assert.equal(texts.get('sub/x.json'), '{"x":"é"}');
      assert.equal(texts.size, every.length);
      assert.deepEqual(filesAtRevision('HEAD', paths, repo), every, `paths ${JSON.stringify(paths)}`);
    }
    assert.deepEqual(filesAtRevision('HEAD', ['--', 'sub'], repo), ['--/dashes.json', 'sub/x.json']);
    assert.deepEqual(textsAtRevision('HEAD~1', ['.'], repo), { names: ['sets/a.json'], texts: new Map([['sets/a.json', '{"a":0}\n']]) });
    assert.deepEqual(filesAtRevision('HEAD~1', ['.'], repo), ['sets/a.json']);
    assert.equal(fs.existsSync(path.join(repo, 'o.json')), false);
  });

  test('from a subfolder: names relative to it; a path named nowhere: none', () => {
    const sets = path.join(repo, 'sets');
    assert.deepEqual(textsAtRevision('HEAD', ['.'], sets).names, ['B.JSON', 'a.json', 'c.jsonc']);
    assert.deepEqual(filesAtRevision('HEAD', ['a.json'], sets), ['a.json']);
    assert.deepEqual(textsAtRevision('HEAD', ['nowhere'], repo), { names: [], texts: new Map() });
    assert.deepEqual(filesAtRevision('HEAD', ['nowhere'], repo), []);
  });

  test('a revision git does not know, or shaped like an option: git ls-tree failed, nothing written', () => {
    for (const revision of ['nosuch', '--output=written']) {
      throwsExactly(
        () => textsAtRevision(revision, ['.'], repo),
        InputError,
        `git ls-tree ${revision} failed: fatal: Not a valid object name ${revision}`,
      );
      throwsExactly(
        () => filesAtRevision(revision, ['.'], repo),
        InputError,
        `git ls-tree ${revision} failed: fatal: Not a valid object name ${revision}`,
      );
    }
    assert.equal(fs.existsSync(path.join(repo, 'written')), false);
    throwsExactly(
      () => filesAtRevision('HEAD', ['../x'], repo),
      UsageError,
      '../x is outside the current folder: run policyset from the repository that holds it',
    );
  });

  test('8 MB files have their texts, a larger one only its name; 40 MB of them read in more than one git call', () => {
    const { names, texts } = textsAtRevision('HEAD', ['.'], big());
    assert.deepEqual(names, ['d.json', 'e1.json', 'e2.json', 'e3.json', 'e4.json', 'over.json']);
    assert.deepEqual([...texts.keys()], ['d.json', 'e1.json', 'e2.json', 'e3.json', 'e4.json']);
    assert.ok(texts.get('d.json') === 'd'.repeat(LARGE - 64), 'd.json: its 8 MB less 64 bytes');
    for (const n of [1, 2, 3, 4]) assert.ok(texts.get(`e${n}.json`) === String(n).repeat(LARGE), `e${n}.json: its 8 MB`);
  });

  test('one git cat-file for each half of the output bound (32 MB) of texts, counting 64 bytes for each answer’s header', () => {
    // Three small files: one call.
    const small = gitCallsOf(() => textsAtRevision('HEAD', ['sets'], repo));
    assert.deepEqual(small.calls, ['ls-tree', 'cat-file']);
    assert.equal(small.value.texts.size, 3);
    // No two of the large ones fit in 16 MB with their headers (d.json and e1.json make 16 MB exactly): one call each.
    const root = big();
    const large = gitCallsOf(() => textsAtRevision('HEAD', ['.'], root));
    assert.deepEqual(large.calls, ['ls-tree', 'cat-file', 'cat-file', 'cat-file', 'cat-file', 'cat-file']);
    assert.equal(large.value.texts.size, 5);
  });

  test('a git cat-file that fails, or answers with no blob: one clear line that names the file', () => {
    throwsExactly(
      () =>
        withFakeGit({ command: 'cat-file', status: 128, stderr: 'fatal: broken\n' }, () => textsAtRevision('HEAD', ['sets/a.json'], repo)),
      InputError,
      'git cat-file at HEAD failed: fatal: broken',
    );
    const oid = git(repo, 'rev-parse', 'HEAD:sets/a.json').trim();
    // No line end after the header: not read as a header short of its last character (`blob 1`).
    for (const stdout of [`${oid} missing\n`, `${oid} blob 12`, ''])
      throwsExactly(
        () => withFakeGit({ command: 'cat-file', status: 0, stdout }, () => textsAtRevision('HEAD', ['sets/a.json'], repo)),
        InputError,
        'git cat-file at HEAD: an answer that is not a blob (sets/a.json)',
      );
  });

  test('git ls-tree’s entries read as git writes them: other kinds of entry and other names left out', () => {
    const oid = git(repo, 'rev-parse', 'HEAD:sets/a.json').trim();
    const listing = [
      `100644 blob ${oid}       8\tone.json`,
      `160000 commit ${oid}       -\tmodule.json`,
      `100644 blob ${oid}       8\tone.json.txt`,
      `100644 blob ${oid} 12345678\ttwo.JSONC`,
      `x100644 blob ${oid}       8\tthree.json`,
      `100644 blob ${oid.toUpperCase()}       8\tfour.json`,
      '',
    ].join('\0');
    const { names } = withFakeGit({ command: 'ls-tree', status: 0, stdout: listing }, () => textsAtRevision('HEAD', ['.'], repo));
    assert.deepEqual(names, ['one.json', 'two.JSONC']);
  });
});

describe('renamesSince', () => {
  let moves: string;
  before(() => {
    moves = newRepo('moves');
    write(moves, 'a/one.json', '{"one":1,"padding":"0123456789"}');
    write(moves, 'a/two.json', '{"two":2,"padding":"0123456789"}');
    write(moves, 'a/three.json', '{"three":3,"padding":"0123456789"}');
    write(moves, 'a/four.json', '{"four":4,"padding":"0123456789"}');
    write(moves, 'a/five.json', '{"five":5,"padding":"0123456789"}');
    commitAll(moves, 'first');
    // Modified, moved in the index, deleted, added, moved within a/, and moved on disk only (git sees a deletion).
    write(moves, 'a/one.json', '{"one":"changed","padding":"0123456789"}');
    fs.mkdirSync(path.join(moves, 'b'));
    git(moves, 'mv', 'a/two.json', 'b/two.json');
    fs.rmSync(path.join(moves, 'a/three.json'));
    write(moves, 'a/added.json', '{"added":true}');
    git(moves, 'add', 'a/added.json');
    git(moves, 'mv', 'a/four.json', 'a/renamed.json');
    fs.renameSync(path.join(moves, 'a/five.json'), path.join(moves, 'b/five.json'));
  });

  test('new path -> old path for what git sees renamed; an untracked move is not among them', () => {
    assert.deepEqual(
      renamesSince('HEAD', ['.'], moves),
      new Map([
        ['a/renamed.json', 'a/four.json'],
        ['b/two.json', 'a/two.json'],
      ]),
    );
    assert.deepEqual(renamesSince('HEAD', [], moves), renamesSince('HEAD', [moves], moves));
    assert.deepEqual(renamesSince('HEAD', ['a', 'b'], moves).size, 2);
  });

  test('from a subfolder: paths relative to it', () => {
    assert.deepEqual(renamesSince('HEAD', ['.'], path.join(moves, 'a')), new Map([['renamed.json', 'four.json']]));
  });

  test('a copy in git’s list (three fields) is skipped, and what follows it still read', () => {
    const listing = [
      'M',
      'm.json',
      'C075',
      'copied-from.json',
      'copy.json',
      'R100',
      'old.json',
      'new.json',
      'D',
      'd.json',
      'R090',
      'x.json',
      'y.json',
      '',
    ].join('\0');
    assert.deepEqual(
      withFakeGit({ command: 'diff', status: 0, stdout: listing }, () => renamesSince('HEAD', ['.'], moves)),
      new Map([
        ['new.json', 'old.json'],
        ['y.json', 'x.json'],
      ]),
    );
  });

  test('a revision git does not know, or shaped like an option: git diff failed, nothing written', () => {
    for (const revision of ['nosuch', '--output=written'])
      throwsExactly(
        () => renamesSince(revision, ['.'], moves),
        InputError,
        `git diff ${revision} failed: fatal: bad revision '${revision}'`,
      );
    assert.equal(fs.existsSync(path.join(moves, 'written')), false);
  });
});
