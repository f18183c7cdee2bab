// The CLI's bundle runs with V8's code cache (server/out/node/compileCache.js): the cache is written once,
// used after, keyed to the file, and nothing about it can fail a run.
import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { requireWithCompileCache, cacheFolder } from '#server/node/compileCache';
import { REPO_ROOT } from '../support/corpus';

/**
 * Loads the module in a fresh process, as the CLI does, and says what happened to the cache: within one
 * process V8 keeps what it compiled, and would not read a cache a second time.
 */
function loadInChild(env: NodeJS.ProcessEnv = process.env): { state: string; answer: number } {
  const loader = path.join(REPO_ROOT, 'server', 'out', 'node', 'compileCache.js');
  const script = `const c = require(${JSON.stringify(loader)}).requireWithCompileCache(${JSON.stringify(moduleFile)}); c.save(); console.log(JSON.stringify({ state: c.state, answer: c.exports.answer(21) }));`;
  const result = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as { state: string; answer: number };
}

let dir: string;
let cache: string;
let moduleFile: string;
const saved = { ...process.env };

const caches = () => (fs.existsSync(cache) ? fs.readdirSync(cache).filter((name) => name.endsWith('.v8cache')) : []);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-compile-cache-test-'));
  cache = path.join(dir, 'cache');
  moduleFile = path.join(dir, 'module.js');
  fs.writeFileSync(
    moduleFile,
    "'use strict';\nexports.answer = (n) => n * 2;\nexports.dirname = __dirname;\nexports.builtin = typeof require('node:path').join;\n",
  );
  delete process.env.NODE_DISABLE_COMPILE_CACHE;
  process.env.POLICYSET_COMPILE_CACHE = cache;
});

afterEach(() => {
  process.env = { ...saved };
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('compile cache', () => {
  test('the first run writes the cache after its work, the next uses it; the module runs as CommonJS either way', () => {
    const first = requireWithCompileCache(moduleFile);
    assert.equal(first.state, 'missing');
    const exports = first.exports as { answer: (n: number) => number; dirname: string; builtin: string };
    assert.equal(exports.answer(21), 42);
    assert.equal(exports.dirname, dir);
    assert.equal(exports.builtin, 'function');
    assert.deepEqual(caches(), [], 'nothing is written before save()');
    first.save();
    assert.equal(caches().length, 1);
    assert.equal(fs.statSync(cache).mode & 0o777, 0o700, 'the folder is the user’s alone');
    const written = fs.statSync(path.join(cache, caches()[0])).mtimeMs;

    assert.deepEqual(loadInChild(), { state: 'used', answer: 42 });
    assert.equal(fs.statSync(path.join(cache, caches()[0])).mtimeMs, written, 'a cache that was used is not written again');
  });

  test('a changed file gets a cache of its own and the old one is removed', () => {
    requireWithCompileCache(moduleFile).save();
    const [old] = caches();
    fs.writeFileSync(moduleFile, "'use strict';\nexports.answer = (n) => n * 3;\n");
    fs.utimesSync(moduleFile, new Date(), new Date(Date.now() + 5000));
    const changed = requireWithCompileCache(moduleFile);
    assert.equal(changed.state, 'missing');
    assert.equal((changed.exports as { answer: (n: number) => number }).answer(2), 6);
    changed.save();
    assert.equal(caches().length, 1);
    assert.notEqual(caches()[0], old);
  });

  test('another file (another checkout) keeps its own cache', () => {
    const other = path.join(dir, 'other', 'module.js');
    fs.mkdirSync(path.dirname(other));
    fs.copyFileSync(moduleFile, other);
    requireWithCompileCache(moduleFile).save();
    requireWithCompileCache(other).save();
    assert.equal(caches().length, 2);
    assert.deepEqual(loadInChild(), { state: 'used', answer: 42 });
  });

  test('a folder others may write in is not used', { skip: process.platform === 'win32' ? 'no modes on Windows' : false }, () => {
    fs.mkdirSync(cache);
    fs.chmodSync(cache, 0o777);
    const loaded = requireWithCompileCache(moduleFile);
    assert.equal(loaded.state, 'off');
    loaded.save();
    assert.deepEqual(caches(), []);
  });

  test('a damaged cache is refused by V8 and rewritten; the module still runs', () => {
    requireWithCompileCache(moduleFile).save();
    const file = path.join(cache, caches()[0]);
    fs.writeFileSync(file, Buffer.from('not a code cache at all, just bytes'));
    assert.deepEqual(loadInChild(), { state: 'rejected', answer: 42 });
    assert.deepEqual(loadInChild(), { state: 'used', answer: 42 });
  });

  test('a cache folder that cannot be made is no cache, not a failure', () => {
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    process.env.POLICYSET_COMPILE_CACHE = path.join(dir, 'a-file', 'cache');
    const loaded = requireWithCompileCache(moduleFile);
    assert.equal(loaded.state, 'off');
    assert.equal((loaded.exports as { answer: (n: number) => number }).answer(1), 2);
    loaded.save();
  });

  test(
    'a folder owned by another user is not used: its cache could be anyone’s code',
    { skip: process.getuid?.() !== 0 ? 'needs root, to give a folder to another user' : false },
    () => {
      fs.mkdirSync(cache, { mode: 0o777 });
      fs.chownSync(cache, 65534, 65534);
      const loaded = requireWithCompileCache(moduleFile);
      assert.equal(loaded.state, 'off');
      loaded.save();
      assert.deepEqual(caches(), []);
    },
  );

  test('NODE_DISABLE_COMPILE_CACHE and POLICYSET_COMPILE_CACHE=0 turn it off', () => {
    process.env.NODE_DISABLE_COMPILE_CACHE = '1';
    assert.equal(cacheFolder(), undefined);
    const loaded = requireWithCompileCache(moduleFile);
    assert.equal(loaded.state, 'off');
    loaded.save();
    assert.deepEqual(caches(), []);
    delete process.env.NODE_DISABLE_COMPILE_CACHE;
    process.env.POLICYSET_COMPILE_CACHE = '0';
    assert.equal(cacheFolder(), undefined);
    delete process.env.POLICYSET_COMPILE_CACHE;
    assert.match(cacheFolder()!, /policyset-compile-cache-/);
  });
});
