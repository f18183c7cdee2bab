// What the CLI knows of its own commands (server/src/cli/help.ts) and main's reading of `--max-warnings -1`
// (negativeValuesJoined in server/src/cli/main.ts), in-process: the top-level usage, the exit status table, the
// subcommands read from a usage text, the command path of a usage error and its hint, "did you mean" for a
// command or an option, and `-o json` refused. Expected values are written out by hand from docs/cli.md ("Help,
// rules and did you mean", the exit status table) and the registry's synopses and usage texts
// (server/src/cli/commands). Where a case needs a usage text no command has, a command is added to the
// registry for that test and taken out after it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  HELP_EXIT_STATUS,
  checkOutputIsNotFormat,
  commandHelpHint,
  commandPathOf,
  exitStatusTable,
  optionsIn,
  subcommandsOf,
  suggestOption,
  topLevelCommands,
  topUsage,
  unknownCommand,
  usageOf,
} from '#server/cli/help';
import { negativeValuesJoined } from '#server/cli/main';
import { COMMANDS } from '#server/cli/commands/index';
import type { CommandModule } from '#server/cli/command';
import { UsageError } from '#server/node/files';

const COMMAND_NAMES = [
  'lint',
  'fetch',
  'diff',
  'deploy',
  'advisor',
  'eventstream',
  'quota',
  'evaluate',
  'test',
  'rules',
  'mcp',
  'completion',
  'model',
  'definitions',
];

/** Runs `body` with a command 'bogus' of this module in the registry. */
function withBogus<T>(module: Partial<CommandModule>, body: () => T): T {
  COMMANDS.bogus = { synopsis: 'policyset bogus', load: () => ({ usage: '', run: async () => 0, ...module }) };
  try {
    return body();
  } finally {
    delete COMMANDS.bogus;
  }
}

function usageOfModule(name: string): string {
  return COMMANDS[name].load().usage;
}

describe('topUsage and the command lists', () => {
  test("policyset --help: lint's synopsis, every other command's padded to 45 with where its help is, then lint's usage", () => {
    const expected = `Usage: policyset lint <files or folders...> [options]
       policyset fetch <name> [options]              (policyset fetch --help)
       policyset diff <old> <new> | --against <rev>  (policyset diff --help)
       policyset deploy <file> [options]             (policyset deploy --help)
       policyset advisor metadata [options]          (policyset advisor --help)
       policyset eventstream get|delete <ws> <id>    (policyset eventstream --help)
       policyset quota usage|calc|simulate|plan|where ... (policyset quota --help)
       policyset evaluate <set or definition> --resource <file> [options] (policyset evaluate --help)
       policyset test [paths...] [--format text|json|sarif|junit] (policyset test --help)
       policyset rules [--format text|json]          (policyset rules --help)
       policyset mcp [--folder <folder>]             (policyset mcp --help)
       policyset completion bash|zsh|fish            (policyset completion --help)
       policyset model deploy|apply [options]        (policyset model --help)
       policyset definitions index <folder> [-o index.json] (policyset definitions --help)
       policyset help <command>                      (a command's options and examples)

`;
    const usage = topUsage();
    assert.equal(usage.slice(0, expected.length), expected);
    assert.equal(usage.slice(expected.length), usageOfModule('lint'));
  });

  test('the top-level commands: the registry’s, then help', () => {
    assert.deepEqual(topLevelCommands(), [...COMMAND_NAMES, 'help']);
  });

  test("help's exit statuses (docs/cli.md's table)", () => {
    assert.deepEqual(HELP_EXIT_STATUS, { 0: 'done', 2: 'usage problems (an unknown command)' });
  });

  test("the exit status table: a row per command path, a group's subcommands and eventstream's two, help last", () => {
    const rows = exitStatusTable();
    assert.deepEqual(
      rows.map((r) => r.command),
      [
        'lint',
        'fetch',
        'diff',
        'deploy',
        'advisor metadata',
        'eventstream get',
        'eventstream delete',
        'quota usage',
        'quota calc',
        'quota simulate',
        'quota plan',
        'quota where',
        'evaluate',
        'test',
        'rules',
        'mcp',
        'completion',
        'model deploy',
        'model apply',
        'definitions index',
        'help',
      ],
    );
    const of = (command: string) => rows.find((r) => r.command === command)?.statuses;
    assert.deepEqual(of('eventstream get'), { 0: 'done', 2: 'usage, input, sign-in or service problems (ItemNotFound too)' });
    assert.deepEqual(of('eventstream delete'), {
      0: 'done',
      1: 'not confirmed',
      2: 'usage, input, sign-in or service problems (ItemNotFound too)',
    });
    assert.deepEqual(of('quota calc'), { 0: 'done', 2: 'usage problems (an unknown model, a size that is not valid)' });
    assert.deepEqual(of('rules'), { 0: 'done', 2: 'usage problems' });
    assert.deepEqual(of('help'), { 0: 'done', 2: 'usage problems (an unknown command)' });
  });

  test('a command that says nothing of its exit statuses stops the table; one that does two things has a row each', () => {
    assert.throws(
      () => withBogus({}, () => exitStatusTable()),
      (error: unknown) =>
        error instanceof Error &&
        error.message === 'policyset bogus says nothing of its exit statuses (export exitStatus beside its usage)',
    );
    const two = { get: { 0: 'got', 2: 'bad' }, put: { 0: 'put', 1: 'refused', 2: 'bad' } };
    const rows = withBogus({ exitStatus: two }, () => exitStatusTable());
    assert.deepEqual(rows.slice(-3), [
      { command: 'bogus get', statuses: { 0: 'got', 2: 'bad' } },
      { command: 'bogus put', statuses: { 0: 'put', 1: 'refused', 2: 'bad' } },
      { command: 'help', statuses: { 0: 'done', 2: 'usage problems (an unknown command)' } },
    ]);
  });
});

