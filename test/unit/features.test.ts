import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { MarkupContent, TextEdit } from 'vscode-languageserver-types';
import { parsePolicyDocument, validateText, DefinitionCatalog } from '#service';
import {
  findDefinition,
  findReferences,
  prepareRename,
  rename,
  doHover,
  documentSymbols,
  foldingRanges,
  selectionRanges,
  format,
} from '#features';

const URI = 'file:///work/set.json';

const SET = `{
  "type": "Provider.Authorization/policySetDefinitions",
  "name": "demo",
  "properties": {
    "displayName": "Demo",
    "parameters": {
      "effect": {
        "type": "String",
        "defaultValue": "Audit",
        "allowedValues": ["Audit", "Deny"],
        "metadata": { "displayName": "Effect", "strongType": "location" }
      },
      "it's": { "type": "Array" }
    },
    "policyDefinitionGroups": [
      { "name": "Network", "displayName": "Network security", "category": "Networking" },
      { "name": "Storage" }
    ],
    "policyDefinitions": [
      {
        "policyDefinitionReferenceId": "first",
        "policyDefinitionId": "/providers/Provider.Authorization/policyDefinitions/def-1",
        "groupNames": ["Network", "network"],
        "parameters": {
          "effect": { "value": "[parameters('effect')]" },
          "list": { "value": "[if(empty(parameters('it''s')), parameters('EFFECT'), 'x')]" }
        }
      },
      {
        "policyDefinitionReferenceId": "second",
        "policyDefinitionId": "/providers/Provider.Authorization/policyDefinitions/def-2",
        "groupNames": ["Storage"]
      }
    ]
  }
}`;

/** Offset of the n-th (0-based) occurrence of `needle`, plus `delta`. */
function at(needle: string, delta = 1, nth = 0): number {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = SET.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `'${needle}' #${nth} not in the text`);
  return offset + delta;
}

const lineOf = (needle: string) => SET.slice(0, at(needle)).split('\n').length - 1;

const document = parsePolicyDocument(SET);
const textDocument = TextDocument.create(URI, 'json', 1, SET);
const textOf = (range: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
  textDocument.getText(range);

function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create(URI, 'json', 1, text), edits);
}

describe('navigation', () => {
  test('definition of a group use lands on its declaration (case-insensitively)', () => {
    for (const offset of [at('"Network"', 2, 1), at('"network"', 2)]) {
      const locations = findDefinition(document, URI, offset);
      assert.equal(locations.length, 1);
      assert.equal(textOf(locations[0].range), 'Network');
      assert.equal(locations[0].range.start.line, lineOf('"Network"'));
    }
  });

  test('definition of a parameter reference inside an expression lands on the declaration', () => {
    const locations = findDefinition(document, URI, at("parameters('EFFECT')", 13));
    assert.equal(locations.length, 1);
    assert.equal(textOf(locations[0].range), 'effect');
    assert.equal(locations[0].range.start.line, lineOf('"effect": {'));
  });

  test('references of a parameter: the declaration and every use, also in larger expressions', () => {
    const locations = findReferences(document, URI, at('"effect": {', 2));
    assert.deepEqual(
      locations.map((l) => [l.range.start.line, textOf(l.range)]),
      [
        [lineOf('"effect": {'), 'effect'],
        [lineOf("parameters('effect')"), 'effect'],
        [lineOf("parameters('EFFECT')"), 'EFFECT'],
      ],
    );
    assert.equal(findReferences(document, URI, at('"effect": {', 2), false).length, 2);
  });

  test('nothing to navigate on other values', () => {
    assert.deepEqual(findDefinition(document, URI, at('"Demo"')), []);
    assert.deepEqual(findReferences(document, URI, at('"Demo"')), []);
    assert.deepEqual(prepareRename(document, at('"Demo"')), {
      error: 'Only a group, a set parameter or a reference ID can be renamed here.',
    });
  });

  test('a reference ID: its own place, and renamed where it is written (its consumers too, when the workspace has any)', () => {
    assert.deepEqual(
      findReferences(document, URI, at('"first"')).map((l) => textOf(l.range)),
      ['first'],
    );
    const prepared = prepareRename(document, at('"first"'));
    assert.ok(!('error' in prepared));
    assert.equal(prepared.placeholder, 'first');
  });

  test('rename of a group edits its declaration and every use', () => {
    const prepared = prepareRename(document, at('"network"', 3));
    assert.ok('range' in prepared);
    assert.equal(prepared.placeholder, 'network');
    const edit = rename(document, URI, at('"network"', 3), 'Perimeter');
    assert.ok('changes' in edit && edit.changes);
    const renamed = applyEdits(SET, edit.changes[URI]);
    assert.equal((renamed.match(/"Perimeter"/g) ?? []).length, 3);
    assert.ok(!/"network"/i.test(renamed));
    assert.ok(!validateText(renamed).diagnostics.some((d) => d.code === 'PS5001'));
  });

  test('rename of a parameter edits the declaration and each parameters() call, escaping quotes', () => {
    const edit = rename(document, URI, at("parameters('it''s')", 13), "it's-new");
    assert.ok('changes' in edit && edit.changes);
    const renamed = applyEdits(SET, edit.changes[URI]);
    assert.match(renamed, /"it's-new": \{ "type": "Array" \}/);
    assert.match(renamed, /parameters\('it''s-new'\)/);
    const codes = validateText(renamed).diagnostics.map((d) => d.code);
    assert.ok(!codes.includes('PS7001') && !codes.includes('PS7003') && !codes.includes('PS7004'), codes.join());
  });

  test('rename refuses a name that is taken or unusable', () => {
    assert.match((rename(document, URI, at('"Storage"', 2), 'NETWORK') as { error: string }).error, /already exists/);
    assert.match((rename(document, URI, at('"effect": {', 2), 'a b') as { error: string }).error, /not a usable parameter name/);
    assert.ok('changes' in rename(document, URI, at('"effect": {', 2), 'Effect'), 'a change of casing alone is allowed');
  });
});

