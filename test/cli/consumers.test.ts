// The consumers of sets through the CLI (docs/consumers.md): `lint` checks real assignments against the sets
// linted beside them, and `diff --consumers` names the assignment lines a breaking change breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');

interface LintJson {
  files: Array<{ file: string; kind: string; diagnostics: Array<{ code: string; line: number; data?: Record<string, unknown> }> }>;
}

function copyFixtures(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-consumers-'));
  fs.cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

test('lint over real assignments and the sets they assign: consumers, resolved, no consumer diagnostic', async () => {
  const result = await runCli(['lint', FIXTURES, '-f', 'json']);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const report = JSON.parse(result.stdout) as LintJson;
  const consumers = report.files.filter((f) => f.kind === 'policyConsumer');
  assert.equal(consumers.length, 5, 'four assignments and the exemption list');
  // The one consumer diagnostic is the real latent break, as information (exit 0).
  const found = consumers.flatMap((f) =>
    f.diagnostics.filter((d) => d.code.startsWith('PS92')).map((d) => [path.basename(f.file), d.code]),
  );
  assert.deepEqual(found, [['policy_assignment_es_deploy_mdfc_config.tmpl.json', 'PS9209']]);
  assert.doesNotMatch(result.stderr, /not checked/, 'every assignment found its set');
});

test('lint: a parameter renamed in a copy of the ALZ assignment is reported on its line; without the sets it is counted, not reported', async () => {
  const dir = copyFixtures();
  try {
    const file = path.join(dir, 'alz', 'Enforce-ALZ-Decomm.alz_policy_assignment.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"listOfResourceTypesAllowed"', '"listOfResourceTypeAllowed"'));
    const result = await runCli(['lint', dir, '-f', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as LintJson;
    const found = report.files.flatMap((f) =>
      f.diagnostics.filter((d) => d.code.startsWith('PS92') && d.code !== 'PS9209').map((d) => [path.basename(f.file), d.code, d.line]),
    );
    assert.deepEqual(found, [['Enforce-ALZ-Decomm.alz_policy_assignment.json', 'PS9201', 16]]);
    const alone = await runCli(['lint', file, '-f', 'json']);
    assert.equal(alone.code, 0, alone.stdout);
    assert.match(alone.stderr, /1 assignment not checked: its set is not in the files linted/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('diff --consumers: a parameter renamed in the set lists the assignment file and line that pass it (JSON and text)', async () => {
  const dir = copyFixtures();
  try {
    const old = path.join(dir, 'alz', 'Enforce-ALZ-Decomm.alz_policy_set_definition.json');
    const renamed = path.join(dir, 'new-set.json');
    fs.writeFileSync(renamed, fs.readFileSync(old, 'utf8').replaceAll('listOfResourceTypesAllowed', 'allowedResourceTypes'));
    const json = await runCli([
      'diff',
      old,
      renamed,
      '--consumers',
      path.join(dir, 'alz'),
      '--consumers',
      path.join(dir, 'epac'),
      '--format',
      'json',
    ]);
    const report = JSON.parse(json.stdout) as { changes: Array<{ kind: string; breaks?: Array<{ file: string; line: number }> }> };
    const removed = report.changes.find((c) => c.kind === 'parameter-removed' || c.kind === 'parameter-renamed');
    assert.ok(removed, json.stdout);
    assert.deepEqual(
      removed.breaks?.map((b) => [path.basename(b.file), b.line]),
      [['Enforce-ALZ-Decomm.alz_policy_assignment.json', 16]],
    );
    // A change that takes away nothing consumers name has no breaks list.
    assert.ok(report.changes.filter((c) => c.kind === 'parameter-added-with-default').every((c) => c.breaks === undefined));
    const text = await runCli(['diff', old, renamed, '--consumers', path.join(dir, 'alz')]);
    assert.match(text.stdout, /breaks .*Enforce-ALZ-Decomm\.alz_policy_assignment\.json:16/);
    assert.match(text.stderr, /2 files of assignments or exemptions read under/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
