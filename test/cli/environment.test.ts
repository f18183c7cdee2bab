import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

// Every environment variable the CLI reads (found in its sources, not listed by hand) is in `policyset --help`
// and in the docs; so is POLICYSET_CORPUS, which the local service and the tests read.

const NAME = /\b(POLICYSET_[A-Z_]*[A-Z]|NO_COLOR|NODE_DISABLE_COMPILE_CACHE)\b/g;

function namesIn(dir: string, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (pattern.test(entry.name)) for (const m of fs.readFileSync(full, 'utf8').matchAll(NAME)) names.add(m[1]);
    }
  };
  walk(dir);
  return names;
}

test('policyset --help lists every environment variable the CLI reads, and POLICYSET_CORPUS', async () => {
  const read = new Set([
    ...namesIn(path.join(REPO_ROOT, 'server', 'src'), /\.ts$/),
    ...namesIn(path.join(REPO_ROOT, 'client', 'src', 'api'), /\.ts$/),
    ...namesIn(path.join(REPO_ROOT, 'bin'), /\.js$/),
  ]);
  // Guard: the search finds what the CLI is known to read.
  for (const known of ['POLICYSET_BASE_URL', 'POLICYSET_ACCESS_TOKEN', 'NO_COLOR', 'POLICYSET_NO_BUNDLE'])
    assert.ok(read.has(known), known);
  read.add('POLICYSET_CORPUS');
  const help = (await runCli(['--help'])).stdout;
  const environment = help.slice(help.indexOf('\nEnvironment:'));
  assert.ok(environment.length > 20, 'an Environment: section');
  const missing = [...read].filter((name) => !environment.includes(name));
  assert.deepEqual(missing, [], `not in policyset --help: ${missing.join(', ')}`);
  const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
  assert.deepEqual(
    [...read].filter((name) => !docs.includes(name)),
    [],
    'docs/cli.md names each of them',
  );
});

test("the local service's environment (POLICYSET_CORPUS, POLICYSET_LOCAL_*) is in its --help and in docs/service.md", async () => {
  const read = namesIn(path.join(REPO_ROOT, 'test', 'fake-service'), /\.ts$/);
  for (const name of namesIn(path.join(REPO_ROOT, 'test', 'support'), /^corpus\.ts$/)) read.add(name);
  assert.ok(read.has('POLICYSET_CORPUS') && read.has('POLICYSET_LOCAL_PORT'));
  const usage = spawnSync(process.execPath, [path.join(REPO_ROOT, 'test', 'out', 'fake-service', 'main.js'), '--help'], {
    encoding: 'utf8',
  }).stdout;
  const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'service.md'), 'utf8');
  for (const name of read) {
    assert.ok(usage.includes(name), `npm run service:local -- --help does not name ${name}`);
    assert.ok(docs.includes(name), `docs/service.md does not name ${name}`);
  }
});
