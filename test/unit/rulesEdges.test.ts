// Rule edges that mutation testing found untested by the rule tables (docs/mutation.md), checked through
// validateText as the CLI and the editor run the rules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DefinitionCatalog, parsePolicyDocument, RULES, validateDocument, validateText, type ValidateOptions } from '#service';
import { REPO_ROOT } from '../support/corpus';
import { a1, a3, catalog, DEF, defId } from '../support/ruleTester';
import { DEFINITION_VERSION, describeJsonType, describeOwner, listOf, propertyNameOf, quoteList, SUFFIXED_VERSION } from '#server/service/rules/util';
import { parseJson, property } from '#server/service/json';
import { normalizeVersion } from '#server/service/rules/invalid-version';

const DEF_ID = '/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-000000000001';
const codesOf = (text: string, wanted: string[], options: ValidateOptions = {}) => validateText(text, options).diagnostics.map((d) => String(d.code)).filter((c) => wanted.includes(c));

describe('comments and trailing commas: only where the reader takes them (PS1005, PS1001)', () => {
  const withComment = (head = '') => `{ ${head} "properties": { "displayName": "x", "policyDefinitions": [ { "policyDefinitionId": "${DEF_ID}" } ] } // a comment\n}`;
  const withTrailingComma = (head = '') => `{ ${head} "properties": { "displayName": "x", "policyDefinitions": [ { "policyDefinitionId": "${DEF_ID}" }, ] } }`;

  test('a comment is a mistake in plain JSON; not in a .jsonc file, a policy-as-code file, or an ARM template', () => {
    assert.deepEqual(codesOf(withComment(), ['PS1005']), ['PS1005']);
    assert.deepEqual(codesOf(withComment().replace('// a comment', '/* a block comment */'), ['PS1005']), ['PS1005'], 'a block comment too');
    assert.deepEqual(codesOf(withComment(), ['PS1005'], { uri: 'file:///repo/set.JSONC' }), []);
    assert.deepEqual(codesOf(withComment(), ['PS1005'], { uri: 'file:///repo/set.jsonc.bak' }), ['PS1005'], 'only a name ending in .jsonc');
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/schemas/policy-set-definition-schema.json",'), ['PS1005']), []);
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/schemas/policy-definition-schema.json",'), ['PS1005']), []);
    assert.deepEqual(codesOf(withComment('"$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",'), ['PS1005']), []);
    assert.deepEqual(codesOf(withComment('"$schema": 5,'), ['PS1005']), ['PS1005'], 'a $schema that is not text names no reader');
    assert.deepEqual(codesOf(withComment('"$schema": ["policy-set-definition-schema.json"],'), ['PS1005']), ['PS1005'], 'nor a list that holds a name');
    assert.deepEqual(codesOf(withComment('"$schema": "https://example.com/other-schema.json",'), ['PS1005']), ['PS1005']);
  });

  test('a trailing comma is a mistake in plain JSON; not in a .jsonc file or a policy-as-code file', () => {
    assert.deepEqual(codesOf(withTrailingComma(), ['PS1001']), ['PS1001']);
    assert.deepEqual(codesOf(withTrailingComma(), ['PS1001'], { uri: 'file:///repo/set.jsonc' }), []);
    assert.deepEqual(codesOf(withTrailingComma('"$schema": "policy-set-definition-schema.json",'), ['PS1001']), []);
  });

  test("a deployment plan is read by policyset, which takes comments; a lone request body is sent as it is", () => {
    const deployment = '{ "account": "a", "name": "x", "model": "gpt-4o", "sku": { "name": "Standard", "capacity": 1 } }';
    assert.deepEqual(codesOf(`{ // the plan\n "region": "eastus", "deployments": [${deployment}] }`, ['PS1005']), []);
    assert.deepEqual(codesOf(`{ // the plan\n "region": "eastus", "deployments": [${deployment},] }`, ['PS1001']), ['PS1001'], 'not trailing commas');
    assert.deepEqual(codesOf('{ // a body\n "sku": { "name": "Standard", "capacity": 1 }, "properties": { "model": { "format": "OpenAI", "name": "gpt-4o", "version": "1" } } }', ['PS1005']), ['PS1005']);
    assert.deepEqual(codesOf(withComment('"deployments": [],'), ['PS1005']), ['PS1005'], 'a set with a stray deployments list is still a set');
  });

  test("a template is known by its kind or by its $schema; a document that is nothing but a comment has no $schema", () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'examples/clean/contoso-tagging-template.json'), 'utf8');
    const withoutSchema = text.replace(/"\$schema": "[^"]*",/, '');
    assert.notEqual(withoutSchema, text);
    assert.deepEqual(codesOf(withoutSchema.replace('{', '{ // a comment\n'), ['PS1005']), [], 'a template without $schema');
    const bare = (schema: string) =>
      `{ // a comment\n "$schema": "${schema}", "name": "s", "properties": { "displayName": "x", "policyDefinitions": [{ "policyDefinitionId": "${DEF_ID}" }] } }`;
    const options = { assumePolicyDocument: true };
    assert.deepEqual(codesOf(bare('https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#'), ['PS1005'], options), [], 'a template $schema alone');
    assert.deepEqual(codesOf(bare('https://example.com/other.json'), ['PS1005'], options), ['PS1005']);
    const listed = bare('x').replace('"$schema": "x"', '"$schema": ["https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"]');
    assert.deepEqual(codesOf(listed, ['PS1005'], options), ['PS1005'], 'a $schema that is a list names no template');
    const comment = validateText('// nothing but a comment', options);
    assert.deepEqual(comment.internalErrors, []);
    assert.ok(comment.diagnostics.some((d) => d.code === 'PS1005'));
  });

  test('in a .jsonc file a trailing comma is taken, and every other syntax error is still reported', () => {
    const text = withTrailingComma().replace('"displayName": "x"', '"displayName" "x"');
    const errors = validateText(text, { uri: 'file:///repo/set.jsonc' }).diagnostics.filter((d) => d.code === 'PS1001');
    assert.deepEqual(errors.map((d) => d.message), ["Colon ':' expected."]);
  });

  test('a document too large for a tree is not scanned for comments (its syntax and size only are checked)', () => {
    const text = withComment().replace('"displayName": "x"', `"displayName": "x", "description": "${'x'.repeat(8 * 1024 * 1024)}"`);
    // The comment is where JSON.parse stopped: one syntax error there, and no comment scan of 8 MiB.
    assert.deepEqual(codesOf(text, ['PS1001', 'PS1005', 'PS9006'], { assumePolicyDocument: true }).sort(), ['PS1001', 'PS9006']);
  });

  test("an ARM template's reader and a template fragment's take comments, not trailing commas", () => {
    for (const file of ['examples/clean/contoso-tagging-template.json', 'test/fixtures/dialects/arm-fragment/policySetDefinitions/Enforce-Storage.json']) {
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
    assert.deepEqual([null, [], {}, 'x', 3, 3.5, true].map(describeJsonType), ['null', 'an array', 'an object', 'a string', 'an integer', 'a number', 'a boolean']);
  });
});

