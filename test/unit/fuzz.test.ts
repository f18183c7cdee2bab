import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog } from '#service';
import { CORPORA, listJsonFiles, REPO_ROOT } from '../support/corpus';

/** A small deterministic generator (mulberry32): a failure names its seed and can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  '"[parameters(\'',
  "')]",
  '[[',
  'null',
  '-1e999',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '// c\n',
  '/*',
  '"policyDefinitions": [',
  '"groupNames": ["x"]',
  '"type": "Strin"',
  '"name": "1.0"',
  "[if(equals(parameters('a'),'b'),",
  '\r\n',
];

test('random edits of real documents: validation never throws, never fails a rule, keeps ranges inside the text', () => {
  // The examples and the corpus subset always; the full corpus too when it is there.
  const sources = [
    ...listJsonFiles(path.join(REPO_ROOT, 'examples')),
    ...CORPORA.flatMap((corpus) => listJsonFiles(corpus.sets).filter((f) => fs.statSync(f).size < 40_000)),
  ];
  const texts = sources.map((f) => fs.readFileSync(f, 'utf8'));
  const catalog = new DefinitionCatalog();
  for (const corpus of CORPORA) catalog.addIndex(JSON.parse(fs.readFileSync(corpus.index, 'utf8')));
  const seed = Number(process.env.FUZZ_SEED ?? 20261122);
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const edits = Number(process.env.FUZZ_EDITS ?? 3000);
  for (let i = 0; i < edits; i++) {
    let text = pick(texts);
    // One to three edits: insert a fragment, delete a span, truncate, or paste a span of another document.
    for (let k = 0, n = 1 + Math.floor(next() * 3); k < n; k++) {
      const at = Math.floor(next() * (text.length + 1));
      const kind = next();
      if (kind < 0.4) text = text.slice(0, at) + pick(FRAGMENTS) + text.slice(at);
      else if (kind < 0.7) text = text.slice(0, at) + text.slice(at + Math.floor(next() * 200));
      else if (kind < 0.8) text = text.slice(0, at);
      else {
        const other = pick(texts);
        const from = Math.floor(next() * other.length);
        text = text.slice(0, at) + other.slice(from, from + Math.floor(next() * 400)) + text.slice(at);
      }
    }
    let result;
    try {
      result = validateText(text, { definitions: catalog, assumePolicyDocument: next() < 0.5 });
    } catch (error) {
      assert.fail(`edit ${i} (seed ${seed}) threw: ${(error as Error).stack}`);
    }
    assert.deepEqual(result.internalErrors, [], `edit ${i} (seed ${seed})`);
    const lines = text.split(/\r\n|\r|\n/);
    for (const d of result.diagnostics) {
      const { start, end } = d.range;
      assert.ok(start.line <= end.line && end.line < lines.length, `edit ${i} (seed ${seed}): ${d.code} range ${JSON.stringify(d.range)}`);
      assert.ok(
        start.character <= lines[start.line].length && end.character <= lines[end.line].length,
        `edit ${i} (seed ${seed}): ${d.code} ${JSON.stringify(d.range)}`,
      );
    }
  }
});
