// The tree built over text JSON.parse accepted (nodes made on first read) is the tree jsonc-parser builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTree, type Node } from 'jsonc-parser';
import {
  mayHaveCaseVariantKeys,
  nonStringItems,
  parseJson,
  property,
  propertyIgnoreCase,
  propertyValuesIgnoreCase,
  stringValuesStartingWith,
} from '#server/service/json/index';
import { findDuplicateKeys, TapeNode } from '#server/service/json/tree';
import { FULL_CORPUS, listJsonFiles, REPO_ROOT } from '../support/corpus';

function assertSameTree(actual: Node, expected: Node, where: string) {
  for (const key of ['type', 'offset', 'length', 'value', 'colonOffset'] as const) {
    assert.deepEqual(actual[key], expected[key], `${where}: ${key}`);
  }
  assert.equal(actual.parent?.offset, expected.parent?.offset, `${where}: parent`);
  assert.equal(!!actual.children, !!expected.children, `${where}: children`);
  if (!expected.children) return;
  assert.equal(actual.children!.length, expected.children.length, `${where}: number of children`);
  expected.children.forEach((child, i) => assertSameTree(actual.children![i], child, `${where}/${i}`));
}

function checkFile(text: string, label: string) {
  const parsed = parseJson(text);
  const expected = parseTree(parsed.text, [], { disallowComments: false })!;
  assertSameTree(parsed.root!, expected, label);
  assert.deepEqual(
    parsed.duplicateKeys.map((k) => k.offset),
    findDuplicateKeys(expected).map((k) => k.offset),
    `${label}: duplicate keys`,
  );
}

const SAMPLES = [
  '{"a":1,"b":[true,false,null,-1.5e3,"x"],"c":{}}',
  '{ "k\\"ey": "va\\\\lue\\u00e9", "plain": "no escapes here", "esc\\\\": "\\\\" }',
  '{"a":1,"b":2,"a":3}',
  '{"a":1,"\\u0061":2,"b":{"x":1,"y":2}}',
  '{"ab":1,"ba":2,"abc":3,"abd":4,"nested":{"k":[{"k":1,"k":2}]}}',
  `{${Array.from({ length: 80 }, (_, i) => `"k${i % 75}": ${i}`).join(',')}}`,
  `{${Array.from({ length: 80 }, (_, i) => `"k${i}": ${i}`).join(',')}}`,
  `{${Array.from({ length: 40 }, (_, i) => `"k${i % 30}": ${i}`).join(',')}}`,
  '[[[]],[{}],{"x":[{"y":{"z":"deep"}}]}]',
  '"just a string"',
  '42',
  '\uFEFF{"bom": true}',
];

test('the tree of strict JSON matches jsonc-parser node for node (types, offsets, values, colons, duplicates)', () => {
  SAMPLES.forEach((text, i) => checkFile(text, `sample ${i}`));
  // test/fixtures holds the corpus subset; the full corpus adds to it when it is there.
  const dirs = [path.join(REPO_ROOT, 'examples'), path.join(REPO_ROOT, 'test', 'fixtures'), ...(FULL_CORPUS ? [FULL_CORPUS.sets] : [])];
  let checked = 0;
  for (const file of dirs.flatMap((dir) => listJsonFiles(dir))) {
    const text = fs.readFileSync(file, 'utf8');
    try {
      JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      continue; // not strict JSON: the tolerant parser builds that tree
    }
    checkFile(text, path.relative(REPO_ROOT, file));
    checked++;
  }
  assert.ok(checked > 10, `only ${checked} files checked`);
});