describe('a set parameter passed whole to a definition parameter of another type (PS8009)', () => {
  const flow = (setType: string, target: string, value: string) =>
    codesOf(
      a3(`{
    "parameters": { "p": { "type": "${setType}" } },
    "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { ${target === 'listOfLocations' ? '' : '"listOfLocations": { "value": ["eastus"] }, '}"${target}": { "value": "${value}" } } }]
  }`),
      ['PS8009'],
      { definitions: catalog() },
    );

  test('a DateTime is a string: it flows to a String parameter; a Float does not flow to an Integer one', () => {
    assert.deepEqual(flow('DateTime', 'effect', "[parameters('p')]"), []);
    assert.deepEqual(flow('Float', 'maxCount', "[parameters('p')]"), ['PS8009']);
    assert.deepEqual(flow('Integer', 'effect', "[parameters('p')]"), ['PS8009']);
    assert.deepEqual(flow('String', 'maxCount', "[parameters('p')]"), ['PS8009']);
  });

  test('only a value that is exactly one parameters() call, spaces allowed, passes the parameter whole', () => {
    assert.deepEqual(flow('String', 'listOfLocations', "[ parameters ( 'p' ) ]"), ['PS8009']);
    assert.deepEqual(flow('String', 'listOfLocations', "[concat(parameters('p'))]"), []);
    assert.deepEqual(flow('String', 'listOfLocations', "[parameters('p')] "), []);
    assert.deepEqual(flow('String', 'listOfLocations', " [parameters('p')]"), []);
  });
});

