// Issue 32, 1 and 2: the one bounded pattern engine for every user-given glob and regular expression.
// Globs are checked against picomatch (an independent implementation, the one the project used before) on
// ordinary patterns, and against the clock on hostile ones; regular expressions against the size bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { boundedRegExp, globMatcher, MAX_PATTERN_CHARS, PatternError, regexProgramSize } from '#server/service/patterns';
import { compileParameterSchema, firstSchemaError } from '#server/service/schema/parameterSchema';
import { ignoreMatcher } from '#server/node/config';

const PATTERNS = [
  '*.json',
  '**/*.json',
  'legacy',
  '**/legacy',
  'legacy/**',
  'a/*/b',
  'a/**/b',
  '**/a/**',
  '*.draft.json',
  'sets/**/*.jsonc',
  '{a,b}/*.json',
  'x/{a,b/c}/y',
  '[ab].json',
  '?.json',
  '**',
  '*',
  '.github/**',
  '**/.hidden/*',
  'a?c',
  '*a*b*c',
  '@(a|b).json',
  '?(a).json',
  'foo/bar',
  '**/foo/bar/**/*.json',
  '[a-c]*',
  'x/**/y/**/z',
  '\\*.json',
  '*.{json,jsonc}',
  '[[:digit:]]*.json',
];
const PATHS = [
  'a.json',
  'b.json',
  '.json',
  'legacy',
  'legacy/x.json',
  'x/legacy',
  'x/legacy/y.json',
  'a/x/b',
  'a/b',
  'a/x/y/b',
  'a',
  'x.draft.json',
  'y/x.draft.json',
  'sets/a/b.jsonc',
  'sets/b.jsonc',
  'a/x.json',
  'b/x.json',
  'x/a/y',
  'x/b/c/y',
  'x/b/y',
  'ab.json',
  '.github/w.json',
  '.github',
  'x/.hidden/y',
  '.hidden/y',
  'abc',
  'aXc',
  'a/c',
  'zaxbycz',
  'acb',
  'foo/bar',
  'q/foo/bar/r/s.json',
  'x/y/z',
  'x/1/y/2/z',
  'x/.d/y/z',
  '*.json',
  '.a/b.json',
  'a/.b.json',
  'a.jsonc',
  '1.json',
];

test('globs: the same answers as picomatch on ordinary patterns, with and without dot files', () => {
  for (const dot of [true, false]) {
    for (const pattern of PATTERNS) {
      const theirs = picomatch(pattern, { dot });
      const ours = globMatcher(pattern, { dot });
      for (const file of PATHS) assert.equal(ours(file), theirs(file), `${pattern} on ${file} (dot: ${dot})`);
    }
  }
});

test('globs: [!a] is a negated class (as in .gitignore and bash)', () => {
  const match = globMatcher('[!a].json', { dot: true });
  assert.equal(match('b.json'), true);
  assert.equal(match('a.json'), false);
});

test('globs: a hostile ignore pattern (*a*a…*ab) against long file names ends at once', { timeout: 120_000 }, () => {
  const ignored = ignoreMatcher(['*a'.repeat(2000) + 'b', `**/${'*a'.repeat(30000)}b`], '/repo');
  for (let i = 0; i < 50; i++) assert.equal(ignored(`/repo/${'x/'.repeat(i)}${'a'.repeat(255)}`), false);
  // picomatch's regular expression took over 120 s on one such name (times 50 here); this is linear between
  // stars. The runner's timeout is the bound: no wall-clock assertion a slow or instrumented run could fail.
});

// Bounded by the runner's timeout, not a wall-clock assertion (a slow or instrumented run must not fail it): a
// backtracking matcher takes longer than the age of the universe on 2,000 '**/' segments; this one is linear.
test('globs: many ** and brace groups stay bounded; too many alternatives is an error, not a hang', { timeout: 120_000 }, () => {
  assert.equal(globMatcher('**/'.repeat(2000) + 'x', { dot: true })('a/'.repeat(2000) + 'y'), false);
  assert.throws(() => globMatcher('{a,b}'.repeat(20), { dot: true }), PatternError);
});

