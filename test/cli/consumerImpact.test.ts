// What a change to a set breaks, through the real CLI (docs/consumers.md, docs/cli.md): `diff --consumers` in
// Markdown and SARIF, and `lint --against` naming the consumer lines in the version check. Real public files
// (test/fixtures/consumers): the landing-zone library's Enforce-ALZ-Decomm set and its assignment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