describe("a version resource's apiVersion is a real date (PS3005)", () => {
  const withApiVersion = (apiVersion: string) => a1(`{ "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}" }] }`).replace('"apiVersion": "2025-11-01"', `"apiVersion": "${apiVersion}"`);
  test('months 1 to 12 and days 1 to 31, the whole value, an optional -preview', () => {
    for (const v of ['2025-01-01', '2025-12-31', '2025-11-01-preview']) assert.deepEqual(codesOf(withApiVersion(v), ['PS3005']), [], v);
    for (const v of ['2025-00-01', '2025-13-01', '2025-01-00', '2025-01-32', 'x2025-01-01', '2025-01-01x', '2025-01-01-previewx']) assert.deepEqual(codesOf(withApiVersion(v), ['PS3005']), ['PS3005'], v);
  });
});

describe('a value that holds an expression is not checked as written (isLiteral)', () => {
  test('a default array with an expression inside is not compared with the allowed values (PS6003); a plain one is', () => {
    const withDefault = (def: string) =>
      a3(`{ "parameters": { "p": { "type": "Array", "allowedValues": [["a"], ["b"]], "defaultValue": ${def} } }, "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { "listOfLocations": { "value": "[parameters('p')]" } } }] }`);
    assert.deepEqual(codesOf(withDefault('["c"]'), ['PS6003']), ['PS6003']);
    assert.deepEqual(codesOf(withDefault(`["[field('name')]"]`), ['PS6003']), []);
    assert.deepEqual(codesOf(withDefault(`[{ "x": ["[field('name')]"] }]`), ['PS6003']), []);
  });
});

describe("PS3002's suggestion (normalizeVersion)", () => {
  test('the version a user meant: digits of each part, a leading v and spaces dropped, missing parts 0', () => {
    assert.equal(normalizeVersion(' v10.20.30-preview '), '10.20.30');
    assert.equal(normalizeVersion('V1.2'), '1.2.0');
    assert.equal(normalizeVersion('12'), '12.0.0');
    assert.equal(normalizeVersion('1.a.3'), '1.0.0');
    assert.equal(normalizeVersion('1.2.b'), '1.2.0');
    assert.equal(normalizeVersion('x1.0.0'), undefined);
  });
});

