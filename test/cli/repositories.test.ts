import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

// Patterns met when linting real public repositories (test/fixtures/repositories/README.md): no false error,
// no flood, the real defect reported.

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'repositories');

interface Report {
  files: Array<{ file: string; diagnostics: Array<{ code: string; severity: string; line: number }> }>;
  skipped: Array<{ file: string; reason: string }>;
}

test('a folder of them: the generator template is skipped with its reason, the multi-line ARM template read as its engine reads it (other JSON, not "not JSON"); the bad definition ID is the one error', async () => {
  const result = await runCli(['lint', FIXTURES, '-f', 'json']);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stderr, '');
  const report = JSON.parse(result.stdout) as Report;
  const skipped = Object.fromEntries(report.skipped.map((s) => [path.basename(s.file), s.reason]));
  assert.deepEqual(skipped, {
    'metric-alert.json': "a generator's template, not JSON until its placeholders (##POLICY_EXTRA_CONDITIONS##) are filled in",
  });
  // Both are skipped (neither is a policy document); only the generator's template is listed, as not JSON.
  assert.equal((report as unknown as { summary: { skipped: number } }).summary.skipped, 2);
  const text = await runCli(['lint', FIXTURES]);
  assert.match(text.stdout, /\(1 other JSON file skipped, 1 file skipped as not JSON\)/);
  const errors = report.files.flatMap((f) =>
    f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${path.basename(f.file)}:${d.line} ${d.code}`),
  );
  assert.deepEqual(errors, ['alerts.json:13 PS4003']);
});

test('named on the command line, the generator template is taken for the policy definition it will be: its syntax errors are told', async () => {
  const result = await runCli(['lint', path.join(FIXTURES, 'generator', 'templates', 'policy', 'metric-alert.json'), '-f', 'json']);
  assert.equal(result.code, 1);
  const report = JSON.parse(result.stdout) as Report;
  assert.ok(report.files[0].diagnostics.some((d) => d.code === 'PS1001'));
  assert.deepEqual(report.skipped, []);
});

test("a walk over the policy-as-code framework's .jsonc assignment and exemption files (comments, trailing commas) checks them as consumers of sets, never 'not JSON'", async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-jsonc-walk-'));
  try {
    fs.mkdirSync(path.join(dir, 'policyAssignments'));
    fs.writeFileSync(
      path.join(dir, 'policyAssignments', 'security.jsonc'),
      '{\n  // an assignment\n  "nodeName": "/root",\n  "assignment": { "name": "security", },\n  "definitionEntry": { "policySetName": "network-guardrails", },\n}\n',
    );
    fs.writeFileSync(
      path.join(dir, 'policyAssignments', 'exemptions.jsonc'),
      '{\n  /* exemptions */\n  "exemptions": [ { "name": "sandbox", "exemptionCategory": "Waiver", }, ],\n}\n',
    );
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ "a": 1 "b": 2 }');
    const result = await runCli(['lint', dir, '--no-error-on-unmatched-pattern']);
    assert.match(result.stdout, /0 errors, 0 warnings in 2 policy documents \(1 file skipped as not JSON\)/, result.stdout);
    // The assignment's set is not among the files: said, not passed over.
    assert.match(
      result.stdout + result.stderr,
      /1 assignment not checked: its set is not in the files linted/,
      result.stdout + result.stderr,
    );
    assert.doesNotMatch(result.stdout, /jsonc: not JSON/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('PS8010 on a custom definition whose file is there but does not parse says so, linted alongside or given with --definitions', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-broken-definition-'));
  try {
    fs.mkdirSync(path.join(dir, 'definitions'));
    fs.mkdirSync(path.join(dir, 'sets'));
    fs.writeFileSync(
      path.join(dir, 'definitions', 'Deny-Broken.json'),
      '{\n  "name": "Deny-Broken",\n  "properties": {\n    "policyRule": { "if": { "field": "type", "equals": "x" }, "then": { "effect": "deny" } }\n    "parameters": {}\n  }\n}\n',
    );
    fs.writeFileSync(
      path.join(dir, 'definitions', 'Deny-Other.json'),
      JSON.stringify({ name: 'Deny-Other', properties: { policyRule: { if: { field: 'type', equals: 'x' }, then: { effect: 'deny' } } } }),
    );
    const id = '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deny-Broken';
    fs.writeFileSync(
      path.join(dir, 'sets', 'set.json'),
      JSON.stringify(
        { name: 's', properties: { displayName: 's', policyDefinitions: [{ policyDefinitionReferenceId: 'a', policyDefinitionId: id }] } },
        null,
        2,
      ),
    );
    for (const args of [[dir], [path.join(dir, 'sets'), '--definitions', path.join(dir, 'definitions')]]) {
      const result = await runCli(['lint', ...args, '-f', 'json']);
      const report = JSON.parse(result.stdout) as { files: Array<{ file: string; diagnostics: Array<{ code: string; message: string }> }> };
      const ps8010 = report.files.flatMap((f) => f.diagnostics).filter((d) => d.code === 'PS8010');
      assert.equal(ps8010.length, 1, result.stdout);
      assert.match(
        ps8010[0].message,
        /'Deny-Broken' looks to be in '.*Deny-Broken\.json', which could not be read \(CommaExpected at line 5, column 5\)/,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
