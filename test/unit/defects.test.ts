// One fixture per defect: each file in test/fixtures/defects holds exactly one mistake, and
// expected.json names the rule that must report it and the (1-based) line where the report starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog, decodeUtf8, RULES, SEVERITY_VALUES } from '#service';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/defects');
const DEFINITIONS = path.join(FIXTURES, 'definitions');
const MANIFEST = 'expected.json';

interface Expectation {
  code: string;
  line: number;
}

function readText(file: string): string {
  return decodeUtf8(fs.readFileSync(file)).text;
}

/** The catalogue of test/fixtures/defects/definitions: index files (JSON arrays) and policy definition files, as the CLI reads them. */
function loadCatalog(dir: string): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = path.join(dir, name);
    const value = JSON.parse(readText(file)) as unknown;
    if (Array.isArray(value)) assert.ok(catalog.addIndex(value, file) > 0, `${name}: empty index`);
    else assert.ok(catalog.addDefinitionDocument(value, file), `${name} is not a policy definition`);
  }
  return catalog;
}

const catalog = loadCatalog(DEFINITIONS);
const manifest = JSON.parse(readText(path.join(FIXTURES, MANIFEST))) as Record<string, Expectation>;
const fixtureFiles = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && entry.name !== MANIFEST)
  .map((entry) => entry.name)
  .sort();
const severityByCode = new Map(RULES.map((rule) => [rule.meta.code, rule.meta.defaultSeverity]));

test('every defect fixture is in the manifest, and every manifest entry has a fixture', () => {
  assert.deepEqual(fixtureFiles, Object.keys(manifest).sort());
});

test('the fixture definitions include an index of built-ins, so unknown built-in IDs are reported', () => {
  assert.equal(catalog.hasBuiltIns, true);
});

for (const file of fixtureFiles) {
  const expected = manifest[file];
  test(`${file}: one ${expected?.code ?? '(missing from the manifest)'} on line ${expected?.line ?? '?'}`, () => {
    assert.ok(expected, `${file} is not in ${MANIFEST}`);
    assert.ok(severityByCode.has(expected.code), `${expected.code} is not a rule code`);
    const text = readText(path.join(FIXTURES, file));
    const result = validateText(text, { definitions: catalog, assumePolicyDocument: true, uri: file });
    assert.deepEqual(result.internalErrors, []);
    // Errors and warnings must be exactly the expected one. Hints and infos are ignored, except that a
    // fixture for a hint or info rule counts the diagnostics of its own code.
    const counted = result.diagnostics.filter((d) => d.severity <= SEVERITY_VALUES.warning || d.code === expected.code);
    const shown = counted.map((d) => `${String(d.code)} line ${d.range.start.line + 1}: ${d.message}`);
    assert.equal(counted.length, 1, `expected one ${expected.code}, got:\n  ${shown.join('\n  ') || '(nothing)'}`);
    const [diagnostic] = counted;
    assert.equal(diagnostic.code, expected.code, shown[0]);
    assert.equal(diagnostic.range.start.line + 1, expected.line, shown[0]);
    const severity = severityByCode.get(expected.code);
    assert.ok(severity);
    assert.equal(diagnostic.severity, SEVERITY_VALUES[severity], "the rule's default severity");
  });
}
