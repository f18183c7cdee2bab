import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { CLI } from '../support/run';
import { REPO_ROOT } from '../support/corpus';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { cleanSet } from '../support/sets';

/**
 * Closed pipes (server/src/node/pipes.ts): when the reader of standard output goes away early, every command
 * stops writing and exits with the status it would have had, with nothing on standard error.
 */

let dir: string;
let service: LocalService;
const TOKEN = 'pipe-test-token';

/**
 * Runs the CLI with a shell pipe into `reader` (as a user would: `policyset ... | head -1`), and answers the
 * CLI's own exit status (PIPESTATUS[0]) and its standard error alone.
 */
function piped(args: string[], reader: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string; read: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // The CLI's stderr goes to a file of its own, so what the reader prints is not mistaken for it.
  const errFile = path.join(dir, `stderr-${Math.random().toString(36).slice(2)}.txt`);
  const script = `${quoted} 2>'${errFile}' | ${reader}; echo "status=\${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let status = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (status += c.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const match = /status=(\d+)/.exec(status);
      if (!match) return reject(new Error(`no status: ${status}`));
      resolve({ code: Number(match[1]), stderr: fs.readFileSync(errFile, 'utf8'), read: out });
    });
  });
}

/**
 * Runs the CLI with its standard output a pipe whose reading end is closed before the CLI writes anything:
 * the first write meets EPIPE whatever the size of the output (`| head -c 0`, or a reader that quit).
 */
function readerGone(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const CLEAN = JSON.stringify(cleanSet('pipe-clean', 'Pipe clean'), null, 2);
const BROKEN = CLEAN.replace('"groupNames": [\n          "Network"', '"groupNames": [\n          "Netwrok"');
let cleanDir: string;
let brokenDir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-pipes-'));
  cleanDir = path.join(dir, 'clean');
  brokenDir = path.join(dir, 'broken');
  fs.mkdirSync(cleanDir);
  fs.mkdirSync(brokenDir);
  // Enough files that every format's report is larger than a pipe's buffer (64 KiB): the reader closes
  // while the CLI is still writing.
  for (let i = 0; i < 500; i++) {
    fs.writeFileSync(path.join(cleanDir, `set-${i}.json`), CLEAN.replace(/pipe-clean/g, `pipe-clean-${i}`));
    fs.writeFileSync(path.join(brokenDir, `set-${i}.json`), BROKEN.replace(/pipe-clean/g, `pipe-broken-${i}`));
  }
  service = await startLocalService({ token: TOKEN, corpusDir: path.join(dir, 'no-corpus') });
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('closed pipes: lint', { concurrency: 3 }, () => {
  for (const format of ['text', 'json', 'sarif']) {
    test(`${format}: | head -1 and | head -c 10 keep the status (0 clean, 1 errors), nothing on stderr`, async () => {
      // Guard: the reports are larger than a pipe's buffer, so the reader really closes before the end.
      const cases: Array<[string, string, number]> = [
        [cleanDir, 'head -1', 0],
        [cleanDir, 'head -c 10', 0],
        [brokenDir, 'head -1', 1],
        [brokenDir, 'head -c 10', 1],
        [brokenDir, 'grep -m1 .', 1],
      ];
      for (const [folder, reader, expected] of cases) {
        const result = await piped(['lint', folder, '-f', format, '--no-color'], reader);
        assert.equal(result.stderr, '', `${format} ${reader}: ${result.stderr}`);
        assert.equal(result.code, expected, `${format} | ${reader}`);
        assert.ok(result.read.length > 0 && result.read.length <= 4096, `${reader} read the start of the report`);
      }
    });
  }

  test('a reader gone before the first write: same status, nothing on stderr', async () => {
    for (const [folder, expected] of [
      [cleanDir, 0],
      [brokenDir, 1],
    ] as const) {
      for (const format of ['text', 'json', 'sarif']) {
        const result = await readerGone(['lint', folder, '-f', format]);
        assert.equal(result.stderr, '', result.stderr);
        assert.equal(result.code, expected, `${format} ${folder}`);
      }
    }
  });

  test('the reports are larger than a pipe buffer (what the tests above rely on)', async () => {
    const result = await piped(['lint', cleanDir, '-f', 'text', '--no-color'], 'wc -c');
    const textBytes = Number(result.read.trim());
    const json = await piped(['lint', cleanDir, '-f', 'json'], 'wc -c');
    // A clean text report is short; the json and sarif reports of 500 files are not.
    assert.ok(Number(json.read.trim()) > 64 * 1024, `json: ${json.read}`);
    assert.ok(textBytes > 0);
    const broken = await piped(['lint', brokenDir, '-f', 'text', '--no-color'], 'wc -c');
    assert.ok(Number(broken.read.trim()) > 64 * 1024, `text with errors: ${broken.read}`);
  });

  test('help and version', async () => {
    for (const args of [['--help'], ['lint', '--help'], ['fetch', '--help'], ['--version']]) {
      const result = await readerGone(args);
      assert.deepEqual([result.code, result.stderr], [0, ''], args.join(' '));
    }
  });
});

describe('closed pipes: service commands', { concurrency: 3 }, () => {
  const env = () => ({ POLICYSET_BASE_URL: service.url, POLICYSET_ACCESS_TOKEN: TOKEN });

  test('fetch | head -1 and a reader gone: 0, nothing on stderr; a failing fetch keeps its 2', async () => {
    const first = 'local-demo-locations'; // a seed set, served with or without the corpus
    const head = await piped(['fetch', first], 'head -1', env());
    assert.deepEqual([head.code, head.stderr], [0, ''], head.stderr);
    assert.equal(head.read, '{\n');
    const gone = await readerGone(['fetch', first], env());
    assert.deepEqual([gone.code, gone.stderr], [0, '']);
    const missing = await readerGone(['fetch', 'no-such-set'], env());
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no-such-set|not found/i);
  });

  test('advisor metadata and quota calc: the status they would have had, nothing on stderr', async () => {
    for (const args of [
      ['advisor', 'metadata'],
      ['advisor', 'metadata', '--format', 'json'],
      ['quota', 'calc', '--model', 'gpt-4o', '--capacity', '10'],
    ]) {
      const result = await readerGone(args, env());
      assert.deepEqual([result.code, result.stderr], [0, ''], `${args.join(' ')}: ${result.stderr}`);
    }
  });
});
