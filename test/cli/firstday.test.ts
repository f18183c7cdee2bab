// What a new user meets on the first day (issue "First day with the tool"): no silent passes, honest
// summaries and exit codes, checked flags, a server command line that answers, stable SARIF fingerprints.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli, isCleanMessage } from '../support/run';
import { cleanSet } from '../support/sets';
import { REPO_ROOT } from '../support/corpus';

let dir: string;
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};
const CLEAN = JSON.stringify(cleanSet('clean-set', 'Clean set'), null, 2);

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-firstday-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('no silent pass', () => {
  test('a misspelt policyDefinitions is checked as a set, with "did you mean"', async () => {
    const file = write('misspelt.json', CLEAN.replace('"policyDefinitions"', '"policyDefinition"'));
    const result = await runCli(['lint', file, '--no-color']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /Unknown property 'policyDefinition' in 'properties'\. Did you mean 'policyDefinitions'\?/);
    assert.match(result.stdout, /in 1 policy document/);
  });

  test('a misspelt properties is checked as a set, with "did you mean"', async () => {
    const file = write('propertes.json', CLEAN.replace('"properties"', '"propertes"'));
    const result = await runCli(['lint', file, '--no-color']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /Did you mean 'properties'\?/);
  });

  test('a policy assignment is not taken for an almost-set', async () => {
    const assignment = {
      properties: {
        displayName: 'a',
        policyDefinitionId: '/providers/Microsoft.Authorization/policySetDefinitions/x',
        enforcementMode: 'Default',
        parameters: {},
      },
    };
    const file = write('assignment.json', JSON.stringify(assignment));
    const result = await runCli(['lint', file, '--no-color', '--no-error-on-unmatched-pattern']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    // A consumer of a set (docs/consumers.md), never a broken set; its set is not among the files: said.
    assert.doesNotMatch(result.stdout, /PS\d{4}/);
    assert.match(result.stderr, /1 assignment not checked: its set is not in the files linted/);
  });

  test('a JSON Schema whose properties name policy_definitions is not taken for an almost-set', async () => {
    // Seen in a landing-zone library: the schema of its archetype files (policy_definitions is within edit distance 2).
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { name: { type: 'string' }, policy_definitions: { type: 'array', items: { type: 'string' } } },
      required: ['name'],
    };
    const file = write('archetype_definition.json', JSON.stringify(schema, null, 2));
    const result = await runCli(['lint', file, '--no-color', '--no-error-on-unmatched-pattern']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /PS2\d{3}/);
    assert.match(result.stdout, /not checked: JSON, but not a policy set definition/);
  });

  test('a named JSON file of no known kind gets a note, and --strict makes it an error', async () => {
    const file = write('other.json', '{"a": 1}');
    const plain = await runCli(['lint', file, write('clean.json', CLEAN), '--no-color']);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    assert.match(plain.stdout, /note .*other\.json: not checked/);
    assert.match(plain.stdout, /1 named file not checked/);
    const strict = await runCli(['lint', file, path.join(dir, 'clean.json'), '--strict', '--no-color']);
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /other\.json: not checked \(--strict\)/);
    assert.doesNotMatch(strict.stdout, /✔/);
  });

  test('.policysetrc.json {"strict": true} in the current folder is --strict', async () => {
    const project = path.join(dir, 'strict-project');
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, '.policysetrc.json'), '{"strict": true}');
    fs.writeFileSync(path.join(project, 'other.json'), '{"a": 1}');
    fs.writeFileSync(path.join(project, 'clean.json'), CLEAN);
    const result = await runCli(['lint', 'other.json', 'clean.json', '--no-color'], { cwd: project });
    assert.equal(result.code, 2, result.stdout + result.stderr);
  });

  test('a named .txt file is not counted as a policy document', async () => {
    const file = write('notes.txt', 'hello');
    const result = await runCli(['lint', file, write('clean2.json', CLEAN), '--no-color']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /notes\.txt: not checked: not JSON/);
    assert.match(result.stdout, /in 1 policy document;/);
  });
});

