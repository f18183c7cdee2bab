// .policysetrc.json and ESLint's flags, through the CLI as a user runs it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, runCli, type RunResult } from '../support/run';
import { REPO_ROOT } from '../support/corpus';
import { cleanSet } from '../support/sets';

let dir: string;
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};

/** A clean set with one parameter no reference uses: one PS7003 (unused-parameter) warning. */
function setWithWarning(name: string): string {
  const set = cleanSet(name, name) as { properties: { parameters: Record<string, unknown> } };
  set.properties.parameters.unused = { type: 'String' };
  return JSON.stringify(set, null, 2);
}
const BROKEN = JSON.stringify(cleanSet('broken', 'Broken'), null, 2).replace(
  '"groupNames": [\n          "Network"',
  '"groupNames": [\n          "Netwrok"',
);

function runWithStdin(args: string[], input: string, cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, milliseconds: 0 }));
    child.stdin.end(input);
  });
}

const codes = (stdout: string) =>
  (JSON.parse(stdout) as { files: Array<{ file: string; diagnostics: Array<{ code: string; severity: string }> }> }).files.flatMap((f) =>
    f.diagnostics.map((d) => d.code),
  );

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-config-'));
  write('project/sets/deep/warned.json', setWithWarning('warned'));
  write('project/sets/clean.json', JSON.stringify(cleanSet('clean', 'Clean'), null, 2));
  write('project/sets/notes.txt', 'not json');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('.policysetrc.json', () => {
  test('a config in a parent folder turns a rule off (JSON with comments); without it the rule reports', async () => {
    const project = path.join(dir, 'project');
    const cwd = path.join(project, 'sets');
    const before = await runCli(['lint', '.', '-f', 'json'], { cwd });
    assert.deepEqual(codes(before.stdout), ['PS7003']);
    write('project/.policysetrc.json', '// the team\'s choices\n{\n  "rules": { "PS7003": "off", }, /* trailing commas too */\n}\n');
    try {
      const after = await runCli(['lint', '.', '-f', 'json'], { cwd });
      assert.equal(after.code, 0, after.stderr);
      assert.deepEqual(codes(after.stdout), []);
      // --no-config: the file is not read.
      const none = await runCli(['lint', '.', '-f', 'json', '--no-config'], { cwd });
      assert.deepEqual(codes(none.stdout), ['PS7003']);
      // Flags over the file: --rule by name overrides the file's code.
      const flag = await runCli(['lint', '.', '-f', 'json', '--rule', 'unused-parameter=error'], { cwd });
      assert.equal(flag.code, 1);
      assert.deepEqual(codes(flag.stdout), ['PS7003']);
    } finally {
      fs.rmSync(path.join(project, '.policysetrc.json'));
    }
  });

  test('an unknown key is exit 2 naming the key and the file, with did you mean; so is a bad value', async () => {
    const cwd = write('typo/sets/a.json', setWithWarning('a')).replace(/a\.json$/, '');
    const config = write('typo/.policysetrc.json', '{ "rulez": { "PS7003": "off" } }');
    const result = await runCli(['lint', '.'], { cwd });
    assert.equal(result.code, 2);
    assert.ok(result.stderr.includes(config), result.stderr);
    assert.match(result.stderr, /unknown key 'rulez'; did you mean 'rules'\?/);
    assert.equal(result.stdout, '', 'nothing linted with a broken config');
    for (const [text, pattern] of [
      [
        '{ "rules": { "PS7003": "of" } }',
        /'rules'\.'PS7003' takes "error", "warning", "info", "hint" or "off", not "of"; did you mean 'off'\?/,
      ],
      ['{ "rules": { "PS7033": "off" } }', /no rule 'PS7033'; did you mean 'PS7003'\?/],
      ['{ "strict": "yes" }', /'strict' takes true or false, not "yes"/],
      ['{ "cloud": "AzureCloudd" }', /'cloud' takes AzureCloud, AzureUSGovernment, AzureChinaCloud/],
      ['{ "maxWarnings": -3 }', /'maxWarnings' takes a whole number from 0/],
      ['{ "rules": ', /not valid JSON at line 1, column \d+/],
      ['['.repeat(200_000) + ']'.repeat(200_000), /nested too deeply to be a config file/],
    ] as const) {
      fs.writeFileSync(config, text);
      const bad = await runCli(['lint', '.'], { cwd });
      assert.equal(bad.code, 2, text);
      assert.match(bad.stderr, pattern);
      assert.ok(bad.stderr.includes(config), bad.stderr);
    }
  });

  test('strict, cloud, minSeverity, maxWarnings and definitions come from the file; -c names another file', async () => {
    const cwd = path.dirname(write('keys/sets/w.json', setWithWarning('w')));
    write('keys/.policysetrc.json', '{ "maxWarnings": 0 }');
    const tooMany = await runCli(['lint', '.'], { cwd });
    assert.equal(tooMany.code, 1, tooMany.stderr);
    assert.match(tooMany.stderr, /too many warnings: 1, and at most 0 are allowed/);
    assert.equal((await runCli(['lint', '.', '--max-warnings', '1'], { cwd })).code, 0, 'the flag wins over the file');
    write('keys/.policysetrc.json', '{ "minSeverity": "error" }');
    assert.deepEqual(codes((await runCli(['lint', '.', '-f', 'json'], { cwd })).stdout), []);
    write('keys/.policysetrc.json', '{ "strict": true }');
    const notes = write('keys/sets/notes.txt', 'not json');
    const strict = await runCli(['lint', notes, 'w.json'], { cwd });
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /notes\.txt: not checked \(--strict\)/);
    assert.equal((await runCli(['lint', notes, 'w.json', '--no-strict'], { cwd })).code, 0);
    const other = write('elsewhere/other.json', '{ "rules": { "unused-parameter": "off" } }');
    assert.deepEqual(codes((await runCli(['lint', '.', '-f', 'json', '-c', other], { cwd })).stdout), []);
    fs.rmSync(notes);
  });

  test("the quota commands take 'capacityUnits' and quota plan 'usage' from the file (relative to it)", async () => {
    const project = path.join(dir, 'quota');
    const cwd = path.join(project, 'plans');
    fs.mkdirSync(cwd, { recursive: true });
    write(
      'quota/tables/units.json',
      '{ "classes": { "team-class": { "rpm": 12, "tpm": 1000 } }, "models": { "team-model": "team-class" } }',
    );
    const usage = {
      subscription: 'sub',
      location: 'eastus',
      value: [{ name: { value: 'OpenAI.Standard.gpt-4o' }, currentValue: 95, limit: 100, unit: 'Count' }],
    };
    write('quota/usage/eastus.json', JSON.stringify(usage));
    write(
      'quota/plans/p.deployment-plan.json',
      '{ "region": "eastus", "deployments": [ { "account": "a", "name": "chat", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 6 } } ] }',
    );
    const before = await runCli(['quota', 'calc', '--model', 'team-model', '--capacity', '1'], { cwd });
    assert.equal(before.code, 2, 'unknown without the file');
    assert.equal((await runCli(['quota', 'plan', 'p.deployment-plan.json'], { cwd })).code, 0, 'no usage: the quota is not checked');
    write('quota/.policysetrc.json', '{ "capacityUnits": "tables/units.json", "usage": ["usage/eastus.json"] }');
    const calc = await runCli(['quota', 'calc', '--model', 'team-model', '--capacity', '1', '--format', 'json'], { cwd });
    assert.equal(calc.code, 0, calc.stderr);
    assert.equal((JSON.parse(calc.stdout) as { rpm: number }).rpm, 12);
    const plan = await runCli(['quota', 'plan', 'p.deployment-plan.json'], { cwd });
    assert.equal(plan.code, 1, plan.stdout + plan.stderr);
    assert.match(plan.stdout, /PS9103/);
  });

  test('--print-config shows what a file is linted with', async () => {
    const cwd = path.dirname(write('print/sets/w.json', setWithWarning('w')));
    const config = write(
      'print/.policysetrc.json',
      '{ "rules": { "unused-parameter": "error" }, "cloud": "AzureChinaCloud", "definitions": ["defs"], "ignore": ["legacy/"] }',
    );
    const result = await runCli(['lint', '--print-config', 'w.json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as {
      configFile: string;
      cloud: string;
      definitions: string[];
      rules: Record<string, string>;
      ignored: boolean;
    };
    assert.equal(printed.configFile, config);
    assert.equal(printed.cloud, 'AzureChinaCloud');
    assert.deepEqual(printed.definitions, [path.join(dir, 'print', 'defs')], 'relative to the config file');
    assert.equal(printed.rules.PS7003, 'error');
    assert.equal(printed.rules.PS5001, 'error');
    assert.equal(printed.ignored, false);
    const ignored = JSON.parse((await runCli(['lint', '--print-config', path.join(dir, 'print/legacy/x.json')], { cwd })).stdout) as {
      ignored: boolean;
    };
    assert.equal(ignored.ignored, true);
  });
});

