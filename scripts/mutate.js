#!/usr/bin/env node
// Mutation testing with StrykerJS over the code users depend on most: the api clients and the HTTP retry
// policy (client/src/api), the quota model (server/src/service/quota), the rules (server/src/service/rules),
// the version model, the CLI, the Node helpers and the web build, each with the project's own unit, api and CLI tests that exercise it (no e2e,
// no bench). Not part of `npm test`: it is slow (see docs/testing.md for how slow, the scores and the
// surviving mutants).
//
//   npm run mutate                          every target, one after the other
//   npm run mutate -- http rules            only these targets
//   npm run mutate -- http --concurrency 2  test processes at once (default 1: a shared two-core machine)
//   npm run mutate -- rules --mutate server/src/service/rules/undefined-group.ts
//                                           a narrower set of files (globs) within a target
//   npm run mutate -- api --tests test/out/api/guards.test.js,test/out/api/api.test.js
//                                           other test files than the target's (compiled paths)
//   npm run mutate -- --list                the targets and their tests
//   npm run mutate -- http --strings        string literals mutated too (by default they are not: they are
//                                           messages, whose wording the tests check where it matters, and
//                                           mutating each would double the run for little)
//
// Stryker and its tap runner are installed on first use into .cache/stryker (git-ignored), not into the
// project's dependencies. Stryker copies the project into a sandbox and builds the instrumented sources there
// once (tsc -b: all mutants are compiled in, one is switched on per test run). The tap runner runs each
// compiled test file as `node <file>` (node:test prints TAP when its output is not a terminal); a first run of
// every file records which mutants each file reaches (coverageAnalysis 'perTest', a file being one "test"),
// so a mutant no file reaches costs nothing and every other runs only the files that reach it, stopping at the
// first failing test. The mutant is switched on by an environment variable, so the CLI and server processes a
// test starts run it too, and scripts/mutate/coverage-*.js count what those processes reach in the first run
// as reached by the test file that started them. Reports: reports/mutation/<target>.html and .json
// (git-ignored); `node scripts/mutation-report.js` writes docs/mutation.md from them.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, '.cache', 'stryker');
const STRYKER_VERSION = '9.6.1'; // 10.x needs Node 22; the project supports Node 20.
const PACKAGES = ['@stryker-mutator/core', '@stryker-mutator/tap-runner'];

