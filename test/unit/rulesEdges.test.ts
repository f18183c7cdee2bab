// Rule edges that mutation testing found untested by the rule tables (docs/mutation.md), checked through
// validateText as the CLI and the editor run the rules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DefinitionCatalog, parsePolicyDocument, validateDocument, validateText, type ValidateOptions } from '#service';
import { REPO_ROOT } from '../support/corpus';
import { a3, catalog, DEF } from '../support/ruleTester';
import {
  DEFINITION_VERSION,
  describeJsonType,
  describeOwner,
  listOf,
  propertyNameOf,
  quoteList,
  SUFFIXED_VERSION,
} from '#server/service/rules/util';
import { parseJson, property } from '#server/service/json/index';

const DEF_ID = '/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-000000000001';
const codesOf = (text: string, wanted: string[], options: ValidateOptions = {}) =>
  validateText(text, options)
    .diagnostics.map((d) => String(d.code))
    .filter((c) => wanted.includes(c));

describe('comments and trailing commas: only where the reader takes them (PS1005, PS1001)', () => {
  const withComment = (head = '') =>
    `{ ${head} "properties": { "displayName": "x", "policyDefinitions": [ { "policyDefinitionId": "${DEF_ID}" } ] } // a comment\n}`;
  const withTrailingComma = (head = '') =>
    `{ ${head} "properties": { "displayName": "x", "policyDefinitions": [ { "policyDefinitionId": "${DEF_ID}" }, ] } }`;

  test('a comment is a mistake in plain JSON; not in a .jsonc file, a policy-as-code file, or an ARM template', () => {
    assert.deepEqual(codesOf(withComment(), ['PS1005']), ['PS1005']);
    assert.deepEqual(
      codesOf(withComment().replace('// a comment', '/* a block comment */'), ['PS1005']),
      ['PS1005'],
      'a block comment too',
    );
    assert.deepEqual(codesOf(withComment(), ['PS1005'], { uri: 'file:///repo/set.JSONC' }), []);
    assert.deepEqual(codesOf(withComment(), ['PS1005'], { uri: 'file:///repo/set.jsonc.bak' }), ['PS1005'], 'only a name ending in .jsonc');
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/schemas/policy-set-definition-schema.json",'), ['PS1005']), []);
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/schemas/policy-definition-schema.json",'), ['PS1005']), []);
    assert.deepEqual(
      codesOf(withComment('"$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",'), ['PS1005']),
      [],
    );
    assert.deepEqual(codesOf(withComment('"$schema": 5,'), ['PS1005']), ['PS1005'], 'a $schema that is not text names no reader');
    assert.deepEqual(
      codesOf(withComment('"$schema": ["policy-set-definition-schema.json"],'), ['PS1005']),
      ['PS1005'],
      'nor a list that holds a name',
    );
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/other-schema.json",'), ['PS1005']), ['PS1005']);
  });

  test('a trailing comma is a mistake in plain JSON; not in a .jsonc file or a policy-as-code file', () => {
    assert.deepEqual(codesOf(withTrailingComma(), ['PS1001']), ['PS1001']);
    assert.deepEqual(codesOf(withTrailingComma(), ['PS1001'], { uri: 'file:///repo/set.jsonc' }), []);
    assert.deepEqual(codesOf(withTrailingComma('"$schema": "policy-set-definition-schema.json",'), ['PS1001']), []);
  });

  test('a deployment plan is read by policyset, which takes comments; a lone request body is sent as it is', () => {
    const deployment = '{ "account": "a", "name": "x", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 1 } }';
    assert.deepEqual(codesOf(`{ // the plan\n "region": "eastus", "deployments": [${deployment}] }`, ['PS1005']), []);
    assert.deepEqual(
      codesOf(`{ // the plan\n "region": "eastus", "deployments": [${deployment},] }`, ['PS1001']),
      ['PS1001'],
      'not trailing commas',
    );
    assert.deepEqual(
      codesOf(
        '{ // a body\n "sku": { "name": "Standard", "capacity": 1 }, "properties": { "model": { "format": "OpenAI", "name": "gpt-4o", "version": "1" } } }',
        ['PS1005'],
      ),
      ['PS1005'],
    );
    assert.deepEqual(
      codesOf(withComment('"deployments": [],'), ['PS1005']),
      ['PS1005'],
      'a set with a stray deployments list is still a set',
    );
  });

  test('a template is known by its kind or by its $schema; a document that is nothing but a comment has no $schema', () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'examples/clean/contoso-tagging-template.json'), 'utf8');
    const withoutSchema = text.replace(/"\$schema": "[^"]*",/, '');
    assert.notEqual(withoutSchema, text);
    assert.deepEqual(codesOf(withoutSchema.replace('{', '{ // a comment\n'), ['PS1005']), [], 'a template without $schema');
    const bare = (schema: string) =>
      `{ // a comment\n "$schema": "${schema}", "name": "s", "properties": { "displayName": "x", "policyDefinitions": [{ "policyDefinitionId": "${DEF_ID}" }] } }`;
    const options = { assumePolicyDocument: true };
    assert.deepEqual(
      codesOf(bare('https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#'), ['PS1005'], options),
      [],
      'a template $schema alone',
    );
    assert.deepEqual(codesOf(bare('https://example.com/other.json'), ['PS1005'], options), ['PS1005']);
    const listed = bare('x').replace(
      '"$schema": "x"',
      '"$schema": ["https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"]',
    );
    assert.deepEqual(codesOf(listed, ['PS1005'], options), ['PS1005'], 'a $schema that is a list names no template');
    const comment = validateText('// nothing but a comment', options);
    assert.deepEqual(comment.internalErrors, []);
    assert.ok(comment.diagnostics.some((d) => d.code === 'PS1005'));
  });

  test('in a .jsonc file a trailing comma is taken, and every other syntax error is still reported', () => {
    const text = withTrailingComma().replace('"displayName": "x"', '"displayName" "x"');
    const errors = validateText(text, { uri: 'file:///repo/set.jsonc' }).diagnostics.filter((d) => d.code === 'PS1001');
    assert.deepEqual(
      errors.map((d) => d.message),
      ["Colon ':' expected."],
    );
  });

  test('a document too large for a tree is not scanned for comments (its syntax and size only are checked)', () => {
    const text = withComment().replace('"displayName": "x"', `"displayName": "x", "description": "${'x'.repeat(8 * 1024 * 1024)}"`);
    // The comment is where JSON.parse stopped: one syntax error there, and no comment scan of 8 MiB.
    assert.deepEqual(codesOf(text, ['PS1001', 'PS1005', 'PS9006'], { assumePolicyDocument: true }).sort(), ['PS1001', 'PS9006']);
  });

  test("an ARM template's reader and a template fragment's take comments, not trailing commas", () => {
    for (const file of [
      'examples/clean/contoso-tagging-template.json',
      'test/fixtures/dialects/arm-fragment/policySetDefinitions/Enforce-Storage.json',
    ]) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      assert.deepEqual(codesOf(text, ['PS1005', 'PS1001']), [], file);
      assert.deepEqual(codesOf(text.replace('{', '{ // a comment\n'), ['PS1005', 'PS1001']), [], `${file} with a comment`);
      assert.deepEqual(codesOf(text.replace(/\}\s*$/, ', }'), ['PS1005', 'PS1001']), ['PS1001'], `${file} with a trailing comma`);
    }
  });
});

