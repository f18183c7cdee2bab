// The examples/ folder is what a newcomer lints first: clean documents must stay clean, the documents
// with mistakes must keep showing them, and the definitions they reference must be recognised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog, decodeUtf8, SEVERITY_VALUES, type ValidationResult } from '#service';
import { REPO_ROOT, listJsonFiles } from '../support/corpus';

const EXAMPLES = path.join(REPO_ROOT, 'examples');
const DEFINITIONS = path.join(EXAMPLES, 'definitions');

function readJson(file: string): unknown {
  return JSON.parse(decodeUtf8(fs.readFileSync(file)).text) as unknown;
}

function relative(file: string): string {
  return path.relative(EXAMPLES, file).split(path.sep).join('/');
}

const definitionFiles = listJsonFiles(DEFINITIONS);
const cleanFiles = listJsonFiles(path.join(EXAMPLES, 'clean'));
const mistakeFiles = listJsonFiles(path.join(EXAMPLES, 'mistakes'));

const catalog = new DefinitionCatalog();
for (const file of definitionFiles) catalog.addDefinitionDocument(readJson(file), file);

function validate(file: string): ValidationResult {
  const { text, encodingProblem } = decodeUtf8(fs.readFileSync(file));
  return validateText(text, { definitions: catalog, assumePolicyDocument: true, encodingProblem, uri: relative(file) });
}

function describe(result: ValidationResult): string {
  return result.diagnostics.map((d) => `${d.code} line ${d.range.start.line + 1}: ${d.message}`).join('\n  ') || '(nothing)';
}

test('examples/ has definitions, clean documents and documents with mistakes', () => {
  assert.ok(definitionFiles.length >= 3, 'at least 3 definitions');
  assert.ok(cleanFiles.length >= 3, 'at least 3 clean documents');
  assert.ok(mistakeFiles.length >= 3, 'at least 3 documents with mistakes');
  assert.ok(fs.existsSync(path.join(EXAMPLES, 'README.md')), 'examples/README.md');
});

for (const file of definitionFiles) {
  test(`${relative(file)} is recognised as a policy definition`, () => {
    const value = readJson(file);
    assert.equal(new DefinitionCatalog().addDefinitionDocument(value, file), true);
    const { text } = decodeUtf8(fs.readFileSync(file));
    const result = validateText(text, { assumePolicyDocument: true });
    assert.equal(result.kind, 'policyDefinition');
    assert.deepEqual(result.diagnostics, []);
  });
}

test('every definition in examples/definitions is referenced by a clean example', () => {
  const cleanText = cleanFiles.map((file) => decodeUtf8(fs.readFileSync(file)).text.toLowerCase()).join('\n');
  for (const file of definitionFiles) {
    const id = (readJson(file) as { id: string }).id;
    assert.ok(catalog.lookup(id).length, `${id} is in the catalogue`);
    assert.ok(cleanText.includes(`"${id.toLowerCase()}"`), `${relative(file)} is referenced by a clean example`);
  }
});

for (const file of cleanFiles) {
  test(`${relative(file)} has no error or warning`, () => {
    const result = validate(file);
    assert.notEqual(result.kind, 'unknown');
    assert.deepEqual(result.internalErrors, []);
    const problems = result.diagnostics.filter((d) => d.severity <= SEVERITY_VALUES.warning);
    assert.equal(problems.length, 0, describe(result));
  });
}

for (const file of mistakeFiles) {
  test(`${relative(file)} has errors`, () => {
    const result = validate(file);
    assert.notEqual(result.kind, 'unknown');
    assert.deepEqual(result.internalErrors, []);
    const errors = result.diagnostics.filter((d) => d.severity === SEVERITY_VALUES.error);
    assert.ok(errors.length >= 1, describe(result));
  });
}