describe('subcommandsOf and usageOf', () => {
  test("a group's subcommands, and the words a usage names after the command", () => {
    assert.deepEqual(subcommandsOf('quota'), ['usage', 'calc', 'simulate', 'plan', 'where']);
    assert.deepEqual(subcommandsOf('model'), ['deploy', 'apply']);
    assert.deepEqual(subcommandsOf('definitions'), ['index']);
    assert.deepEqual(subcommandsOf('eventstream'), ['get', 'delete']);
    assert.deepEqual(subcommandsOf('advisor'), ['metadata']);
    assert.deepEqual(subcommandsOf('completion'), ['bash', 'zsh', 'fish']);
    // Placeholders, options, paths and examples are no subcommands.
    for (const name of ['lint', 'fetch', 'diff', 'deploy', 'evaluate', 'test', 'rules', 'mcp'])
      assert.deepEqual(subcommandsOf(name), [], name);
    for (const name of ['nosuch', 'help', 'toString', 'constructor', '__proto__', '']) assert.deepEqual(subcommandsOf(name), [], name);
  });

  test('which usage lines name subcommands: at a line’s start (after Usage: or spaces), lower-case words with dashes, alternatives', () => {
    const usage = [
      'Usage: policyset bogus alpha|beta-two <x>',
      '       policyset bogus gamma',
      'see policyset bogus delta',
      '  policyset bogus Epsilon',
      '  policyset bogus zeta9',
      '  policyset bogus eta|Theta',
      '\tpolicyset bogus iota\tx',
      'Usage:policyset bogus kappa',
      '  policyset bogusx lambda',
      '  policyset bogus -mu',
      '  policyset bogus nu- x',
      '  policyset bogus alpha again',
      '  policyset  bogus xi',
      '  policyset bogus omicron/',
    ].join('\n');
    assert.deepEqual(
      withBogus({ usage }, () => subcommandsOf('bogus')),
      ['alpha', 'beta-two', 'gamma', 'iota', 'kappa', 'nu-'],
    );
  });

  test("a group's subcommands are its own, whatever its usage says", () => {
    const leaf = (usage: string): CommandModule => ({ usage, run: async () => 0 });
    const subcommands = { one: () => leaf('Usage: policyset bogus one'), two: () => leaf('') };
    assert.deepEqual(
      withBogus({ usage: 'Usage: policyset bogus three', subcommands }, () => subcommandsOf('bogus')),
      ['one', 'two'],
    );
  });

  test("the usage of words: the subcommand's own, else the command's; lint's is the top usage; none for an unknown command", () => {
    assert.equal(usageOf(['lint']), topUsage());
    assert.equal(usageOf(['lint', 'x.json']), topUsage());
    const quotaCalc = COMMANDS.quota.load().subcommands?.calc().usage;
    assert.ok(quotaCalc?.startsWith('Usage: policyset quota calc --model <name>'));
    assert.equal(usageOf(['quota', 'calc']), quotaCalc);
    assert.equal(usageOf(['quota', 'calc', '--tpm', '5']), quotaCalc);
    for (const words of [['quota'], ['quota', 'nosuch'], ['quota', 'toString'], ['quota', '--help']])
      assert.equal(usageOf(words), usageOfModule('quota'), words.join(' '));
    assert.equal(usageOf(['eventstream', 'get']), usageOfModule('eventstream'));
    assert.equal(usageOf(['diff', 'a.json']), usageOfModule('diff'));
    for (const words of [['nosuch'], ['toString'], ['help'], []]) assert.equal(usageOf(words), undefined, words.join(' '));
  });
});