/** Each target: the files mutated, and the compiled test files that run for each mutant, in order. */
const TARGETS = {
  http: {
    what: 'the HTTP client and its retry policy',
    mutate: ['client/src/api/http.ts'],
    tests: [
      'test/out/api/http.test.js',
      'test/out/api/guards.test.js',
      'test/out/api/api.test.js',
      'test/out/api/items.test.js',
      'test/out/api/hostile.test.js',
      'test/out/api/fetchTransport.test.js',
      'test/out/api/deploymentChecks.test.js',
      'test/out/api/hostile32.test.js',
    ],
  },
  deployments: {
    what: 'E6 and E7 (model deployments, quota usage and its paging)',
    mutate: ['client/src/api/modelDeployments.ts'],
    tests: [
      'test/out/api/deploymentChecks.test.js',
      'test/out/api/guards.test.js',
      'test/out/api/modelDeployments.test.js',
      'test/out/api/modelApply.test.js',
      'test/out/api/hostile32.test.js',
    ],
  },
  api: {
    what: 'the other api clients (E1-E5, errors, settings, sign-in)',
    mutate: ['client/src/api/**/*.ts', '!client/src/api/http.ts', '!client/src/api/modelDeployments.ts', '!client/src/api/index.ts'],
    tests: [
      'test/out/api/errorsEdges.test.js',
      'test/out/api/settingsEdges.test.js',
      'test/out/api/pathChecks.test.js',
      'test/out/api/guards.test.js',
      'test/out/api/http.test.js',
      'test/out/api/api.test.js',
      'test/out/api/items.test.js',
      'test/out/api/implicitFlow.test.js',
      'test/out/api/cliJson.test.js',
      'test/out/api/deployAgainst.test.js',
      'test/out/api/fetchTransport.test.js',
      'test/out/api/hostile.test.js',
    ],
  },
  quota: {
    what: 'the quota model',
    mutate: ['server/src/service/quota/**/*.ts'],
    tests: [
      'test/out/unit/quota.test.js',
      'test/out/unit/quotaEdges.test.js',
      'test/out/unit/quotaPlan.test.js',
      'test/out/unit/reconcile.test.js',
      'test/out/rules/invalid-deployment-capacity.test.js',
      'test/out/rules/unknown-model-class.test.js',
      'test/out/rules/model-quota-exceeded.test.js',
      'test/out/rules/too-many-resources-in-region.test.js',
      'test/out/rules/quota-not-checked.test.js',
      'test/out/unit/rulesShared.test.js',
      'test/out/cli/quota.test.js',
      'test/out/api/modelApply.test.js',
      'test/out/unit/hostile32.test.js',
    ],
  },
  versions: {
    what: 'the version model (the change model of two versions of a set, the version check)',
    mutate: ['server/src/service/versions/**/*.ts'],
    // The fast in-process files first (versionsEdges loads the version model alone); the CLI's diff last.
    tests: [
      'test/out/unit/versionsEdges.test.js',
      'test/out/unit/versions.test.js',
      'test/out/rules/version-not-bumped.test.js',
      'test/out/api/deployAgainst.test.js',
      'test/out/cli/diff.test.js',
    ],
  },
  cli: {
    what: 'the CLI (commands, formatters, git, the lint engine)',
    mutate: ['server/src/cli/**/*.ts'],
    // The in-process formatter tests first (about a second a mutant); the CLI's process tests after.
    tests: [
      'test/out/unit/cliFormatters.test.js',
      'test/out/unit/lintArgs.test.js',
      'test/out/unit/cliService.test.js',
      'test/out/unit/diffReport.test.js',
      'test/out/unit/deployBody.test.js',
      'test/out/unit/writeFixes.test.js',
      'test/out/unit/splitSets.test.js',
      'test/out/unit/lintCompanions.test.js',
      'test/out/unit/lintEngine.test.js',
      'test/out/api/prompt.test.js',
      'test/out/unit/cliHelp.test.js',
      'test/out/unit/cliGit.test.js',
      'test/out/cli/cli.test.js',
      'test/out/cli/config.test.js',
      'test/out/cli/diff.test.js',
      'test/out/cli/quota.test.js',
      'test/out/cli/wording.test.js',
      'test/out/cli/hostile.test.js',
      'test/out/cli/hostile32.test.js',
      'test/out/cli/consumerImpact.test.js',
      'test/out/cli/exitStatuses.test.js',
      'test/out/api/cliJson.test.js',
      'test/out/api/modelApply.test.js',
      'test/out/api/hostile32.test.js',
      'test/out/api/quotaAgree.test.js',
    ],
  },
  node: {
    what: 'the Node helpers both faces share (bounded reader, config, globs, output guard, compile cache) and the pattern engine',
    mutate: ['server/src/node/**/*.ts', 'server/src/service/patterns.ts'],
    tests: [
      'test/out/unit/nodeHelpers.test.js',
      'test/out/unit/nodeDefinitions.test.js',
      'test/out/unit/patterns.test.js',
      'test/out/unit/patternsDifferential.test.js',
      'test/out/unit/config.test.js',
      'test/out/unit/workspaceConfig.test.js',
      'test/out/unit/compileCache.test.js',
      'test/out/cli/hostile.test.js',
      'test/out/cli/hostile32.test.js',
      'test/out/cli/config.test.js',
      'test/out/cli/pipes.test.js',
    ],
  },
  web: {
    what: 'the web build (the browser server: the files the extension sends, the browser host)',
    mutate: ['server/src/**/browser/**/*.ts'],
    tests: ['test/out/unit/clientFiles.test.js', 'test/out/unit/browserHost.test.js', 'test/out/unit/hostile32.test.js'],
  },
  rules: {
    what: 'the rules',
    mutate: ['server/src/service/rules/**/*.ts'],
    tests: [
      'test/out/rules/*.test.js',
      'test/out/unit/rulesShared.test.js',
      'test/out/unit/rulesEdges.test.js',
      'test/out/unit/defects.test.js',
      'test/out/unit/examples.test.js',
    ],
  },
};

function parseArgs(argv) {
  const args = { targets: [], concurrency: 1, mutate: undefined, list: false, strings: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--concurrency') args.concurrency = Number(argv[++i]);
    else if (arg === '--mutate') args.mutate = argv[++i].split(',');
    else if (arg === '--tests') args.tests = argv[++i].split(',');
    else if (arg === '--list') args.list = true;
    else if (arg === '--strings') args.strings = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (TARGETS[arg]) args.targets.push(arg);
    else
      throw new Error(
        `unknown argument '${arg}': targets are ${Object.keys(TARGETS).join(', ')}; options --concurrency N, --mutate globs, --tests files, --strings, --list`,
      );
  }
  if (!Number.isInteger(args.concurrency) || args.concurrency < 1) throw new Error('--concurrency takes a whole number of 1 or more');
  if (!args.targets.length) args.targets = Object.keys(TARGETS);
  return args;
}

