import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES } from '#service';
import { REPO_ROOT } from '../support/corpus';

/** Every rule has a page (the docs test runs its examples) and at least one test of its own. */
test('every rule has a doc page and a test beyond its page', () => {
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'out') walk(full);
      } else if (/\.(ts|json)$/.test(entry.name)) sources.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(REPO_ROOT, 'test'));
  const everything = sources.join('\n');
  const missing = RULES.filter((rule) => !fs.existsSync(path.join(REPO_ROOT, 'docs', 'rules', `${rule.meta.name}.md`)) || !everything.includes(rule.meta.code)).map(
    (rule) => `${rule.meta.code} ${rule.meta.name}`,
  );
  assert.deepEqual(missing, []);
});
