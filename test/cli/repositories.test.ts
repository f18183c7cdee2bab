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

test('a folder of them: the generator template and the multi-line ARM template are skipped with their reasons; the bad definition ID is the one error', async () => {
  const result = await runCli(['lint', FIXTURES, '-f', 'json']);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stderr, '');
  const report = JSON.parse(result.stdout) as Report;
  const skipped = Object.fromEntries(report.skipped.map((s) => [path.basename(s.file), s.reason]));
  assert.deepEqual(skipped, {
    'metric-alert.json': "a generator's template, not JSON until its placeholders (##POLICY_EXTRA_CONDITIONS##) are filled in",
    'vnet-peering.json': 'not JSON, and no policy key in it',
  });
  const errors = report.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${path.basename(f.file)}:${d.line} ${d.code}`));
  assert.deepEqual(errors, ['alerts.json:13 PS4003']);
});

test('named on the command line, the generator template is taken for the policy definition it will be: its syntax errors are told', async () => {
  const result = await runCli(['lint', path.join(FIXTURES, 'generator', 'templates', 'policy', 'metric-alert.json'), '-f', 'json']);
  assert.equal(result.code, 1);
  const report = JSON.parse(result.stdout) as Report;
  assert.ok(report.files[0].diagnostics.some((d) => d.code === 'PS1001'));
  assert.deepEqual(report.skipped, []);
});