describe("ESLint's flags", () => {
  const cwd = () => path.join(dir, 'project');

  test('--max-warnings 0 with one warning exits 1; -1 is no limit; a bad number is exit 2', async () => {
    const result = await runCli(['lint', 'sets', '--max-warnings', '0'], { cwd: cwd() });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /1 warning/);
    // Never a ✔ above a failing exit: the summary says why it fails.
    assert.doesNotMatch(result.stdout, /✔/);
    assert.match(result.stdout, /^✖ 0 errors, 1 warning in .*; more warnings than --max-warnings 0 allows$/m);
    assert.equal((await runCli(['lint', 'sets', '--max-warnings', '1'], { cwd: cwd() })).code, 0);
    assert.equal((await runCli(['lint', 'sets', '--max-warnings=-1'], { cwd: cwd() })).code, 0);
    // As the help writes it (default: -1), with a space.
    assert.equal((await runCli(['lint', 'sets', '--max-warnings', '-1'], { cwd: cwd() })).code, 0);
    assert.equal((await runCli(['lint', 'sets'], { cwd: cwd() })).code, 0);
    assert.equal((await runCli(['lint', 'sets', '--max-warnings', 'many'], { cwd: cwd() })).code, 2);
  });

  test('--quiet reports errors only, and warnings still count for --max-warnings', async () => {
    const quiet = await runCli(['lint', 'sets', '--quiet', '-f', 'json'], { cwd: cwd() });
    assert.equal(quiet.code, 0);
    assert.deepEqual(codes(quiet.stdout), []);
    const text = await runCli(['lint', 'sets', '--quiet', '--no-color'], { cwd: cwd() });
    assert.doesNotMatch(text.stdout, /warning +Parameter/);
    assert.equal((await runCli(['lint', 'sets', '--quiet', '--max-warnings', '0'], { cwd: cwd() })).code, 1);
    const broken = write('quiet/broken.json', BROKEN);
    const errors = await runCli(['lint', broken, '--quiet', '-f', 'json']);
    assert.deepEqual(codes(errors.stdout), ['PS5001']);
  });

  test('--stdin with --stdin-filename gives the same errors as linting the file, under its name', async () => {
    const file = write('stdin/sets/broken.json', BROKEN);
    const onDisk = await runCli(['lint', 'sets/broken.json', '-f', 'json'], { cwd: path.join(dir, 'stdin') });
    const piped = await runWithStdin(
      ['lint', '--stdin', '--stdin-filename', 'sets/broken.json', '-f', 'json'],
      BROKEN,
      path.join(dir, 'stdin'),
    );
    assert.equal(piped.code, 1, piped.stderr);
    assert.deepEqual(JSON.parse(piped.stdout), JSON.parse(onDisk.stdout));
    assert.match(piped.stdout, /sets\/broken\.json/);
    write('stdin/.policysetrc.json', '{ "ignore": ["legacy/"] }');
    const ignored = await runWithStdin(['lint', '--stdin', '--stdin-filename', 'legacy/broken.json'], BROKEN, path.join(dir, 'stdin'));
    assert.equal(ignored.code, 0, ignored.stderr);
    assert.match(ignored.stderr, /legacy\/broken\.json: ignored by 'ignore' in /);
    const unnamed = await runWithStdin(['lint', '--stdin', '--no-color'], BROKEN, dir);
    assert.match(unnamed.stdout, /<stdin>/);
    assert.equal((await runCli(['lint', file, '--stdin'])).code, 2, 'files and --stdin together');
    assert.equal((await runCli(['lint', file, '--stdin-filename', 'x.json'])).code, 2, '--stdin-filename without --stdin');
    // The path decides the dialect: a cloud from an 'Azure Government' folder, as for a file there.
    const printed = JSON.parse((await runCli(['lint', '--print-config', 'Azure Government/x.json'])).stdout) as { cloud: string };
    assert.equal(printed.cloud, 'AzureUSGovernment');
  });

  test("quoted globs lint the files they match; one matching nothing is exit 2; other JSON is skipped, as in a folder's walk", async () => {
    const result = await runCli(['lint', 'sets/**/*.json', '-f', 'json'], { cwd: cwd() });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { files: Array<{ file: string }> };
    assert.deepEqual(report.files.map((f) => f.file).sort(), ['sets/clean.json', 'sets/deep/warned.json']);
    const none = await runCli(['lint', 'nothing/**/*.json'], { cwd: cwd() });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no files match the pattern 'nothing\/\*\*\/\*\.json'/);
    write('globs/a.json', '{ "some": "other JSON" }');
    write('globs/b.json', JSON.stringify(cleanSet('b', 'B'), null, 2));
    write('globs/notes.txt', 'not json');
    // --strict also fails on references not checked against their definitions: an index with the one the set names.
    write(
      'globs-index/index.json',
      JSON.stringify([
        {
          id: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d',
          name: '06a78e20-9358-41c9-923c-fb736d382a4d',
          parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Disabled'] } },
        },
      ]),
    );
    const mixed = await runCli(['lint', 'globs/*', '--strict', '-d', 'globs-index/index.json'], { cwd: dir });
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.match(mixed.stdout, /1 other JSON file skipped/);
    const unchecked = await runCli(['lint', 'globs/*', '--strict'], { cwd: dir });
    assert.equal(unchecked.code, 2);
    assert.match(unchecked.stderr, /1 reference not checked against its definition: 1 to built-in definitions \(1 with none loaded/);
    const onlyText = await runCli(['lint', 'globs/*.txt'], { cwd: dir });
    assert.equal(onlyText.code, 2);
    assert.match(onlyText.stderr, /no \.json or \.jsonc files match the pattern 'globs\/\*\.txt'/);
  });

  test("'ignore' in the config and --ignore-pattern leave files out; '!' takes one back; a named ignored file is said", async () => {
    write('ign/sets/legacy/old.json', BROKEN);
    write('ign/sets/legacy/keep.json', BROKEN);
    write('ign/sets/new.json', JSON.stringify(cleanSet('n', 'N'), null, 2));
    write('ign/.policysetrc.json', '{ "ignore": ["legacy/", "!sets/legacy/keep.json"] }');
    const cwd = path.join(dir, 'ign');
    const result = await runCli(['lint', 'sets', '-f', 'json'], { cwd });
    const report = JSON.parse(result.stdout) as { files: Array<{ file: string }> };
    assert.deepEqual(report.files.map((f) => f.file).sort(), ['sets/legacy/keep.json', 'sets/new.json']);
    const flag = await runCli(['lint', 'sets', '-f', 'json', '--ignore-pattern', 'keep.json'], { cwd });
    assert.deepEqual(
      (JSON.parse(flag.stdout) as { files: Array<{ file: string }> }).files.map((f) => f.file),
      ['sets/new.json'],
    );
    assert.equal(flag.code, 0);
    const named = await runCli(['lint', 'sets/legacy/old.json', 'sets/new.json'], { cwd });
    assert.equal(named.code, 0);
    assert.match(named.stderr, /sets\/legacy\/old\.json: ignored by 'ignore' in .*\.policysetrc\.json \(--no-ignore lints it\)/);
    assert.equal((await runCli(['lint', 'sets', '--no-ignore'], { cwd })).code, 1);
  });
});

