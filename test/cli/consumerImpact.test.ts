// What a change to a set breaks, through the real CLI (docs/consumers.md, docs/cli.md): `diff --consumers` in
// Markdown and SARIF, and `lint --against` naming the consumer lines in the version check. Real public files
// (test/fixtures/consumers): the landing-zone library's Enforce-ALZ-Decomm set and its assignment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');
const SET = 'Enforce-ALZ-Decomm.alz_policy_set_definition.json';
const ASSIGNMENT = 'Enforce-ALZ-Decomm.alz_policy_assignment.json';

function copyFixtures(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-consumer-impact-'));
  fs.cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

/** The set with its parameter renamed (a major change the assignment, which passes it on line 16, does not follow). */
function renamedSet(dir: string): { old: string; renamed: string } {
  const old = path.join(dir, 'alz', SET);
  const renamed = path.join(dir, 'new-set.json');
  fs.writeFileSync(renamed, fs.readFileSync(old, 'utf8').replaceAll('listOfResourceTypesAllowed', 'allowedResourceTypes'));
  return { old, renamed };
}

test('diff --consumers --format markdown: a Breaks column names the consumer file and line', async () => {
  const dir = copyFixtures();
  try {
    const { old, renamed } = renamedSet(dir);
    const result = await runCli(['diff', old, renamed, '--consumers', path.join(dir, 'alz'), '--format', 'markdown'], { cwd: dir });
    assert.ok(result.code === 0 || result.code === 1, result.stderr); // 1: the copy keeps the version the change needs bumped
    const lines = result.stdout.split('\n');
    assert.ok(lines.includes('| Change | Kind | Where | Breaks |'), result.stdout);
    const removed = lines.find((l) => /`parameter-(removed|renamed)`/.test(l));
    assert.ok(removed, result.stdout);
    assert.match(removed, new RegExp(`\\| alz/${ASSIGNMENT.replace(/\./g, '\\.')}:16 \\|$`));
    // Without --consumers, no such column.
    const plain = await runCli(['diff', old, renamed, '--format', 'markdown'], { cwd: dir });
    assert.ok(!plain.stdout.includes('Breaks'), plain.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('diff --consumers --format sarif: the result stays on the set, each consumer a related location linked from its message', async () => {
  const dir = copyFixtures();
  try {
    const { old, renamed } = renamedSet(dir);
    const result = await runCli(['diff', old, renamed, '--consumers', path.join(dir, 'alz'), '--format', 'sarif'], { cwd: dir });
    assert.ok(result.code === 0 || result.code === 1, result.stderr); // 1: the copy keeps the version the change needs bumped
    const log = JSON.parse(result.stdout) as Sarif.Log;
    const results = log.runs[0].results ?? [];
    const broken = results.filter((r) => r.relatedLocations?.length);
    assert.equal(broken.length, 1, JSON.stringify(results.map((r) => r.ruleId)));
    const [only] = broken;
    assert.match(String(only.ruleId), /^parameter-(removed|renamed)$/);
    assert.equal(only.locations?.[0].physicalLocation?.artifactLocation?.uri, 'new-set.json');
    assert.deepEqual(only.relatedLocations, [
      {
        id: 1,
        physicalLocation: { artifactLocation: { uri: `alz/${ASSIGNMENT}`, uriBaseId: '%SRCROOT%' }, region: { startLine: 16 } },
        message: { text: 'consumer that names it' },
      },
    ]);
    assert.match(
      only.message.text ?? '',
      new RegExp(`It breaks this consumer: \\[alz/${ASSIGNMENT.replace(/\./g, '\\.')}:16\\]\\(1\\)\\.$`),
    );
    assert.equal((only.properties as { breaks?: number }).breaks, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('lint --against: the version check names the assignment lines the changes break (the files linted, or --consumers)', async () => {
  const repo = copyFixtures();
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args],
      { cwd: repo, stdio: 'pipe' },
    ).toString();
  try {
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'as published');
    // The parameter the assignment passes (line 16) renamed, the version left at 1.1.0: a major change.
    const setFile = path.join(repo, 'alz', SET);
    fs.writeFileSync(setFile, fs.readFileSync(setFile, 'utf8').replaceAll('listOfResourceTypesAllowed', 'allowedResourceTypes'));
    const where = `alz/${ASSIGNMENT}:16`;

    const json = await runCli(['lint', 'alz', '--against', 'HEAD', '--format', 'json'], { cwd: repo });
    const report = JSON.parse(json.stdout) as {
      files: Array<{
        file: string;
        diagnostics: Array<{ code: string; message: string; data?: Record<string, unknown>; relatedInformation?: unknown[] }>;
      }>;
    };
    const check = report.files.flatMap((f) => f.diagnostics).find((d) => d.code === 'PS3006');
    assert.ok(check, json.stdout);
    assert.match(
      check.message,
      /they need a major version .*; use '2\.0\.0'\. It breaks 1 assignment: alz\/Enforce-ALZ-Decomm\.alz_policy_assignment\.json:16\.$/,
    );
    assert.deepEqual(check.data?.consumerBreaks, [{ file: `alz/${ASSIGNMENT}`, line: 16 }]);

    // Text names it too; --consumers elsewhere (only the set linted) finds the same place.
    const text = await runCli(['lint', path.join('alz', SET), '--against', 'HEAD', '--consumers', 'alz'], { cwd: repo });
    assert.equal(text.code, 1);
    assert.ok(text.stdout.includes(`It breaks 1 assignment: ${where}.`), text.stdout);
    // The set linted alone, without --consumers: no consumer in sight, nothing named.
    const alone = await runCli(['lint', path.join('alz', SET), '--against', 'HEAD'], { cwd: repo });
    assert.match(alone.stdout, /use '2\.0\.0'/);
    assert.ok(!alone.stdout.includes('It breaks'), alone.stdout);
    // --consumers means nothing without --against.
    const usage = await runCli(['lint', 'alz', '--consumers', 'alz'], { cwd: repo });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--consumers .* give --against too/);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