describe('the command path of a usage error, its hint, and an unknown command', () => {
  test('commandPathOf: the command, with its subcommand when it is a group’s', () => {
    assert.equal(commandPathOf([]), undefined);
    assert.equal(commandPathOf(['lint']), 'lint');
    assert.equal(commandPathOf(['lint', 'sets', '--bogus']), 'lint');
    assert.equal(commandPathOf(['quota', 'usage', '--subscription', 'x']), 'quota usage');
    assert.equal(commandPathOf(['quota']), 'quota');
    assert.equal(commandPathOf(['quota', '--help']), 'quota');
    assert.equal(commandPathOf(['quota', 'nosuch']), 'quota');
    assert.equal(commandPathOf(['quota', 'toString']), 'quota');
    assert.equal(commandPathOf(['eventstream', 'get', 'w', 'i']), 'eventstream');
    assert.equal(commandPathOf(['model', 'apply', 'plan.json']), 'model apply');
    for (const argv of [['nosuch'], ['toString'], ['--help'], ['help', 'lint'], ['']])
      assert.equal(commandPathOf(argv), undefined, argv.join(' '));
  });

  test("the hint after a usage error: Run 'policyset quota usage --help' for usage.", () => {
    assert.equal(commandHelpHint(['quota', 'usage', '--bogus']), "Run 'policyset quota usage --help' for usage.");
    assert.equal(commandHelpHint(['lint', 'a.json']), "Run 'policyset lint --help' for usage.");
    assert.equal(commandHelpHint(['qouta', 'usage']), "Run 'policyset --help' for usage.");
    assert.equal(commandHelpHint([]), "Run 'policyset --help' for usage.");
  });

  test('an unknown command: the nearest one (a swap of two letters is one mistake), and the commands', () => {
    const commands =
      '(the commands: lint, fetch, diff, deploy, advisor, eventstream, quota, evaluate, test, rules, mcp, completion, model, definitions, help)';
    const error = unknownCommand('qouta');
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, `unknown command 'qouta'; did you mean 'quota'? ${commands}`);
    assert.equal(unknownCommand('hlep').message, `unknown command 'hlep'; did you mean 'help'? ${commands}`);
    assert.equal(unknownCommand('Lint').message, `unknown command 'Lint'; did you mean 'lint'? ${commands}`);
    assert.equal(unknownCommand('xyzzy').message, `unknown command 'xyzzy' ${commands}`);
    assert.equal(unknownCommand('').message, `unknown command '' ${commands}`);
  });
});

describe('optionsIn and suggestOption', () => {
  test('the long options a usage names, once each, in order; not a dash run inside a word, nor upper case', () => {
    const usage = [
      '  -f, --format <text|json>   Output (--format again)',
      '      --no-color             x',
      '      --max-warnings-1 a--b --Upper --x9 ---triple x--y --9 _--under',
      '      (--paren) [--bracket] --format',
    ].join('\n');
    assert.deepEqual(optionsIn(usage), ['--format', '--no-color', '--max-warnings-1', '--x9', '--paren', '--bracket']);
    assert.deepEqual(optionsIn('no options here - at all'), []);
  });

  test("an unknown option gets the nearest one of its own command's usage (docs/cli.md: --subscriptoin)", () => {
    assert.equal(suggestOption('--subscriptoin', ['quota', 'usage', '--subscriptoin', 'x']), "; did you mean '--subscription'?");
    assert.equal(suggestOption('--formt', ['lint', 'a.json']), "; did you mean '--format'?");
    assert.equal(suggestOption('--max-warning', ['lint']), "; did you mean '--max-warnings'?");
    assert.equal(suggestOption('--usge', ['quota', 'plan', 'p.json']), "; did you mean '--usage'?");
    // quota calc names no --location (quota usage does): the subcommand's usage is the one read.
    assert.equal(suggestOption('--locaton', ['quota', 'calc']), '');
    assert.equal(suggestOption('--locaton', ['quota']), "; did you mean '--location'?");
  });

  test('no suggestion: a short option, nothing near, an unknown command, no command', () => {
    assert.equal(suggestOption('-x', ['lint']), '');
    assert.equal(suggestOption('-formt', ['lint']), '');
    assert.equal(suggestOption('--zzzzzzzzzz', ['lint']), '');
    assert.equal(suggestOption('--formt', ['nosuch']), '');
    assert.equal(suggestOption('--formt', []), '');
  });
});

