import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog, cloudOfPath } from '#service';
import { CORPUS_INDEX, CORPUS_SETS, listJsonFiles, SKIP_NO_CORPUS } from '../support/corpus';

// Zero false positives: Azure deploys every one of these built-in sets.
describe('the built-in corpus gives zero errors', { skip: SKIP_NO_CORPUS }, () => {
  const files = SKIP_NO_CORPUS ? [] : listJsonFiles(CORPUS_SETS);
  let catalog: DefinitionCatalog | undefined;

  const check = (withIndex: boolean) => {
    const errors: string[] = [];
    const kinds = new Set<string>();
    for (const file of files) {
      const result = validateText(fs.readFileSync(file, 'utf8'), { definitions: withIndex ? catalog : undefined, cloud: cloudOfPath(file) });
      kinds.add(result.kind);
      assert.deepEqual(result.internalErrors, [], file);
      for (const d of result.diagnostics) {
        if (d.severity === 1) errors.push(`${path.relative(CORPUS_SETS, file)}:${d.range.start.line + 1} ${d.code} ${d.message}`);
      }
    }
    assert.deepEqual([...kinds], ['policySetDefinition']);
    assert.deepEqual(errors, []);
  };

  test(`all 257 files are there`, () => assert.equal(files.length, 257));

  test('without a definitions index', () => check(false));

  test('with the definitions index', () => {
    catalog = new DefinitionCatalog();
    assert.equal(catalog.addIndex(JSON.parse(fs.readFileSync(CORPUS_INDEX, 'utf8'))), 5009);
    check(true);
  });

  test('the oddities are still told about, below error', () => {
    const counts = new Map<string, number>();
    for (const file of files) {
      for (const d of validateText(fs.readFileSync(file, 'utf8'), { definitions: catalog, cloud: cloudOfPath(file) }).diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
    }
    // From the corpus README: 59 parameter references in another casing, 5 files with properties.Version,
    // 3 display names over 128 characters, 79 reference parameters matching the definition's only in another casing.
    assert.equal(counts.get('PS7002'), 59);
    assert.equal(counts.get('PS2005'), 5);
    assert.equal(counts.get('PS9004'), 3);
    assert.equal(counts.get('PS8008'), 79);
    assert.ok((counts.get('PS7003') ?? 0) > 0 && (counts.get('PS5003') ?? 0) > 0);
  });
});
