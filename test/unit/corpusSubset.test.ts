import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { SUBSET_DIR, listJsonFiles } from '../support/corpus';

// The corpus subset in the repository (test/fixtures/corpus): what SOURCE.md says of it is true.

const source = fs.readFileSync(path.join(SUBSET_DIR, 'SOURCE.md'), 'utf8');
const rows = [...source.matchAll(/^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$/gm)].map((m) => ({ file: m[1], sha256: m[2] }));

test('SOURCE.md records the source, the commit, the licence and the SHA-256 of every file, and the hashes hold', () => {
  assert.match(source, /https:\/\/github\.com\/Azure\/azure-policy/);
  assert.match(source, /`f4a50bacae07ddb096943c597669bcae494a6e29`/);
  assert.match(source, /MIT/);
  const onDisk = listJsonFiles(SUBSET_DIR).map((f) => path.relative(SUBSET_DIR, f).split(path.sep).join('/'));
  assert.deepEqual(rows.map((r) => r.file).sort(), onDisk.sort(), 'every file is listed, and only those');
  for (const row of rows) {
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(SUBSET_DIR, row.file)))
      .digest('hex');
    assert.equal(hash, row.sha256, row.file);
  }
});

test('the subset: the largest set, small and medium ones, both clouds, within 2 MB; the index holds every definition they reference', () => {
  const sets = listJsonFiles(path.join(SUBSET_DIR, 'builtin-policy-sets'));
  const sizes = sets.map((f) => fs.statSync(f).size);
  assert.ok(sets.some((f) => f.endsWith('Spain_ENS.json')) && Math.max(...sizes) > 500_000);
  assert.ok(Math.min(...sizes) < 2_000 && sizes.some((s) => s > 10_000 && s < 100_000));
  assert.ok(sets.some((f) => f.includes(`${path.sep}Azure_Government${path.sep}`)));
  const total = listJsonFiles(SUBSET_DIR).reduce((n, f) => n + fs.statSync(f).size, 0);
  assert.ok(total < 2 * 1024 * 1024, `${total} bytes`);
  const index = JSON.parse(fs.readFileSync(path.join(SUBSET_DIR, 'builtin-policy-definitions-index.json'), 'utf8')) as Array<{
    id: string;
  }>;
  const ids = new Set(index.map((e) => e.id.toLowerCase()));
  for (const file of sets) {
    const set = JSON.parse(fs.readFileSync(file, 'utf8')) as { properties: { policyDefinitions: Array<{ policyDefinitionId: string }> } };
    for (const reference of set.properties.policyDefinitions)
      assert.ok(ids.has(reference.policyDefinitionId.toLowerCase()), `${path.basename(file)}: ${reference.policyDefinitionId}`);
  }
});