describe('comments in JSON', () => {
  const commented = CLEAN.replace('{\n', '{\n  // reviewed by the platform team\n');

  test('a comment in a .json file is PS1005 on its line; the file is still checked', async () => {
    const file = write('commented.json', commented);
    const result = await runCli(['lint', file, '--no-color', '-f', 'json']);
    const report = JSON.parse(result.stdout) as {
      files: Array<{ diagnostics: Array<{ code: string; range: { start: { line: number } } }> }>;
    };
    const diagnostics = report.files.flatMap((f) => f.diagnostics);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line]),
      [['PS1005', 1]],
    );
    assert.equal(result.code, 0, 'a warning does not fail the run');
  });

  test('a .jsonc file, and a file of the policy-as-code framework, may hold comments', async () => {
    const jsonc = write('commented.jsonc', commented);
    const framework = write(
      'framework.json',
      commented.replace(
        '{\n',
        '{\n  "$schema": "https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-set-definition-schema.json",\n',
      ),
    );
    const result = await runCli(['lint', jsonc, framework, '--no-color']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /PS1005/);
  });
});

describe('honest summaries and exit codes', () => {
  test('a missing file: no success line, exit 2, and the JSON and SARIF reports carry it', async () => {
    const missing = path.join(dir, 'missing.json');
    const text = await runCli(['lint', missing, '--no-color']);
    assert.equal(text.code, 2);
    assert.doesNotMatch(text.stdout, /✔/);
    assert.match(text.stdout, /1 input could not be checked/);
    const json = await runCli(['lint', missing, '-f', 'json']);
    assert.equal(json.code, 2);
    const report = JSON.parse(json.stdout) as { summary: { inputErrors: number }; inputErrors: string[] };
    assert.equal(report.summary.inputErrors, 1);
    assert.match(report.inputErrors[0], /cannot read .*missing\.json.*no such file/);
    const sarif = await runCli(['lint', missing, '-f', 'sarif']);
    const invocation = (
      JSON.parse(sarif.stdout) as {
        runs: Array<{
          invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications: Array<{ message: { text: string } }> }>;
        }>;
      }
    ).runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.match(invocation.toolExecutionNotifications[0].message.text, /missing\.json/);
  });

  test('a folder with no JSON, or only other JSON, is exit 2 unless allowed', async () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, 'readme.md'), '# nothing');
    const result = await runCli(['lint', empty, '--no-color']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no policy document in .*empty.*--no-error-on-unmatched-pattern/);
    assert.doesNotMatch(result.stdout, /✔/);
    const allowed = await runCli(['lint', empty, '--no-error-on-unmatched-pattern']);
    assert.equal(allowed.code, 0);
  });
});

describe('flags are checked', () => {
  test('an unknown rule name is exit 2 with "did you mean"', async () => {
    const result = await runCli(['lint', write('c3.json', CLEAN), '--rule', 'unused-paramter=off']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no rule 'unused-paramter'; did you mean 'unused-parameter'\?/);
  });

  test('rule codes match in any casing', async () => {
    const file = write('misspelt2.json', CLEAN.replace('"policyDefinitions"', '"policyDefinition"'));
    const on = await runCli(['lint', file, '--no-color']);
    assert.match(on.stdout, /PS2004/);
    const off = await runCli(['lint', file, '--no-color', '--rule', 'ps2004=off']);
    assert.doesNotMatch(off.stdout, /PS2004/);
    assert.match(off.stdout, /PS2002/);
  });

  test('--cloud takes the known clouds only', async () => {
    const result = await runCli(['lint', write('c4.json', CLEAN), '--cloud', 'Mars']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--cloud takes AzureCloud, AzureUSGovernment, AzureChinaCloud, not 'Mars'/);
    assert.equal((await runCli(['lint', path.join(dir, 'c4.json'), '--cloud', 'AzureChinaCloud'])).code, 0);
  });

  test('an unknown option gets one clean line', async () => {
    const result = await runCli(['lint', write('c5.json', CLEAN), '--bogus']);
    assert.equal(result.code, 2);
    assert.ok(isCleanMessage(result.stderr));
    assert.equal(result.stderr.split('\n')[0], "policyset: unknown option '--bogus'");
  });
});

