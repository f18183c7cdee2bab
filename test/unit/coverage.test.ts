// Every rule has a doc page (the docs test runs its examples) and an invalid case of its own that produces its
// code. Structural, from the cases' results: coverage-cases.js (in a process of its own, so that no rule test
// runs twice here) imports the rule test files with the harness in collect mode and runs every invalid case
// through the harness's own check; a rule counts only when one of its cases passes. A code merely written
// somewhere in the tests does not count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RULES } from '#service';
import { REPO_ROOT } from '../support/corpus';

test('every rule has a doc page and a passing invalid case that produces its code', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-coverage-'));
  try {
    const out = path.join(dir, 'cases.json');
    // Without the test runner's context, the child's own test() calls (other tests in those files) stay its own.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    execFileSync(process.execPath, [path.join(__dirname, 'coverage-cases.js'), out], { env, stdio: 'ignore', timeout: 120_000 });
    const { files, cases, produced, failing } = JSON.parse(fs.readFileSync(out, 'utf8')) as { files: string[]; cases: number; produced: Record<string, number>; failing: string[] };
    assert.ok(files.length >= 10 && cases > 100, `${cases} cases from ${files.join(', ')}`);
    // A failing case fails in its own file too; here it only does not count.
    if (failing.length) console.log(`# cases that do not pass (not counted): ${failing.join('; ')}`);
    const missing = RULES.filter((rule) => !fs.existsSync(path.join(REPO_ROOT, 'docs', 'rules', `${rule.meta.name}.md`)) || !produced[rule.meta.code]).map(
      (rule) => `${rule.meta.code} ${rule.meta.name}${produced[rule.meta.code] ? ' (no doc page)' : ' (no passing invalid case)'}`,
    );
    assert.deepEqual(missing, []);
    console.log(`# ${RULES.length} rules, ${cases} invalid cases in ${files.length} files; passing cases per rule: ${Math.min(...Object.values(produced))} to ${Math.max(...Object.values(produced))}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