test('key lookups make the same nodes the children do, and an exact key wins over one of another casing', () => {
  const parsed = parseJson('{"Type":"a","type":"b","TYPE":"c","other":{"x":1}}');
  const root = parsed.root!;
  const exact = property(root, 'type');
  assert.equal(exact?.value, 'b');
  assert.equal(propertyIgnoreCase(root, 'type'), exact);
  assert.equal(propertyIgnoreCase(root, 'tYpE')?.value, 'c', 'the last property of any casing');
  assert.equal(property(root, 'missing'), undefined);
  assert.equal(propertyIgnoreCase(root, 'OTHER')?.type, 'object');
  // Nodes found by key are the very nodes of the children arrays, with their parents.
  assert.equal(root.children![1].children![1], exact);
  assert.equal(exact!.parent, root.children![1]);
  assert.equal(root.children![1].children![0].value, 'type');
  // A large object keeps a table of its keys; it still has no value, as jsonc-parser's objects have none.
  const large = parseJson(`{${Array.from({ length: 20 }, (_, i) => `"k${i}": ${i}`).join(',')}}`).root!;
  assert.equal(property(large, 'k19')?.value, 19);
  assert.equal(propertyIgnoreCase(large, 'K7')?.value, 7);
  assert.equal(large.value, undefined);
  const x = property(property(root, 'other'), 'x');
  assert.equal(x?.value, 1);
  assert.equal(x?.parent?.parent?.parent?.parent, root); // property x, object, property other, root
});

test('several keys at once and expression strings: the tree over strict JSON answers as the jsonc-parser tree does', () => {
  const names = ['parameters', 'policydefinitionid', 'groupnames', 'type', 'value', 'name'];
  const texts = [
    '{"Parameters":{"a":{"value":"[parameters(\'x\')]"}},"PolicyDefinitionId":"/p","groupNames":["g","[[lit"],"name":"n","name":"last"}',
    '{"k\\u0065y":"[esc]","t\\u0059pe":"\\u005Bparameters(\'y\')]","\\u00c9":"[x]","value":["[a]",{"value":"[b]","[key]":1}]}',
  ];
  const dirs = [path.join(REPO_ROOT, 'examples'), path.join(REPO_ROOT, 'test', 'fixtures'), ...(FULL_CORPUS ? [FULL_CORPUS.sets] : [])];
  for (const file of dirs.flatMap((dir) => listJsonFiles(dir))) texts.push(fs.readFileSync(file, 'utf8'));
  let objects = 0;
  for (const text of texts) {
    const parsed = parseJson(text);
    if (!parsed.root || !(parsed.root instanceof TapeNode)) continue; // not strict JSON: the generic path is the tree's own
    const expected = parseTree(parsed.text, [], { disallowComments: false })!;
    const offsets = (nodes: Array<Node | undefined>) => nodes.map((n) => (n ? `${n.offset}:${n.length}` : '-'));
    // Both trees walked together: every object's lookups, and every subtree's expression strings.
    const stack: Array<[Node, Node]> = [[parsed.root, expected]];
    while (stack.length) {
      const [ours, theirs] = stack.pop()!;
      if (ours.type === 'object') {
        objects++;
        assert.deepEqual(
          offsets(propertyValuesIgnoreCase(ours, names)),
          offsets(propertyValuesIgnoreCase(theirs, names)),
          `keys of the object at ${theirs.offset}`,
        );
        assert.deepEqual(
          offsets(stringValuesStartingWith(ours, '[')),
          offsets(stringValuesStartingWith(theirs, '[')),
          `strings under the object at ${theirs.offset}`,
        );
      }
      theirs.children?.forEach((child, i) => stack.push([ours.children![i], child]));
    }
  }
  assert.ok(objects > 100, `only ${objects} objects compared`);
});

