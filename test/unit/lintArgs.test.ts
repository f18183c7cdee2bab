// `policyset lint`'s flags and config file, read in-process by parseLintArgs: each usage error's exact words
// (docs/cli.md: exit 2 with the message), what a flag overrides in the config file and what adds up, written
// out by hand. The CLI process tests check the same through the command; these let the `cli` mutation target
// kill a mutant in about a second.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseLintArgs } from '#server/cli/commands/lint';
import { UsageError, InputError } from '#server/node/files';

let dir: string;
let cwd: string;

before(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-lintargs-')));
  cwd = process.cwd();
  process.chdir(dir);
});
after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs in a fresh folder of its own under `dir`, with this config file (none when undefined). */
function inFolder<T>(config: unknown, run: (folder: string) => T): T {
  const folder = fs.mkdtempSync(path.join(dir, 'case-'));
  if (config !== undefined) fs.writeFileSync(path.join(folder, '.policysetrc.json'), JSON.stringify(config));
  process.chdir(folder);
  try {
    return run(folder);
  } finally {
    process.chdir(dir);
  }
}

function usage(args: string[], message: string, config?: unknown) {
  inFolder(config, () =>
    assert.throws(
      () => parseLintArgs(args),
      (e: unknown) => e instanceof UsageError && e.message === message,
      message,
    ),
  );
}

describe('defaults', () => {
  test('with no config and only an input', () => {
    const args = inFolder(undefined, () => parseLintArgs(['sets']));
    assert.deepEqual(args.inputs, ['sets']);
    assert.equal(args.format, 'text');
    assert.equal(args.output, undefined);
    assert.deepEqual(args.definitions, []);
    assert.equal(args.cloud, undefined);
    assert.deepEqual(args.severities, {});
    assert.equal(args.minSeverity, 'info');
    assert.equal(args.jobs, 'auto');
    assert.equal(args.docsBaseUrl, undefined);
    assert.equal(args.color, false, 'not a terminal here');
    assert.equal(args.strict, false);
    assert.equal(args.errorOnUnmatched, true);
    assert.equal(args.quiet, false);
    assert.equal(args.maxWarnings, undefined);
    assert.equal(args.stdin, undefined);
    assert.equal(args.ignored, undefined);
    assert.equal(args.ignoreSources, '');
    assert.equal(args.config, undefined);
    assert.equal(args.printConfig, undefined);
    assert.equal(args.listRules, false);
    assert.equal(args.against, undefined);
    assert.equal(args.fix, undefined);
  });
});