describe('hover', () => {
  const hoverText = async (offset: number, options = {}) =>
    ((await doHover(document, offset, options))?.contents as MarkupContent | undefined)?.value ?? '';

  test('on a parameter reference: the declared parameter', async () => {
    const text = await hoverText(at("parameters('effect')", 13));
    assert.match(text, /\*\*parameter\*\* `effect`: String/);
    assert.match(text, /Default: `"Audit"`/);
    assert.match(text, /Allowed values: `"Audit"`, `"Deny"`/);
    assert.match(text, /strongType: `location`/);
  });

  test('on a group name: displayName and category', async () => {
    const text = await hoverText(at('"Network"', 2, 1));
    assert.match(text, /Network security/);
    assert.match(text, /Category: Networking/);
  });

  test('on a policyDefinitionId and on a passed parameter: the known definition', async () => {
    const definitions = new DefinitionCatalog();
    definitions.addIndex([
      {
        id: '/providers/Microsoft.Authorization/policyDefinitions/def-1',
        displayName: 'Audit things',
        version: '2.0.0',
        versions: ['1.0.0', '2.0.0'],
        parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Deny'], defaultValue: 'Audit' }, list: { type: 'Array' } },
      },
    ]);
    const onId = await hoverText(at('def-1'), { definitions });
    assert.match(onId, /Audit things/);
    assert.match(onId, /Version 2\.0\.0 \(known: 1\.0\.0, 2\.0\.0\)/);
    assert.match(onId, /`list`: Array, \*\*required\*\*/);
    const onParameter = await hoverText(at('"list"', 2), { definitions });
    assert.match(onParameter, /definition parameter\*\* `list`: Array/);
  });

  test('elsewhere: the schema description', async () => {
    assert.match(await hoverText(at('"displayName": "Demo"', 3)), /display name/i);
  });
});

describe('structure', () => {
  test('outline: the set with its parameters, groups and references', () => {
    const [set] = documentSymbols(document);
    assert.equal(set.name, 'demo');
    assert.deepEqual(
      set.children?.map((c) => [c.name, c.children?.map((x) => x.name)]),
      [
        ['parameters', ['effect', "it's"]],
        ['policyDefinitionGroups', ['Network', 'Storage']],
        ['policyDefinitions', ['first', 'second']],
      ],
    );
  });

  test('folding and selection ranges', () => {
    assert.ok(foldingRanges(document).some((r) => r.startLine === 3));
    const [selection] = selectionRanges(document, [textDocument.positionAt(at('"Storage"', 3))]);
    assert.equal(textOf(selection.range), 'Storage');
    assert.ok(selection.parent);
  });

  test('formatting follows the options and keeps the content', () => {
    const compact = JSON.stringify(JSON.parse(SET));
    const edits = format(parsePolicyDocument(compact), { tabSize: 2, insertSpaces: true });
    const formatted = applyEdits(compact, edits);
    assert.deepEqual(JSON.parse(formatted), JSON.parse(SET));
    assert.ok(formatted.split('\n').length > 20);
  });
});

describe('the model', () => {
  test("group uses are read in the text; each use's node is the groupNames entry itself, made when asked for", () => {
    const text = JSON.stringify({
      properties: {
        policyDefinitionGroups: [{ name: 'Net' }, { name: 'Storage' }],
        policyDefinitions: [
          {
            policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a',
            groupNames: [1, 'net', 'Sto\u00e9rage', 'Storage'],
          },
          { policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/b', groupNames: 'Net' },
        ],
      },
    }).replace('"Stoérage"', '"Sto\\u00e9rage"');
    for (const strict of [true, false]) {
      // Strict JSON reads the names in the text; with a comment the tolerant parser's tree answers the same.
      const document = parsePolicyDocument(strict ? text : `// a comment\n${text}`);
      const set = document.sets[0];
      assert.deepEqual(
        set.groupUses.map((u) => [u.name, u.lower, u.declared?.name]),
        [
          ['net', 'net', 'Net'],
          ['Stoérage', 'stoérage', undefined],
          ['Storage', 'storage', 'Storage'],
        ],
      );
      const entries = set.references[0].groupNamesNode!.children!;
      assert.deepEqual(
        set.groupUses.map((u) => u.node),
        [entries[1], entries[2], entries[3]],
      );
      assert.equal(set.groupUses[1].node.value, 'Stoérage');
    }
  });
});