describe('help that helps', () => {
  test('a mistyped command, subcommand or option gets "did you mean"; the hint names the command\'s own help', async () => {
    const quota = await runCli(['qouta', 'usage']);
    assert.equal(quota.code, 2);
    assert.match(quota.stderr, /unknown command 'qouta'; did you mean 'quota'\?/);
    assert.match((await runCli(['eventstream', 'gte', 'a', 'b'])).stderr, /did you mean 'eventstream get'\?/);
    assert.match((await runCli(['advisor', 'metdata'])).stderr, /did you mean 'advisor metadata'\?/);
    const sub = await runCli(['quota', 'usgae']);
    assert.match(sub.stderr, /did you mean 'quota usage'\?/);
    assert.match(sub.stderr, /Run 'policyset quota --help'/);
    const option = await runCli(['quota', 'usage', '--subscriptoin', 'x']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /unknown option '--subscriptoin'; did you mean '--subscription'\?/);
    assert.match(option.stderr, /Run 'policyset quota usage --help' for usage\./);
    const lint = await runCli(['lint', '.', '--max-warning', '0']);
    assert.match(lint.stderr, /did you mean '--max-warnings'\?/);
    assert.match(lint.stderr, /Run 'policyset lint --help'/);
    const rule = await runCli(['lint', '.', '--rule', 'unused-paramter=off']);
    assert.match(rule.stderr, /did you mean 'unused-parameter'\? \(the rules: policyset rules, docs\/rules\/README\.md\)/);
  });

  test("policyset help <command> and <command> --help print the command's own options; --items-base-url only where it applies", async () => {
    const deploy = await runCli(['help', 'deploy']);
    assert.equal(deploy.code, 0);
    assert.match(deploy.stdout, /^Usage: policyset deploy/);
    assert.equal((await runCli(['deploy', '--help'])).stdout, deploy.stdout);
    assert.doesNotMatch(deploy.stdout, /--items-base-url/);
    assert.match((await runCli(['help', 'eventstream'])).stdout, /--items-base-url/);
    const usage = await runCli(['help', 'quota', 'usage']);
    assert.match(usage.stdout, /^Usage: policyset quota usage/);
    assert.doesNotMatch(usage.stdout, /quota calc/);
    assert.match((await runCli(['help', 'lint'])).stdout, /--max-warnings/);
    const unknown = await runCli(['help', 'dploy']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /did you mean 'deploy'\?/);
  });

  test('every command has its own help with options and examples, and its usage errors point at it', async () => {
    for (const words of [
      ['lint'],
      ['fetch'],
      ['deploy'],
      ['advisor'],
      ['eventstream'],
      ['quota', 'usage'],
      ['quota', 'calc'],
      ['quota', 'simulate'],
      ['quota', 'plan'],
      ['quota', 'where'],
      ['model', 'deploy'],
      ['model', 'apply'],
      ['rules'],
      ['completion'],
      ['diff'],
      ['mcp'],
      ['evaluate'],
      ['test'],
    ]) {
      const help = await runCli([...words, '--help']);
      assert.equal(help.code, 0, words.join(' '));
      assert.match(help.stdout, new RegExp(`^Usage: policyset ${words.join(' ')}`), words.join(' '));
      assert.match(help.stdout, /\nExamples:\n {2}(policyset|source|cat) /, `${words.join(' ')}: examples`);
      assert.match(help.stdout, /\nExit status: /, `${words.join(' ')}: exit status`);
    }
  });

  test('policyset rules (and lint --list-rules) list every rule, in text and JSON', async () => {
    const json = await runCli(['rules', '--format', 'json']);
    const rules = JSON.parse(json.stdout) as Array<{ code: string; name: string; defaultSeverity: string; description: string }>;
    const unused = rules.find((r) => r.code === 'PS7003');
    assert.deepEqual(
      { name: unused?.name, defaultSeverity: unused?.defaultSeverity },
      { name: 'unused-parameter', defaultSeverity: 'warning' },
    );
    const text = await runCli(['rules']);
    assert.equal(text.stdout.split('\n').filter((l) => /^PS\d{4} /.test(l)).length, rules.length);
    assert.match(text.stdout, /PS7003 +unused-parameter +warning +A set parameter that no reference uses/);
    assert.deepEqual(JSON.parse((await runCli(['lint', '--list-rules', '-f', 'json'])).stdout), rules);
  });
});

