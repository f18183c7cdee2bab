import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog, cloudOfPath } from '#service';
import { CORPORA, setFilesOf, type Corpus } from '../support/corpus';

/**
 * What each corpus holds, and how many of each oddity it has (the full corpus: its README; the subset: the
 * same kinds of oddity in its fourteen files).
 */
const EXPECTED: Record<Corpus['label'], { files: number; definitions: number; odd: Record<string, number> }> = {
  // 59 parameter references in another casing, 5 files with properties.Version, 3 display names over 128
  // characters, 79 reference parameters matching the definition's only in another casing.
  full: { files: 257, definitions: 5009, odd: { PS7002: 59, PS2005: 5, PS9004: 3, PS8008: 79 } },
  subset: { files: 14, definitions: 1121, odd: { PS7002: 1, PS2005: 1, PS9004: 1, PS8008: 1 } },
};

// Zero false positives: Azure deploys every one of these built-in sets. The subset in the repository always;
// the full corpus too when it is beside the checkout.
for (const corpus of CORPORA) {
  describe(`the built-in corpus (${corpus.label}) gives zero errors`, () => {
    const files = setFilesOf(corpus);
    const expected = EXPECTED[corpus.label];
    let catalog: DefinitionCatalog | undefined;

    const check = (withIndex: boolean) => {
      const errors: string[] = [];
      const kinds = new Set<string>();
      for (const file of files) {
        const result = validateText(fs.readFileSync(file, 'utf8'), {
          definitions: withIndex ? catalog : undefined,
          cloud: cloudOfPath(file),
        });
        kinds.add(result.kind);
        assert.deepEqual(result.internalErrors, [], file);
        for (const d of result.diagnostics) {
          if (d.severity === 1) errors.push(`${path.relative(corpus.sets, file)}:${d.range.start.line + 1} ${d.code} ${d.message}`);
        }
      }
      assert.deepEqual([...kinds], ['policySetDefinition']);
      assert.deepEqual(errors, []);
    };

    test(`all ${expected.files} files are there`, () => assert.equal(files.length, expected.files));

    test('without a definitions index', () => check(false));

    test('with the definitions index', () => {
      catalog = new DefinitionCatalog();
      assert.equal(catalog.addIndex(JSON.parse(fs.readFileSync(corpus.index, 'utf8'))), expected.definitions);
      check(true);
    });

    test('the oddities are still told about, below error', () => {
      const counts = new Map<string, number>();
      for (const file of files) {
        for (const d of validateText(fs.readFileSync(file, 'utf8'), { definitions: catalog, cloud: cloudOfPath(file) }).diagnostics)
          counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
      }
      for (const [code, count] of Object.entries(expected.odd)) assert.equal(counts.get(code), count, code);
      assert.ok((counts.get('PS7003') ?? 0) > 0 && (counts.get('PS5003') ?? 0) > 0);
    });
  });
}