describe('usage errors', () => {
  test('inputs, standard input and its name', () => {
    usage([], 'no files or folders to lint (or --stdin)');
    usage(['a', '--stdin'], '--stdin lints standard input: give no files or folders with it');
    usage(['a', '--stdin-filename', 'x.json'], '--stdin-filename names the text of --stdin: give --stdin too');
    usage(['-c', 'x.json', '--no-config', 'a'], 'give -c <file> or --no-config, not both');
  });

  test('each flag that takes a value says what it takes', () => {
    usage(['a', '-f', 'jsno'], "unknown format 'jsno': use text, json or sarif; did you mean 'json'?");
    usage(['a', '-f', 'xml'], "unknown format 'xml': use text, json or sarif");
    usage(['a', '--rule', 'PS1002'], "--rule takes <code or name>=<error|warning|info|hint|off>, not 'PS1002'");
    usage(['a', '--rule', 'PS1002=loud'], "--rule takes <code or name>=<error|warning|info|hint|off>, not 'PS1002=loud'");
    usage(['a', '--rule', '=off'], "--rule takes <code or name>=<error|warning|info|hint|off>, not '=off'");
    usage(
      ['a', '--rule', 'duplicate-kye=off'],
      "--rule: no rule 'duplicate-kye'; did you mean 'duplicate-key'? (the rules: policyset rules, docs/rules/README.md)",
    );
    usage(['a', '--rule', 'zzzzzzzzzzzzzzzz=off'], "--rule: no rule 'zzzzzzzzzzzzzzzz' (the rules: policyset rules, docs/rules/README.md)");
    usage(
      ['a', '--cloud', 'AzureCloudd'],
      "--cloud takes AzureCloud, AzureUSGovernment, AzureChinaCloud, not 'AzureCloudd'; did you mean 'AzureCloud'?",
    );
    usage(['a', '--cloud', 'mars'], "--cloud takes AzureCloud, AzureUSGovernment, AzureChinaCloud, not 'mars'");
    usage(['a', '--min-severity', 'off'], "--min-severity takes error, warning, info or hint, not 'off'");
    usage(['a', '--min-severity', 'loud'], "--min-severity takes error, warning, info or hint, not 'loud'");
    for (const jobs of ['0', '65', '1.5', 'two', ''])
      usage(['a', '--jobs', jobs], `--jobs takes a whole number from 1 to 64, not '${jobs}'`);
    for (const max of ['-2', '1.5', 'many', '', ' '])
      usage(['a', `--max-warnings=${max}`], `--max-warnings takes a whole number (-1: no limit), not '${max}'`);
  });

  test('fixing: as ESLint takes --fix, --fix-dry-run and --fix-type', () => {
    usage(['a', '--fix', '--fix-dry-run'], 'give --fix or --fix-dry-run, not both');
    usage(['a', '--fix-type', 'casing'], '--fix-type chooses the fixes of --fix or --fix-dry-run: give one of them too');
    usage(
      ['a', '--fix', '--fix-type', 'casng'],
      "--fix-type takes casing, typo, reference-id, version, remove, add, not 'casng'; did you mean 'casing'?",
    );
    usage(
      ['a', '--fix', '--fix-type', 'casing,everything'],
      "--fix-type takes casing, typo, reference-id, version, remove, add, not 'everything'",
    );
    usage(
      ['--stdin', '--fix'],
      '--fix writes files and standard input is none: use --fix-dry-run (with -f json, the fixed text is each result\'s "output")',
    );
  });

  test('--consumers needs --against; --reference-added takes minor or major', () => {
    usage(['a', '--consumers', 'assignments'], '--consumers names what a change breaks for --against: give --against too');
    usage(['a', '--reference-added', 'huge'], "--reference-added takes minor or major, not 'huge'");
    usage(['a', '--reference-removed', 'patch'], "--reference-removed takes minor or major, not 'patch'");
  });

  test('--ignore-pattern: a pattern the engine refuses is a usage error naming the flag', () => {
    inFolder(undefined, () =>
      assert.throws(
        () => parseLintArgs(['a', '--ignore-pattern', '*'.repeat(70_000)]),
        (e: unknown) => e instanceof UsageError && e.message.startsWith('--ignore-pattern: pattern '),
      ),
    );
  });
});

describe('values', () => {
  test('what each flag gives', () => {
    const args = inFolder(undefined, () =>
      parseLintArgs([
        'a',
        'b',
        '-f',
        'sarif',
        '-o',
        'out.sarif',
        '-d',
        'defs1',
        '--definitions',
        'defs2',
        '--cloud',
        'AzureChinaCloud',
        '--rule',
        'ps1002=warning',
        '--rule',
        ' duplicate-reference-id =off',
        '--min-severity',
        'hint',
        '--jobs',
        '64',
        '--max-warnings',
        '0',
        '--strict',
        '--no-error-on-unmatched-pattern',
        '--quiet',
        '--docs-base-url',
        'https://example.test/r',
        '--no-color',
      ]),
    );
    assert.deepEqual(args.inputs, ['a', 'b']);
    assert.equal(args.format, 'sarif');
    assert.equal(args.output, 'out.sarif');
    assert.deepEqual(args.definitions, ['defs1', 'defs2']);
    assert.equal(args.cloud, 'AzureChinaCloud');
    assert.deepEqual(args.severities, { PS1002: 'warning', PS4001: 'off' });
    assert.equal(args.minSeverity, 'hint');
    assert.equal(args.jobs, 64);
    assert.equal(args.maxWarnings, 0);
    assert.equal(args.strict, true);
    assert.equal(args.errorOnUnmatched, false);
    assert.equal(args.quiet, true);
    assert.equal(args.docsBaseUrl, 'https://example.test/r');
    assert.equal(inFolder(undefined, () => parseLintArgs(['a', '-f', 'json'])).format, 'json');
    assert.equal(inFolder(undefined, () => parseLintArgs(['a', '--format', 'text'])).format, 'text');
    assert.equal(inFolder(undefined, () => parseLintArgs(['a', '--jobs', '1'])).jobs, 1);
    assert.equal(inFolder(undefined, () => parseLintArgs(['a', '--max-warnings=-1'])).maxWarnings, undefined);
    assert.equal(inFolder(undefined, () => parseLintArgs(['a', '--max-warnings', '12'])).maxWarnings, 12);
  });

  test('standard input, its name, --print-config and --list-rules need no input', () => {
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['--stdin'])).stdin, { name: '<stdin>', given: false });
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['--stdin', '--stdin-filename', 's.json'])).stdin, {
      name: 's.json',
      given: true,
    });
    assert.equal(inFolder(undefined, () => parseLintArgs(['--print-config', 'x.json'])).printConfig, 'x.json');
    assert.equal(inFolder(undefined, () => parseLintArgs(['--list-rules'])).listRules, true);
  });

  test('fixes: write or not, and the kinds once each', () => {
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['a', '--fix'])).fix, { write: true });
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['a', '--fix-dry-run'])).fix, { write: false });
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['--stdin', '--fix-dry-run'])).fix, { write: false });
    assert.deepEqual(inFolder(undefined, () => parseLintArgs(['a', '--fix', '--fix-type', 'casing, typo', '--fix-type', 'casing'])).fix, {
      write: true,
      kinds: ['casing', 'typo'],
    });
  });
});