describe("the server's command line", () => {
  const server = path.join(REPO_ROOT, 'bin', 'policyset-language-server.js');
  const run = (...args: string[]) => spawnSync(process.execPath, [server, ...args], { encoding: 'utf8', input: '', timeout: 20_000 });

  test('--help prints usage, exit 0', () => {
    const result = run('--help');
    assert.equal(result.status, 0);
    assert.match(result.stdout, /Usage: policyset-language-server --stdio/);
  });

  test('--version prints the version, exit 0', () => {
    const result = run('--version');
    assert.equal(result.status, 0);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(result.stdout.trim(), pkg.version);
  });

  test('no transport: usage on stderr, exit 2, no stack trace', () => {
    const result = run();
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no transport given: pass --stdio/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});

describe('SARIF fingerprints survive edits', () => {
  test('an alert keeps its fingerprint when lines are inserted above it', async () => {
    const broken = CLEAN.replace('"groupNames": [\n          "Network"', '"groupNames": [\n          "Netwrok"');
    assert.notEqual(broken, CLEAN);
    const fingerprints = async (text: string) => {
      const file = write('fp.json', text);
      const result = await runCli(['lint', file, '-f', 'sarif'], { cwd: dir });
      const run = (
        JSON.parse(result.stdout) as {
          runs: Array<{
            results: Array<{
              ruleId: string;
              partialFingerprints: Record<string, string>;
              locations: Array<{ physicalLocation: { region: { startLine: number } } }>;
            }>;
          }>;
        }
      ).runs[0];
      return run.results.map((r) => ({
        rule: r.ruleId,
        line: r.locations[0].physicalLocation.region.startLine,
        fingerprint: Object.values(r.partialFingerprints)[0],
      }));
    };
    const before = await fingerprints(broken);
    const shifted = broken.replace('{\n', '{\n\n\n\n');
    const after = await fingerprints(shifted);
    assert.ok(before.length > 0);
    assert.deepEqual(
      after.map((r) => r.line),
      before.map((r) => r.line + 3),
    );
    assert.deepEqual(
      after.map((r) => r.fingerprint),
      before.map((r) => r.fingerprint),
    );
    assert.ok(before.every((r) => /^[0-9a-f]{64}$/.test(r.fingerprint)));
  });
});

describe("messages in the CLI user's own terms", () => {
  const env = { ...process.env, POLICYSET_BASE_URL: '', POLICYSET_ACCESS_TOKEN: '' };

  test('no service address names --base-url and POLICYSET_BASE_URL, not a VS Code setting', async () => {
    const result = await runCli(['fetch', 'abc'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /give --base-url <url> or set POLICYSET_BASE_URL/);
    assert.doesNotMatch(result.stderr, /policySet\.service/);
  });

  test('no token names POLICYSET_ACCESS_TOKEN and --token-command', async () => {
    const result = await runCli(['fetch', 'abc', '--base-url', 'http://127.0.0.1:9'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Not signed in.*set POLICYSET_ACCESS_TOKEN to a bearer token, or pass --token-command/);
  });

  test('a bad --version is called --version', async () => {
    const file = write('deploy-me.json', CLEAN);
    const result = await runCli(
      ['deploy', file, '--subscription', 's', '--name', 'n', '--version', '1.0', '--base-url', 'http://127.0.0.1:9'],
      { env },
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /\(from --version\)/);
    assert.doesNotMatch(result.stderr, /from given/);
  });
});