describe("PS3006's messages: which bump, which changes, and a version lowered for nothing", () => {
  const PARAMS = { effect: { type: 'String', defaultValue: 'Audit', allowedValues: ['Audit', 'Deny'] }, tag: { type: 'String' } };
  const REFS = [
    { policyDefinitionReferenceId: 'r1', policyDefinitionId: defId('d1'), parameters: { effect: { value: "[parameters('effect')]" } } },
    { policyDefinitionReferenceId: 'r2', policyDefinitionId: defId('d2') },
  ];
  const set = (version: string | undefined, changes: { parameters?: object; policyDefinitions?: object[]; description?: string } = {}) =>
    JSON.stringify(
      { name: 'set1', properties: { displayName: 'x', description: changes.description ?? 'd', ...(version === undefined ? {} : { version }), parameters: changes.parameters ?? PARAMS, policyDefinitions: changes.policyDefinitions ?? REFS } },
      null,
      2,
    );
  const messages = (text: string, previous: string) => {
    const result = validateText(text, { assumePolicyDocument: true, previous: { text: previous, label: 'HEAD' } });
    assert.deepEqual(result.internalErrors, [], 'rules threw');
    return result.diagnostics.filter((d) => d.code === 'PS3006').map((d) => d.message);
  };
  const OLD = set('1.2.3');
  const tagRemoved = { parameters: { effect: PARAMS.effect } };

  test('a patch change under the same version: must be greater', () => {
    assert.deepEqual(messages(set('1.2.3', { description: 'other' }), OLD), ["Version '1.2.3' must be greater than '1.2.3' (HEAD): the set changed (description-changed); use '1.2.4'."]);
  });

  test('a minor or a major change under the same version: not bumped enough, naming the bump and only its changes', () => {
    const added = [...REFS, { policyDefinitionReferenceId: 'r3', policyDefinitionId: defId('d3') }];
    assert.deepEqual(messages(set('1.2.3', { policyDefinitions: added }), OLD), [
      "Version '1.2.3' is not bumped enough for the changes since HEAD (1.2.3): they need a minor version (reference-added); use '1.3.0'.",
    ]);
    // A description changed too (a patch change): not named beside the major one.
    assert.deepEqual(messages(set('1.2.3', { ...tagRemoved, description: 'other' }), OLD), [
      "Version '1.2.3' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-removed); use '2.0.0'.",
    ]);
  });

  test('three kinds of change are named; a fourth is an ellipsis', () => {
    const three = { parameters: { effect: { type: 'Array', defaultValue: ['Audit'] }, required: { type: 'String' } } };
    assert.deepEqual(messages(set('1.3.0', three), OLD), [
      "Version '1.3.0' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-added-without-default, parameter-type-changed, parameter-removed); use '2.0.0'.",
    ]);
    assert.deepEqual(messages(set('1.3.0', { ...three, policyDefinitions: [REFS[0]] }), OLD), [
      "Version '1.3.0' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-added-without-default, parameter-type-changed, parameter-removed, ...); use '2.0.0'.",
    ]);
  });

  test('a version lowered with nothing changed says so, and asks for the earlier one back', () => {
    assert.deepEqual(messages(set('1.2.2'), OLD), ["Version '1.2.2' is lower than '1.2.3' (HEAD), and nothing changed that needs a new version: use '1.2.3'."]);
    assert.deepEqual(messages(set('1.2.3'), OLD), [], 'the same version, nothing changed');
  });

  test('an earlier text that is not JSON, or where this set is new, has nothing to compare with; the setting for a reference added reaches the rule', () => {
    assert.deepEqual(messages(set('1.2.3', tagRemoved), '{ not json'), []);
    const resource = (name: string, version: string) =>
      `{ "type": "Microsoft.Authorization/policySetDefinitions", "apiVersion": "2025-11-01", "name": "${name}", "properties": { "version": "${version}", "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] } }`;
    const template = (...resources: string[]) =>
      `{ "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#", "contentVersion": "1.0.0.0", "resources": [${resources.join(', ')}] }`;
    assert.deepEqual(messages(template(resource('a', '1.0.0'), resource('c', '1.0.0')), template(resource('a', '1.0.0'), resource('b', '2.0.0'))), [], 'set c is new');
    const added = [...REFS, { policyDefinitionReferenceId: 'r3', policyDefinitionId: defId('d3') }];
    const withSetting = validateText(set('1.3.0', { policyDefinitions: added }), { assumePolicyDocument: true, previous: { text: OLD, label: 'HEAD', referenceAdded: 'major' } });
    assert.deepEqual(withSetting.diagnostics.filter((d) => d.code === 'PS3006').map((d) => d.data.suggested), ['2.0.0']);
  });

  test('versions of several digits are checked; one that is not #.#.# is left to invalid-version; no earlier version, nothing to compare', () => {
    assert.deepEqual(messages(set('10.20.30', tagRemoved), set('10.20.30')), [
      "Version '10.20.30' is not bumped enough for the changes since HEAD (10.20.30): they need a major version (parameter-removed); use '11.0.0'.",
    ]);
    for (const odd of ['1.3.0-preview', 'v1.3.0']) assert.deepEqual(messages(set(odd, tagRemoved), OLD), [], odd);
    assert.deepEqual(messages(set('1.2.3', tagRemoved), set(undefined)), [], 'no earlier version');
    assert.deepEqual(messages(set(undefined, tagRemoved), OLD), [], 'no version now');
  });
});