describe('-o given a format name', () => {
  test('lint -o json writes nothing and suggests --format json; -o ./json names a file', async () => {
    const cwd = fs.mkdtempSync(path.join(dir, 'out-'));
    write(`${path.basename(cwd)}/set.json`, JSON.stringify(cleanSet('s', 'S'), null, 2));
    for (const args of [['-o', 'json'], ['--output', 'sarif'], ['-o', 'table'], ['--output=markdown'], ['-otext']]) {
      const result = await runCli(['lint', 'set.json', ...args], { cwd });
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /did you mean --format \w+\? \(-o names the output file/);
      assert.deepEqual(fs.readdirSync(cwd), ['set.json'], 'nothing written');
    }
    assert.match((await runCli(['quota', 'usage', '-o', 'json'])).stderr, /did you mean --format json\?/);
    assert.equal((await runCli(['lint', 'set.json', '-o', './json'], { cwd })).code, 0);
    assert.ok(fs.existsSync(path.join(cwd, 'json')));
  });
});

describe('shell completion', () => {
  test('bash: source <(policyset completion bash) defines a completion that completes commands, subcommands, options and values', () => {
    const bin = fs.mkdtempSync(path.join(dir, 'bin-'));
    fs.writeFileSync(path.join(bin, 'policyset'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    const script = `
      source <(policyset completion bash)
      complete -p policyset
      t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _policyset; echo "$*|\${COMPREPLY[*]}"; }
      t policyset qu
      t policyset quota ""
      t policyset quota usage --subs
      t policyset lint --format ""
      t policyset lint --rule PS700
      t policyset lint --rule PS7003 = ""
      t policyset lint --cloud AzureU
      t policyset eventstream ""
      t policyset completion ""
    `;
    const result = spawnSync('bash', ['-c', script], {
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    const lines = new Map(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('|') as [string, string]),
    );
    assert.ok(result.stdout.startsWith('complete -F _policyset policyset'), result.stdout);
    assert.equal(lines.get('policyset qu'), 'quota');
    assert.equal(lines.get('policyset quota '), 'usage calc simulate plan where');
    assert.equal(lines.get('policyset quota usage --subs'), '--subscription');
    assert.equal(lines.get('policyset lint --format '), 'text json sarif');
    assert.match(lines.get('policyset lint --rule PS700') ?? '', /^PS7001= .*PS7003=/);
    assert.equal(lines.get('policyset lint --rule PS7003 = '), 'error warning info hint off');
    assert.equal(lines.get('policyset lint --cloud AzureU'), 'AzureUSGovernment');
    assert.equal(lines.get('policyset eventstream '), 'get delete');
    assert.equal(lines.get('policyset completion '), 'bash zsh fish');
  });

  /** zsh and fish, installed by scripts/ensure-shells.sh when missing (as the Neovim test installs Neovim). */
  const ensureShells = () => {
    const install = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'ensure-shells.sh')], { encoding: 'utf8', timeout: 10 * 60 * 1000 });
    assert.equal(install.status, 0, `scripts/ensure-shells.sh failed: ${install.stderr}`);
  };
  const shellEnv = () => {
    const bin = fs.mkdtempSync(path.join(dir, 'bin-'));
    fs.writeFileSync(path.join(bin, 'policyset'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  };

  test('zsh: the script registers _policyset through bashcompinit, and the function gives the candidates zsh then filters by prefix', () => {
    ensureShells();
    const script = `
      source <(policyset completion zsh)
      print -r -- "registered|\${_comps[policyset]}"
      t() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _policyset; print -r -- "$*|\${COMPREPLY[*]}"; }
      t policyset qu
      t policyset quota ""
      t policyset lint --format ""
      t policyset lint --rule PS7003=
    `;
    const result = spawnSync('zsh', ['-f', '-c', script], { env: shellEnv(), encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const lines = new Map(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('|') as [string, string]),
    );
    assert.equal(lines.get('registered'), '_bash_complete -F _policyset');
    // zsh's compgen leaves the prefix to zsh's matcher: the candidates of the position, whole.
    assert.ok(lines.get('policyset qu')?.split(' ').includes('quota'), result.stdout);
    assert.ok(!lines.get('policyset qu')?.split(' ').includes('usage'), 'commands, not subcommands');
    assert.equal(lines.get('policyset quota '), 'usage calc simulate plan where');
    assert.equal(lines.get('policyset lint --format '), 'text json sarif');
    assert.equal(lines.get('policyset lint --rule PS7003='), 'PS7003=error PS7003=warning PS7003=info PS7003=hint PS7003=off');
  });

  test('fish: complete -C completes a subcommand, an option and a format from the sourced script', () => {
    ensureShells();
    const ask = (line: string) => {
      const result = spawnSync('fish', ['--no-config', '-c', `policyset completion fish | source; complete -C ${JSON.stringify(line)}`], {
        env: shellEnv(),
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]);
    };
    assert.deepEqual(ask('policyset qu'), ['quota']);
    assert.deepEqual(ask('policyset quota ').sort(), ['calc', 'plan', 'simulate', 'usage', 'where']);
    assert.deepEqual(ask('policyset quota usage --form'), ['--format']);
    assert.deepEqual(ask('policyset lint --format ').sort(), ['json', 'sarif', 'text']);
  });

  test('an unknown shell is exit 2 with did you mean', async () => {
    const wrong = await runCli(['completion', 'bahs']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /did you mean 'bash'\?/);
  });
});