test('keys that are one name in two casings: found in the text with no node made, as the jsonc-parser tree finds them', () => {
  const cases: Array<[string, boolean]> = [
    ['{"effect":1,"Effect":2}', true],
    ['{"a":1,"listOfX":2,"b":3,"LISTOFX":4}', true],
    ['{"effect":1,"effect":2}', false], // an exact repeat is a duplicate key, not a casing variant
    ['{"effect":1,"effects":2,"affect":3}', false],
    ['{"a@":1,"a`":2}', false], // '@' and '`' differ by the case bit but are not letters
    ['{"only":1}', false],
    ['{}', false],
    ['[1,2]', false],
    ['{"caf\\u00e9":1,"other":2}', true], // escaped: a maybe, looked at closely
    ['{"café":1,"other":2}', true], // not ASCII: a maybe
    [`{${Array.from({ length: 70 }, (_, i) => `"k${i}": ${i}`).join(',')}}`, true], // many keys: a maybe
  ];
  for (const [text, expected] of cases) {
    const root = parseJson(text).root!;
    assert.ok(root instanceof TapeNode, text);
    assert.equal(mayHaveCaseVariantKeys(root), expected, text);
    // The jsonc-parser tree is never surer than the text: a maybe whenever there are two keys or more.
    const tolerant = parseTree(text, [], { disallowComments: false })!;
    if (expected) assert.equal(mayHaveCaseVariantKeys(tolerant), true, text);
  }
  assert.equal(mayHaveCaseVariantKeys(undefined), false);
});

test("an array's items that are not strings: the same nodes as the jsonc-parser tree's, without making the strings", () => {
  for (const text of ['[1, "a", true, null, {"x": "y"}, ["z"], "b", 2.5]', '["only", "strings"]', '[]', '{"not": "an array"}']) {
    const parsed = parseJson(text);
    const fast = nonStringItems(parsed.root);
    const expected = nonStringItems(parseTree(text, [], { disallowComments: false }));
    assert.deepEqual(
      fast.map((n) => [n.type, n.offset, n.length]),
      expected.map((n) => [n.type, n.offset, n.length]),
      text,
    );
    // The nodes are the tree's own: asking for all the items afterwards gives the same objects.
    const all = parsed.root!.children ?? [];
    for (const node of fast) assert.ok(all.includes(node), text);
  }
  // An object whose properties were made first has no items either (found by a type fuzz: PS6002 said
  // "Allowed value of 'effect' is a undefined" for an allowedValues written as an object).
  const object = parseJson('{"a": 1, "b": "x"}').root!;
  assert.equal(object.children?.length, 2);
  assert.deepEqual(nonStringItems(object), []);
});

test('PS6002: an allowedValues that is an object is not an array of mistyped values (the schema reports its type)', async () => {
  const { validateText } = await import('#service');
  const text = `{ "properties": { "displayName": "x", "parameters": { "effect": { "type": "String", "allowedValues": { "a": 1 } } },
    "policyDefinitions": [{ "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/d1", "parameters": { "effect": { "value": "[parameters('effect')]" } } }] } }`;
  const codes = validateText(text).diagnostics.map((d) => `${d.code} ${d.message}`);
  assert.deepEqual(
    codes.filter((c) => c.startsWith('PS6002')),
    [],
  );
  assert.ok(
    codes.some((c) => c.startsWith('PS2001')),
    codes.join('\n'),
  );
});

// Found by the LSP fuzz test: a key left without a value by a syntax error, after a duplicate of it that has
// one, made the schema error about the valued one lead to no node, and missing-required-property threw.
test('a key without a value (a syntax error) is no property: its valued duplicate is found, as value() has it', async () => {
  const { validateText } = await import('#service');
  const text = '{"","properties":{"olicyDefinitios","policyDefinitions":[{""}""]"policyDefinitions"';
  const parsed = parseJson(text);
  const properties = property(parsed.root, 'properties');
  const found = property(properties, 'policyDefinitions');
  assert.equal(found?.type, 'array', 'the duplicate with a value');
  assert.equal(
    (parsed.value() as { properties: { policyDefinitions: unknown[] } }).properties.policyDefinitions.length,
    found?.children?.length,
  );
  assert.equal(propertyIgnoreCase(properties, 'POLICYDEFINITIONS'), found);
  // Over the large-object index too (more than 24 keys).
  const many = `{${Array.from({ length: 30 }, (_, i) => `"k${i}": ${i}`).join(', ')}, "x": 1, "x"`;
  assert.equal(property(parseJson(many).root, 'x')?.value, 1);
  assert.deepEqual(validateText(text).internalErrors, []);
});
