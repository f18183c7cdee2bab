// Every rule has a doc page (the docs test runs its examples) and a test file named after it,
// test/rules/<name>.test.ts, with an invalid case that produces its code. Structural, from the cases' results:
// coverage-cases.js (in a process of its own, so that no rule test runs twice here) imports the rule test files
// with the rule tester in collect mode and runs every invalid case through the tester's own check; a rule counts
// only when one of the cases of its own file passes. A code merely written somewhere in the tests does not count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RULES } from '#service';
import { REPO_ROOT } from '../support/corpus';

test('every rule has a doc page and a test file of its name with a passing invalid case that produces its code', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-coverage-'));
  try {
    const out = path.join(dir, 'cases.json');
    // Without the test runner's context, the child's own test() calls (other tests in those files) stay its own.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    execFileSync(process.execPath, [path.join(__dirname, 'coverage-cases.js'), out], { env, stdio: 'ignore', timeout: 120_000 });
    const { files, cases, produced, failing } = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      files: string[];
      cases: number;
      produced: Record<string, Record<string, number>>;
      failing: string[];
    };
    assert.ok(files.length >= 10 && cases > 100, `${cases} cases from ${files.join(', ')}`);
    // A failing case fails in its own file too; here it only does not count.
    if (failing.length) console.log(`# cases that do not pass (not counted): ${failing.join('; ')}`);
    const missing = RULES.flatMap((rule) => {
      const { code, name } = rule.meta;
      const problems = [];
      if (!fs.existsSync(path.join(REPO_ROOT, 'docs', 'rules', `${name}.md`))) problems.push(`no doc page docs/rules/${name}.md`);
      if (!fs.existsSync(path.join(REPO_ROOT, 'test', 'rules', `${name}.test.ts`)))
        problems.push(`no test file test/rules/${name}.test.ts`);
      else if (!produced[name]?.[code]) problems.push(`no passing invalid case in test/rules/${name}.test.ts`);
      return problems.map((p) => `${code} ${name}: ${p}`);
    });
    assert.deepEqual(missing, []);
    // And no rule test file for a rule the registry does not have.
    const names = new Set(RULES.map((rule) => rule.meta.name));
    const stray = fs.readdirSync(path.join(REPO_ROOT, 'test', 'rules')).filter((file) => !names.has(file.replace(/\.test\.ts$/, '')));
    assert.deepEqual(stray, [], 'test/rules/ holds one <rule name>.test.ts per rule and nothing else');
    const counts = Object.values(produced).map((ofRule) => Object.values(ofRule).reduce((a, b) => a + b, 0));
    console.log(
      `# ${RULES.length} rules, ${cases} invalid cases in ${files.length} files; passing cases per rule: ${Math.min(...counts)} to ${Math.max(...counts)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