describe('the config file and the flags', () => {
  const config = {
    rules: { PS1002: 'off', 'duplicate-reference-id': 'warning' },
    cloud: 'AzureUSGovernment',
    minSeverity: 'warning',
    maxWarnings: 3,
    definitions: ['from-config'],
    ignore: ['skip/**'],
    docsBaseUrl: 'https://config.test/',
    strict: true,
    errorOnUnmatchedPattern: false,
  };

  test('the nearest .policysetrc.json gives every setting the flags leave', () => {
    inFolder(config, (folder) => {
      const args = parseLintArgs(['a']);
      assert.deepEqual(args.severities, { PS1002: 'off', PS4001: 'warning' });
      assert.equal(args.cloud, 'AzureUSGovernment');
      assert.equal(args.minSeverity, 'warning');
      assert.equal(args.maxWarnings, 3);
      assert.deepEqual(args.definitions, [path.join(folder, 'from-config')], 'relative to the file');
      assert.equal(args.docsBaseUrl, 'https://config.test/');
      assert.equal(args.strict, true);
      assert.equal(args.errorOnUnmatched, false);
      assert.equal(args.config?.file, path.join(folder, '.policysetrc.json'));
      assert.equal(args.ignoreSources, `'ignore' in ${path.join(folder, '.policysetrc.json')}`);
      assert.equal(args.ignored?.(path.join(folder, 'skip', 'x.json')), true);
      assert.equal(args.ignored?.(path.join(folder, 'keep', 'x.json')), false);
    });
  });

  test('a flag wins over the file, rule by rule; lists add up', () => {
    inFolder(config, (folder) => {
      const args = parseLintArgs([
        'a',
        '--rule',
        'PS1002=error',
        '--cloud',
        'AzureCloud',
        '--min-severity',
        'info',
        '--max-warnings=-1',
        '-d',
        'from-flag',
        '--docs-base-url',
        'https://flag.test/',
        '--no-strict',
        '--ignore-pattern',
        'more/**',
      ]);
      assert.deepEqual(args.severities, { PS1002: 'error', PS4001: 'warning' });
      assert.equal(args.cloud, 'AzureCloud');
      assert.equal(args.minSeverity, 'info');
      assert.equal(args.maxWarnings, undefined, "--max-warnings -1 lifts the file's limit");
      assert.deepEqual(args.definitions, [path.join(folder, 'from-config'), 'from-flag']);
      assert.equal(args.docsBaseUrl, 'https://flag.test/');
      assert.equal(args.strict, false);
      assert.equal(args.ignoreSources, `'ignore' in ${path.join(folder, '.policysetrc.json')} and --ignore-pattern`);
      assert.equal(args.ignored?.(path.join(folder, 'skip', 'x.json')), true);
      assert.equal(args.ignored?.(path.join(folder, 'more', 'x.json')), true);
      assert.equal(args.ignored?.(path.join(folder, 'x.json')), false);
      assert.equal(parseLintArgs(['a', '--no-ignore', '--ignore-pattern', 'more/**']).ignored, undefined);
      assert.equal(parseLintArgs(['a', '--strict']).strict, true);
    });
    inFolder({ strict: false }, () => assert.equal(parseLintArgs(['a', '--strict']).strict, true));
  });

  test('colour: on a terminal unless --no-color, -o or NO_COLOR', () => {
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    const noColor = process.env.NO_COLOR;
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true, writable: true });
    delete process.env.NO_COLOR;
    try {
      inFolder(undefined, () => {
        assert.equal(parseLintArgs(['a']).color, true);
        assert.equal(parseLintArgs(['a', '--no-color']).color, false);
        assert.equal(parseLintArgs(['a', '-o', 'report.txt']).color, false);
        process.env.NO_COLOR = '1';
        assert.equal(parseLintArgs(['a']).color, false);
      });
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
      if (noColor === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = noColor;
    }
  });

  test('a config file without ignore patterns is not named as their source', () => {
    inFolder({ cloud: 'AzureCloud' }, (folder) => {
      const args = parseLintArgs(['a', '--ignore-pattern', 'gen/**']);
      assert.equal(args.ignoreSources, '--ignore-pattern');
      assert.equal(args.ignored?.(path.join(folder, 'src', 'x.json')), false);
      assert.equal(parseLintArgs(['a']).ignored, undefined);
    });
  });

  test('--against: a commit of the repository, with what a reference added or removed asks for and the consumers', () => {
    inFolder(undefined, (folder) => {
      const refused = (args: string[], message: string) =>
        assert.throws(
          () => parseLintArgs(args),
          (e: unknown) => e instanceof UsageError && e.message === message,
          message,
        );
      refused(['a', '--against', 'HEAD'], `--against HEAD: ${folder} is not in a git repository`);
      const git = (...args: string[]) => {
        const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], {
          cwd: folder,
          encoding: 'utf8',
        });
        assert.equal(result.status, 0, result.stderr);
      };
      git('init', '-q');
      fs.writeFileSync(path.join(folder, 'a.json'), '{}');
      git('add', 'a.json');
      git('commit', '-q', '-m', 'one');
      assert.deepEqual(parseLintArgs(['a', '--against', 'HEAD']).against, {
        revision: 'HEAD',
        referenceAdded: 'minor',
        referenceRemoved: 'major',
      });
      assert.deepEqual(
        parseLintArgs([
          'a',
          '--against',
          'HEAD',
          '--reference-added',
          'major',
          '--reference-removed',
          'minor',
          '--consumers',
          'x',
          '--consumers',
          'y',
        ]).against,
        { revision: 'HEAD', referenceAdded: 'major', referenceRemoved: 'minor', consumerPaths: ['x', 'y'] },
      );
      refused(['a', '--against', 'no-such-branch'], '--against no-such-branch: no such commit in this repository');
      assert.equal(parseLintArgs(['a', '--reference-added', 'major']).against, undefined, 'without --against: checked, not used');
    });
  });

  test('only --ignore-pattern: the flag alone is the source', () => {
    inFolder(undefined, (folder) => {
      const args = parseLintArgs(['a', '--ignore-pattern', 'gen/**']);
      assert.equal(args.ignoreSources, '--ignore-pattern');
      assert.equal(args.ignored?.(path.join(folder, 'gen', 'x.json')), true);
      assert.equal(args.ignored?.(path.join(folder, 'src', 'x.json')), false);
    });
  });

  test('--no-config reads none; -c reads the one named; a broken file is an input error naming it', () => {
    inFolder(config, (folder) => {
      assert.equal(parseLintArgs(['a', '--no-config']).config, undefined);
      assert.equal(parseLintArgs(['a', '--no-config']).cloud, undefined);
      fs.writeFileSync(path.join(folder, 'other.json'), JSON.stringify({ cloud: 'AzureChinaCloud' }));
      assert.equal(parseLintArgs(['a', '-c', 'other.json']).cloud, 'AzureChinaCloud');
      fs.writeFileSync(path.join(folder, 'bad.json'), JSON.stringify({ clouds: 'x' }));
      assert.throws(
        () => parseLintArgs(['a', '-c', 'bad.json']),
        (e: unknown) =>
          e instanceof InputError && !(e instanceof UsageError) && e.message.includes('bad.json') && e.message.includes('clouds'),
      );
    });
  });

  test('a config file in a parent folder is found; a config cloud that is wrong is said as the flag would be', () => {
    inFolder({ minSeverity: 'error' }, (folder) => {
      const inner = path.join(folder, 'deep', 'er');
      fs.mkdirSync(inner, { recursive: true });
      process.chdir(inner);
      assert.equal(parseLintArgs(['a']).minSeverity, 'error');
    });
  });
});
