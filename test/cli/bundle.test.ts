// bin/policyset.js runs the CLI's bundle (server/out/cli/bundle.js) with V8's code cache, and the compiled
// modules when the bundle is missing or older than the last compile. Both must say the same, byte for byte.
// bin/policyset-language-server.js does the same with the server's (server/out/server.bundle.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { runCli } from '../support/run';
import { startInitialized } from '../support/lspProcess';
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
    const [bundledRun, cachedRun, plainRun] = [
      await runCli(args, { env: withCache }),
      await runCli(args, { env: withCache }),
      await runCli(args, { env: unbundled }),
    ];
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
  assert.equal(
    version.stdout.trim(),
    (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
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
  const run = (folder: string) =>
    spawnSync(process.execPath, [path.join(root, 'bin', 'policyset.js'), 'lint', 'examples/clean'], {
      cwd: REPO_ROOT,
      env: { ...process.env, POLICYSET_COMPILE_CACHE: folder },
      encoding: 'utf8',
    });
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

// The language server: bin/policyset-language-server.js runs server/out/server.bundle.js the same way.
test('the language server runs its bundle and leaves its code cache at exit; the compiled modules publish the same diagnostics', async () => {
  assert.ok(fs.existsSync(path.join(REPO_ROOT, 'server', 'out', 'server.bundle.js')), 'npm run build makes server/out/server.bundle.js');
  const file = path.join(
    REPO_ROOT,
    'examples',
    'mistakes',
    fs
      .readdirSync(path.join(REPO_ROOT, 'examples', 'mistakes'))
      .filter((name) => name.endsWith('.json'))
      .sort()[0],
  );
  const uri = pathToFileURL(file).href;
  const diagnosticsFrom = async (env: NodeJS.ProcessEnv) => {
    const { client } = await startInitialized({ textDocument: { publishDiagnostics: {} } }, { env });
    const published = client.waitFor<{ uri: string; diagnostics: unknown[] }>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri,
      30000,
    );
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: fs.readFileSync(file, 'utf8') } });
    const { params } = await published;
    await client.stop();
    return params.diagnostics;
  };
  const serverCaches = (folder: string) =>
    fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.startsWith('server.bundle-') && name.endsWith('.v8cache')) : [];
  const bundledCache = path.join(dir, 'server-bundle-cache');
  const plainCache = path.join(dir, 'server-plain-cache');
  const bundled = await diagnosticsFrom({ ...process.env, POLICYSET_COMPILE_CACHE: bundledCache });
  const plain = await diagnosticsFrom({ ...process.env, POLICYSET_COMPILE_CACHE: plainCache, POLICYSET_NO_BUNDLE: '1' });
  assert.ok(bundled.length > 0, 'the example has mistakes');
  assert.deepEqual(plain, bundled);
  assert.equal(serverCaches(bundledCache).length, 1, 'the bundle ran and stored its code cache at exit');
  assert.equal(serverCaches(plainCache).length, 0, 'POLICYSET_NO_BUNDLE=1 ran the compiled modules');
});