describe("the figures in the limits' messages", () => {
  const diagnosticsOf = (text: string, code: string) => validateText(text, { assumePolicyDocument: true }).diagnostics.filter((d) => d.code === code);

  test('PS1003 names the depth found, and past 100,000 levels says only that', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    for (const [levels, depth] of [[600, 600], [100_000, 100_000], [100_001, 'over 100000']] as const) {
      const [diagnostic] = diagnosticsOf(nested(levels), 'PS1003');
      assert.equal(diagnostic?.data.depth, depth, String(levels));
      assert.match(diagnostic.message, new RegExp(`deeper than 512 levels \\(${depth} found\\)`), String(levels));
    }
  });

  test('PS9006 gives the size in MiB and the bound, in its message and its description', () => {
    const text = `{"name": "huge", "properties": {"description": "${'x'.repeat(9 * 1024 * 1024)}", "policyDefinitions": []}}`;
    const [diagnostic] = diagnosticsOf(text, 'PS9006');
    assert.match(diagnostic?.message ?? '', /^This document is 9\.0 MiB: over 8 MiB only its syntax and size are checked\./);
    assert.match(RULES.find((r) => r.meta.code === 'PS9006')!.meta.description, /^A document over 8 MiB is checked/);
  });

  test('PS9003 gives the size in KiB, rounded up', () => {
    const set = (bytes: number) => {
      const head = '{"name": "s", "properties": {"policyDefinitions": [], "description": "';
      const tail = '"}}';
      return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
    };
    const [diagnostic] = diagnosticsOf(set(1024 * 1024 + 1), 'PS9003');
    assert.deepEqual([diagnostic?.data.size, diagnostic?.data.bytes], [1025, 1024 * 1024 + 1]);
    assert.match(diagnostic.message, /at least 1025 KiB, over the 1024 KiB limit/);
  });
});

describe("PS2001's words: the types with their articles, null, and the property's own name", () => {
  test('a string, an array, an object, an integer, or null; a name holding a quote keeps it', () => {
    const text = JSON.stringify({
      name: 's',
      properties: { displayName: 'x', policyType: 5, policyDefinitions: 'x', description: {}, parameters: { "it's": 5, p: { type: 'String', metadata: { displayName: 5 } } } },
    });
    const messages = validateText(text).diagnostics.filter((d) => d.code === 'PS2001').map((d) => d.message);
    assert.deepEqual(messages.sort(), [
      "'description' must be a string or null, not an object.",
      "'displayName' must be a string, not an integer.",
      "'it's' must be an object, not an integer.",
      "'policyDefinitions' must be an array, not a string.",
      "'policyType' must be a string, not an integer.",
    ]);
  });
});

describe('the resolved references are cached per set, catalogue and cloud', () => {
  test('the same parsed document checked again with another catalogue or cloud is resolved again (as the server does when definitions change)', () => {
    const text = a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${DEF.twoClouds}", "parameters": { "govOnly": { "value": "b" } } }] }`);
    const document = parsePolicyDocument(text);
    const unknown = (options: ValidateOptions) => validateDocument(document, options).diagnostics.filter((d) => d.code === 'PS8001').length;
    assert.equal(unknown({ definitions: new DefinitionCatalog() }), 0, 'no definitions known');
    assert.equal(unknown({ definitions: catalog() }), 1, 'another catalogue: govOnly is no AzureCloud parameter');
    const definitions = catalog();
    assert.equal(unknown({ definitions, cloud: 'AzureCloud' }), 1);
    assert.equal(unknown({ definitions, cloud: 'AzureUSGovernment' }), 0, 'another cloud: govOnly is the Government variant');
  });
});
