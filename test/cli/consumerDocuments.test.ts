// The consumer documents lint reads with others (docs/consumers.md): the policy-as-code framework's CSV parameter
// file with the assignment tree that names it, the landing-zone library's default values with the library's
// assignment files, an enrollment with the assignment it names; a CSV file nothing names gives nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumer-documents');

interface LintJson {
  files: Array<{ file: string; kind: string; diagnostics: Array<{ code: string; line: number; severity: string }> }>;
}

test('lint: each planted problem on its line, in the file that holds it; the CSV nothing names is not read', async () => {
  const result = await runCli(['lint', FIXTURES, '-f', 'json']);
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout) as LintJson;
  const found = report.files
    .flatMap((f) => f.diagnostics.map((d) => [path.relative(FIXTURES, f.file).replace(/\\/g, '/'), d.code, d.line]))
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[2]) - Number(b[2]) || String(a[1]).localeCompare(String(b[1])));
  assert.deepEqual(found, [
    ['library/alz_policy_default_values.json', 'PS9217', 8],
    ['library/alz_policy_default_values.json', 'PS9216', 9],
    ['policyAssignments/tagging-parameters.csv', 'PS9214', 2],
    ['policyAssignments/tagging-parameters.csv', 'PS9211', 3],
    ['policyAssignments/tagging-parameters.csv', 'PS9213', 4],
    ['policyAssignments/tagging.jsonc', 'PS9215', 6],
    ['policyEnrollments/tenant/team.jsonc', 'PS9205', 6],
  ]);
  assert.ok(!report.files.some((f) => f.file.endsWith('other.csv')), 'a CSV file no assignment names is not in the report');
  const csv = report.files.find((f) => f.file.endsWith('tagging-parameters.csv'));
  assert.equal(csv?.kind, 'policyConsumer');
});

test('lint: the parameter file alone is not checked (no assignment names it), and says so', async () => {
  const result = await runCli(['lint', path.join(FIXTURES, 'policyAssignments', 'tagging-parameters.csv')]);
  assert.equal(result.code, 2);
  assert.match(result.stdout + result.stderr, /not checked: a \.csv file that no assignment file among the files linted names/);
});