describe('checkOutputIsNotFormat: -o given a format name', () => {
  const refused = (argv: string[], value: string, format: string) =>
    assert.throws(
      () => checkOutputIsNotFormat(argv),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.equal(
          error.message,
          `-o ${value}: did you mean --format ${format}? (-o names the output file; for a file of that name write -o ./${value})`,
        );
        return true;
      },
      argv.join(' '),
    );

  test('docs/cli.md: -o json (and text, sarif, table, markdown, tsv, yaml, jsonc), in each spelling of -o', () => {
    refused(['a.json', '-o', 'json'], 'json', 'json');
    for (const format of ['text', 'sarif', 'table', 'markdown', 'tsv', 'yaml', 'jsonc']) refused(['-o', format], format, format);
    refused(['--output', 'sarif'], 'sarif', 'sarif');
    refused(['--output=text'], 'text', 'text');
    refused(['-ojson'], 'json', 'json');
    refused(['-o=table'], 'table', 'table');
    refused(['-oJSON'], 'JSON', 'json');
    refused(['-o', 'Markdown', 'x'], 'Markdown', 'markdown');
    refused(['-o', 'report.json', '-o', 'json'], 'json', 'json');
  });

  test('a file name, the format option, -o at the end, and anything after -- pass', () => {
    for (const argv of [
      [],
      ['-o', './json'],
      ['-o', 'report.json'],
      ['-o', 'json.txt'],
      ['--format', 'json'],
      ['-f', 'json'],
      ['json'],
      ['-o'],
      ['a.json', '--output'],
      ['-o', 'x', 'json'],
      ['--', '-o', 'json'],
      ['a', '--', '--output=json'],
      ['--output-file', 'json'],
      ['--outputs=json'],
      ['--ojson'],
      ['x-ojson'],
      ['-oj'],
      ['-ojs=on'],
      ['-o=./json'],
      ['-p', 'json'],
    ])
      assert.doesNotThrow(() => checkOutputIsNotFormat(argv), argv.join(' '));
  });
});

describe('negativeValuesJoined: --max-warnings -1 as the help writes it', () => {
  test('a long option then a negative whole number: one argument --option=-n', () => {
    assert.deepEqual(negativeValuesJoined(['--max-warnings', '-1']), ['--max-warnings=-1']);
    assert.deepEqual(negativeValuesJoined(['a.json', '--max-warnings', '-12', 'b.json']), ['a.json', '--max-warnings=-12', 'b.json']);
    assert.deepEqual(negativeValuesJoined(['--x', '-1', '--y', '-2']), ['--x=-1', '--y=-2']);
    assert.deepEqual(negativeValuesJoined(['--x', '--y', '-1']), ['--x', '--y=-1']);
    assert.deepEqual(negativeValuesJoined(['--x', '-1', '-2']), ['--x=-1', '-2']);
    assert.deepEqual(negativeValuesJoined(['--a_b', '-1']), ['--a_b=-1']);
    assert.deepEqual(negativeValuesJoined(['--Max-Warnings', '-0']), ['--Max-Warnings=-0']);
  });

  test('anything else is left as it is', () => {
    for (const args of [
      [],
      ['--max-warnings'],
      ['--max-warnings', '1'],
      ['--max-warnings', '-1x'],
      ['--max-warnings', '-'],
      ['--max-warnings', '--1'],
      ['--max-warnings', 'x-1'],
      ['-m', '-1'],
      ['--9', '-1'],
      ['---x', '-1'],
      ['--x=1', '-1'],
      ['x--y', '-1'],
      ['--', '--max-warnings', '-1'],
      ['-1', '--x'],
    ])
      assert.deepEqual(negativeValuesJoined(args), args, args.join(' '));
    assert.deepEqual(negativeValuesJoined(['--x', '-1', '--', '--y', '-2']), ['--x=-1', '--', '--y', '-2']);
    assert.deepEqual(negativeValuesJoined(['a', '--', '--', 'b']), ['a', '--', '--', 'b']);
  });
});