function ensureStryker() {
  const bin = path.join(CACHE, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const versionOf = (name) => {
    const file = path.join(CACHE, 'node_modules', ...name.split('/'), 'package.json');
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).version : undefined;
  };
  if (PACKAGES.every((name) => versionOf(name) === STRYKER_VERSION)) return bin;
  const specs = PACKAGES.map((name) => `${name}@${STRYKER_VERSION}`);
  console.log(`Installing ${specs.join(' ')} into ${path.relative(ROOT, CACHE)} (once)...`);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(path.join(CACHE, 'package.json'), JSON.stringify({ name: 'stryker-cache', private: true }));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', ...specs], { cwd: CACHE, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('installing Stryker failed (see above)');
  return bin;
}

/** The compiled test files of a target (its patterns expanded, in order). */
function testFiles(tests) {
  return tests.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const dir = path.dirname(pattern);
    const re = new RegExp(
      `^${path
        .basename(pattern)
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')}$`,
    );
    return fs
      .readdirSync(path.join(ROOT, dir))
      .filter((name) => re.test(name))
      .sort()
      .map((name) => `${dir}/${name}`);
  });
}

function run(name, target, args, bin) {
  const reportDir = path.join('reports', 'mutation');
  const config = {
    $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    packageManager: 'npm',
    testRunner: 'tap',
    // Each file on its own (`node <file>`); forceBail ends a file at its first failing test. coverage-parent.js
    // counts what the CLI and server processes a test starts reach as reached by that test file.
    tap: {
      testFiles: testFiles(args.tests ?? target.tests),
      forceBail: true,
      nodeArgs: [
        '--test-reporter=tap',
        '--require',
        path.join(__dirname, 'mutate', 'coverage-parent.js'),
        '--require',
        '{{hookFile}}',
        '{{testFile}}',
      ],
    },
    // One build of the instrumented sources in the sandbox; the CLI runs from the compiled modules (no bundle),
    // so its tests see the mutants too.
    buildCommand: 'npx tsc -b',
    mutate: args.mutate ?? target.mutate,
    coverageAnalysis: 'perTest',
    mutator: { excludedMutations: args.strings ? [] : ['StringLiteral'] },
    concurrency: args.concurrency,
    // Beyond the dry run's time of the mutant's tests (x1.5): a mutant that loops is given up on after this.
    timeoutMS: 15_000,
    reporters: ['clear-text', 'progress', 'html', 'json'],
    htmlReporter: { fileName: `${reportDir}/${name}.html` },
    jsonReporter: { fileName: `${reportDir}/${name}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
    tempDirName: '.cache/stryker-tmp',
    cleanTempDir: true,
    ignorePatterns: ['.cache', 'dist', 'reports', 'bench-results', '*.vsix'],
    thresholds: { high: 90, low: 75, break: null },
  };
  const configFile = path.join(CACHE, `${name}.config.json`);
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
  // The sandbox is not beside ../shared: the corpus is passed by its absolute path (when there is one).
  const corpus = process.env.POLICYSET_CORPUS ?? path.resolve(ROOT, '..', 'shared', 'corpus');
  const env = { ...process.env, POLICYSET_NO_BUNDLE: '1', ...(fs.existsSync(corpus) ? { POLICYSET_CORPUS: corpus } : {}) };
  console.log(`\n== ${name}: ${target.what}\n   mutating ${config.mutate.join(' ')}\n   tests: ${config.tap.testFiles.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [bin, 'run', configFile], { cwd: ROOT, stdio: 'inherit', env });
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(
    `== ${name}: ${result.status === 0 ? 'done' : `failed (exit ${result.status})`} in ${minutes} min; report ${reportDir}/${name}.html`,
  );
  return result.status === 0;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || args.list) {
    for (const [name, target] of Object.entries(TARGETS))
      console.log(
        `${name.padEnd(6)} ${target.what}\n       mutate: ${target.mutate.join(' ')}\n       tests:  ${testFiles(target.tests).join(' ')}`,
      );
    return;
  }
  // The tests run from the compiled output: build first.
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const bin = ensureStryker();
  const failed = args.targets.filter((name) => !run(name, TARGETS[name], args, bin));
  if (failed.length) {
    console.error(`mutate: ${failed.join(', ')} did not complete`);
    process.exitCode = 1;
  }
}

try {
  main();
} catch (error) {
  console.error(`mutate: ${error.message}`);
  process.exitCode = 2;
}