describe("the rules' shared helpers (rules/util.ts)", () => {
  test('version patterns: every part may have several digits; a definition version may end in .* parts; whole strings only', () => {
    for (const v of ['10.20.30', '1.0.0-preview', '12.34.56-rc.1']) assert.equal(SUFFIXED_VERSION.test(v), true, v);
    for (const v of ['1.0', '1.0.0-', 'v1.0.0', '1.0.0.0']) assert.equal(SUFFIXED_VERSION.test(v), false, v);
    for (const v of ['10.20.30', '1.22.*', '3.*.*', '10.0.0-preview', '1.*.*-preview']) assert.equal(DEFINITION_VERSION.test(v), true, v);
    for (const v of ['1.*.0', '*.*.*', '1.0.0 x', '1.2.3.4', '1.2.*x']) assert.equal(DEFINITION_VERSION.test(v), false, v);
  });

  test('lists: at most five shown, then how many more', () => {
    assert.equal(listOf(['a', 'b', 'c', 'd', 'e']), 'a, b, c, d, e');
    assert.equal(listOf(['a', 'b', 'c', 'd', 'e', 'f', 'g']), 'a, b, c, d, e, and 2 more');
    assert.equal(quoteList(['x', 'y', 'z'], 2), "'x', 'y', and 1 more");
  });

  test('an owner is named by its key, as an array item, or as the document', () => {
    const root = parseJson('{ "policyDefinitions": [ { "a": 1 }, { "b": 2 } ], "x": [[{}]] }').root!;
    const defs = property(root, 'policyDefinitions')!;
    assert.equal(describeOwner(root), 'the document');
    assert.equal(describeOwner(undefined), 'the document');
    assert.equal(describeOwner(defs), "'policyDefinitions'");
    assert.equal(describeOwner(defs.children![1]), "'policyDefinitions[1]'");
    const nested = property(root, 'x')!.children![0].children![0];
    assert.equal(describeOwner(nested), "'item[0]'");
    assert.equal(propertyNameOf(defs), 'policyDefinitions');
    assert.equal(propertyNameOf(defs.children![0]), undefined);
  });

  test('JSON types in words', () => {
    assert.deepEqual([null, [], {}, 'x', 3, 3.5, true].map(describeJsonType), [
      'null',
      'an array',
      'an object',
      'a string',
      'an integer',
      'a number',
      'a boolean',
    ]);
  });
});

describe('the resolved references are cached per set, catalogue and cloud', () => {
  test('the same parsed document checked again with another catalogue or cloud is resolved again (as the server does when definitions change)', () => {
    const text = a3(
      `{ "policyDefinitions": [{ "policyDefinitionId": "${DEF.twoClouds}", "parameters": { "govOnly": { "value": "b" } } }] }`,
    );
    const document = parsePolicyDocument(text);
    const unknown = (options: ValidateOptions) => validateDocument(document, options).diagnostics.filter((d) => d.code === 'PS8001').length;
    assert.equal(unknown({ definitions: new DefinitionCatalog() }), 0, 'no definitions known');
    assert.equal(unknown({ definitions: catalog() }), 1, 'another catalogue: govOnly is no AzureCloud parameter');
    const definitions = catalog();
    assert.equal(unknown({ definitions, cloud: 'AzureCloud' }), 1);
    assert.equal(unknown({ definitions, cloud: 'AzureUSGovernment' }), 0, 'another cloud: govOnly is the Government variant');
  });
});
