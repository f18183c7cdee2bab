// bin/policyset.js runs the CLI's bundle (server/out/cli/bundle.js) with V8's code cache, and the compiled
// modules when the bundle is missing or older than the last compile. Both must say the same, byte for byte.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from '../support/run';
import { CORPORA, REPO_ROOT } from '../support/corpus';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-bundle-'));
const cache = path.join(dir, 'cache');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const withCache = { ...process.env, POLICYSET_COMPILE_CACHE: cache };
const unbundled = { ...process.env, POLICYSET_NO_BUNDLE: '1', POLICYSET_COMPILE_CACHE: cache };

test('the build made the bundle, and a lint runs it and leaves its code cache', async () => {
  assert.ok(fs.existsSync(path.join(REPO_ROOT, 'server', 'out', 'cli', 'bundle.js')), 'npm run build makes server/out/cli/bundle.js');
  const result = await runCli(['lint', 'examples/clean', '-f', 'json'], { env: withCache });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(fs.readdirSync(cache).filter((name) => name.endsWith('.v8cache')).length, 1);
});

for (const format of ['text', 'json', 'sarif']) {
  test(`the bundle and the compiled modules report the same (${format}, examples and definitions)`, async () => {
    const args = ['lint', 'examples', '-d', 'examples/definitions', '-f', format, '--no-color'];
    const [bundledRun, cachedRun, plainRun] = [await runCli(args, { env: withCache }), await runCli(args, { env: withCache }), await runCli(args, { env: unbundled })];
    assert.equal(bundledRun.code, 1);
    assert.ok(bundledRun.stdout.length > 100);
    assert.equal(cachedRun.stdout, bundledRun.stdout);
    assert.equal(plainRun.stdout, bundledRun.stdout);
    assert.equal(plainRun.stderr, bundledRun.stderr);
    assert.equal(plainRun.code, bundledRun.code);
  });
}

test('--jobs 2 and --version from the bundle', async () => {
  const jobs = await runCli(['lint', 'examples', '-f', 'json', '--jobs', '2'], { env: withCache });
  const plain = await runCli(['lint', 'examples', '-f', 'json', '--jobs', '2'], { env: unbundled });
  assert.equal(jobs.stdout, plain.stdout);
  const version = await runCli(['--version'], { env: withCache });
  assert.equal(version.stdout.trim(), (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
});

for (const corpus of CORPORA) {
  test(`the corpus (${corpus.label}): the bundle reports what the compiled modules report`, async () => {
    const args = ['lint', corpus.sets, '-f', 'json'];
    const [bundledRun, plainRun] = [await runCli(args, { env: withCache }), await runCli(args, { env: unbundled })];
    assert.equal(bundledRun.code, plainRun.code);
    assert.equal(bundledRun.stdout, plainRun.stdout);
    assert.ok((JSON.parse(bundledRun.stdout) as { summary: { checked: number } }).summary.checked > 0, 'documents were checked');
  });
}

test('a bundle older than the last compile is passed over for the compiled modules', () => {
  // A copy of the launcher beside the real compiled output (linked), with build info of its own.
  const root = path.join(dir, 'layout');
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(root, 'server'));
  fs.copyFileSync(path.join(REPO_ROOT, 'bin', 'policyset.js'), path.join(root, 'bin', 'policyset.js'));
  fs.symlinkSync(path.join(REPO_ROOT, 'server', 'out'), path.join(root, 'server', 'out'), 'dir');
  const buildInfo = path.join(root, 'server', 'tsconfig.tsbuildinfo');
  const run = (folder: string) => spawnSync(process.execPath, [path.join(root, 'bin', 'policyset.js'), 'lint', 'examples/clean'], { cwd: REPO_ROOT, env: { ...process.env, POLICYSET_COMPILE_CACHE: folder }, encoding: 'utf8' });
  const caches = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder).length : 0);

  fs.writeFileSync(buildInfo, '{}');
  fs.utimesSync(buildInfo, new Date(), new Date(Date.now() + 3600_000));
  const stale = run(path.join(dir, 'stale-cache'));
  assert.equal(stale.status, 0, stale.stderr);
  assert.equal(caches(path.join(dir, 'stale-cache')), 0, 'the stale bundle was not run');

  fs.utimesSync(buildInfo, new Date(), new Date(0));
  const current = run(path.join(dir, 'current-cache'));
  assert.equal(current.status, 0, current.stderr);
  assert.equal(caches(path.join(dir, 'current-cache')), 1, 'the current bundle was run');

  fs.rmSync(buildInfo);
  const installed = run(path.join(dir, 'installed-cache'));
  assert.equal(installed.status, 0, installed.stderr);
  assert.equal(caches(path.join(dir, 'installed-cache')), 1, 'without build info (an installed package) the bundle is run');
  assert.equal(stale.stdout, current.stdout);
});