test('globs: brace groups nested more than 32 deep are a PatternError, not a stack overflow', () => {
  // 20,000 nested groups (60 KB, under the length cap) threw RangeError: Maximum call stack size exceeded.
  const tooDeep = (error: unknown) =>
    error instanceof PatternError && error.message === "the pattern's brace groups nest more than 32 deep";
  assert.throws(() => globMatcher(`${'{a,'.repeat(20000)}*`, { dot: true }), tooDeep);
  assert.throws(() => globMatcher(`${'{'.repeat(20000)}*`, { dot: true }), tooDeep);
  assert.throws(() => globMatcher(`${'{a,'.repeat(33)}b${'}'.repeat(33)}`, { dot: true }), tooDeep);
  // 32 deep is taken: {a,{a,…{a,b}…}} is the alternatives a and b.
  const deepest = globMatcher(`${'{a,'.repeat(32)}b${'}'.repeat(32)}`, { dot: true });
  assert.deepEqual(['a', 'b', 'c'].map(deepest), [true, true, false]);
});

test('globs and regular expressions: a pattern over 64 KB is a PatternError, never skipped', () => {
  assert.throws(() => globMatcher('a'.repeat(MAX_PATTERN_CHARS + 1), { dot: true }), /longer than 64 KB/);
  assert.throws(() => boundedRegExp('a'.repeat(MAX_PATTERN_CHARS + 1)), /longer than 64 KB/);
  assert.throws(() => ignoreMatcher(['ok.json', '*'.repeat(MAX_PATTERN_CHARS + 1)], '/repo'), /'ignore' pattern 2 .*longer than 64 KB/);
});

test('regular expressions: the program size counts counted repetitions, nested ones multiplied', () => {
  assert.ok(regexProgramSize('^[a-z]{1,63}$') >= 63);
  assert.ok(regexProgramSize('^[a-z]{1,63}$') < 100);
  assert.ok(regexProgramSize('.{0,1000}'.repeat(40)) >= 40000);
  assert.ok(regexProgramSize('(?:(?:a{10}){10}){10}') >= 1000);
  assert.ok(regexProgramSize('(a|bc|def)*') < 20);
  assert.throws(() => boundedRegExp('.{0,1000}'.repeat(40)), PatternError);
  const guid = boundedRegExp('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');
  assert.equal(guid.test('0dff53fd-7de6-481d-81f3-4c39216485b2'), true);
  assert.equal(guid.test('0dff53fd-7de6-481d-81f3-4c39216485b'), false);
});

test(
  'PS6006: a schema pattern that expands past the bound is reported unchecked at once (was 24 s on a 4 KB set)',
  { timeout: 120_000 },
  () => {
    const pattern = `^${'(?:a|b){0,1000}'.repeat(100)}c$`;
    // Not compiled at all (compiling it took 24 s): it is listed as too costly to run.
    const compiled = compileParameterSchema({ type: 'string', pattern });
    assert.deepEqual(compiled.costlyPatterns, [pattern]);
    assert.equal(firstSchemaError(compiled, 'ab'), undefined);
    // An ordinary pattern still runs.
    const plain = compileParameterSchema({ type: 'string', pattern: '^[a-z]+$' });
    assert.match(firstSchemaError(plain, 'A1') ?? '', /pattern/);
    assert.equal(firstSchemaError(plain, 'abc'), undefined);
  },
);

test('the language server: an ignore pattern over 64 KB is said in a message naming the file, the folder still loaded', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { WorkspaceConfigs } = await import('#server/lsp/node/workspaceConfig');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-patterns-'));
  try {
    fs.writeFileSync(path.join(folder, '.policysetrc.json'), JSON.stringify({ ignore: ['z'.repeat(MAX_PATTERN_CHARS + 1)] }));
    const warnings: string[] = [];
    const configs = new WorkspaceConfigs((message) => warnings.push(message));
    configs.load([pathToFileURL(folder).href]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /\.policysetrc\.json: 'ignore' pattern 1 .*longer than 64 KB/);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
