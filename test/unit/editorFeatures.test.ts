// Inlay hints, document links, workspace symbols and document highlight, called on the service directly.
// Each `|` in an input marks where an answer is expected (test/support/cursor.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DocumentHighlightKind, SymbolKind, type InlayHint, type Position } from 'vscode-languageserver-types';
import { parsePolicyDocument, DefinitionCatalog } from '#service';
import {
  getInlayHints,
  getDocumentLinks,
  getWorkspaceSymbols,
  workspaceSymbolsOfDocument,
  getDocumentHighlights,
  findReferences,
  shortValue,
  resolveDefinitionVersion,
  matchScore,
  builtInDefinitionUrl,
} from '#features';
import { cursors, marked } from '../support/cursor';
import { SUBSET } from '../support/corpus';

const BUILT_IN = '/providers/Microsoft.Authorization/policyDefinitions';

/** Known definitions: one with an effect that has a default and several versions, one without effect, one whose effect is required. */
function catalog(): DefinitionCatalog {
  const c = new DefinitionCatalog();
  c.addIndex(
    [
      {
        id: `${BUILT_IN}/storage-private`,
        name: 'storage-private',
        displayName: 'Storage accounts should be private',
        version: '2.0.0',
        versions: ['2.1.0-preview', '2.0.0', '1.10.0', '1.2.0', '1.0.0'],
        parameters: { effect: { type: 'String', defaultValue: 'Audit', allowedValues: ['Audit', 'Deny', 'Disabled'] } },
      },
      {
        id: `${BUILT_IN}/tag-check`,
        name: 'tag-check',
        displayName: 'Require a tag',
        version: '1.0.0',
        versions: ['1.0.0'],
        parameters: { tagName: { type: 'String' } },
      },
      {
        id: `${BUILT_IN}/strict`,
        name: 'strict',
        displayName: 'Strict effect',
        version: '1.0.0',
        parameters: { Effect: { type: 'String' } },
      },
    ],
    '/indexes/builtins.json',
  );
  return c;
}

/** Offset → position in a text. */
function positionIn(text: string, offset: number): Position {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

const labelOf = (hint: InlayHint) => (typeof hint.label === 'string' ? hint.label : hint.label.map((p) => p.value).join(''));

// Every `|` is where a hint is expected, in order.
const [SET, HINT_AT] = cursors(`{
  "properties": {
    "displayName": "Hints",
    "parameters": {
      "storageEffect": { "type": "String", "defaultValue": "Deny" },
      "noDefault": { "type": "String" },
      "locations": { "type": "Array", "defaultValue": ["westeurope", "northeurope", "francecentral"] }
    },
    "policyDefinitions": [
      {
        "policyDefinitionReferenceId": "fromParameter",
        "policyDefinitionId": "${BUILT_IN}/storage-private"|,
        "definitionVersion": "1.*.*"|,
        "parameters": { "effect": { "value": "[parameters('storageEffect')|]" } }
      },
      {
        "policyDefinitionReferenceId": "definitionDefault",
        "policyDefinitionId": "${BUILT_IN}/storage-private"|
      },
      {
        "policyDefinitionReferenceId": "literal",
        "policyDefinitionId": "${BUILT_IN}/storage-private"|,
        "definitionVersion": "2.0.0",
        "parameters": { "effect": { "value": "Disabled" } }
      },
      {
        "policyDefinitionReferenceId": "noDefault",
        "policyDefinitionId": "${BUILT_IN}/storage-private"|,
        "definitionVersion": "1.2.0"|,
        "parameters": { "effect": { "value": "[parameters('noDefault')|]" } }
      },
      {
        "policyDefinitionReferenceId": "noEffect",
        "policyDefinitionId": "${BUILT_IN}/tag-check"|,
        "parameters": { "tagName": { "value": "[first(parameters('locations')|)]" } }
      },
      {
        "policyDefinitionReferenceId": "required",
        "policyDefinitionId": "${BUILT_IN}/strict"|
      },
      {
        "policyDefinitionReferenceId": "unknown",
        "policyDefinitionId": "${BUILT_IN}/not-known"
      }
    ]
  }
}`);

const WHOLE = { start: 0, end: SET.length };

describe('inlay hints', () => {
  const document = parsePolicyDocument(SET);
  const options = { definitions: catalog() };

  test('each hint is where the | marks, with the value the member or call gets', () => {
    const hints = getInlayHints(document, WHOLE, options);
    assert.deepEqual(
      hints.map((h) => [h.position, labelOf(h)]),
      [
        [positionIn(SET, HINT_AT[0]), "Storage accounts should be private · Deny, from storageEffect's default"],
        [positionIn(SET, HINT_AT[1]), '→ 1.10.0 · newer major: 2.0.0'],
        [positionIn(SET, HINT_AT[2]), '= "Deny"'],
        [positionIn(SET, HINT_AT[3]), "Storage accounts should be private · Audit, the definition's default"],
        [positionIn(SET, HINT_AT[4]), 'Storage accounts should be private · Disabled, passed here'],
        [positionIn(SET, HINT_AT[5]), 'Storage accounts should be private · effect from noDefault (no default)'],
        [positionIn(SET, HINT_AT[6]), 'newer major: 2.0.0'],
        [positionIn(SET, HINT_AT[7]), '= (no default)'],
        [positionIn(SET, HINT_AT[8]), 'Require a tag'],
        [positionIn(SET, HINT_AT[9]), '= [3 values]'],
        [positionIn(SET, HINT_AT[10]), 'Strict effect · effect not passed (required)'],
      ],
    );
  });

  test('only the hints of the range asked for', () => {
    const start = SET.indexOf('"definitionDefault"');
    const end = SET.indexOf('"literal"');
    const hints = getInlayHints(document, { start, end }, options);
    assert.deepEqual(hints.map(labelOf), ["Storage accounts should be private · Audit, the definition's default"]);
  });

  test('each kind is turned off on its own', () => {
    const only = (kinds: object) => getInlayHints(document, WHOLE, { ...options, kinds }).map(labelOf);
    assert.ok(only({ definitions: false }).every((l) => !l.startsWith('Storage') && !l.startsWith('Require')));
    assert.ok(only({ definitions: false }).includes('= "Deny"'));
    assert.ok(only({ parameterValues: false }).every((l) => !l.startsWith('=')));
    assert.ok(only({ definitionVersions: false }).every((l) => !l.includes('major')));
    assert.deepEqual(only({ definitions: false, parameterValues: false, definitionVersions: false }), []);
  });

  test('a member pinned to a major whose parameters are not known gets no default from the known version', () => {
    const text = `{ "properties": { "policyDefinitions": [
      { "policyDefinitionId": "${BUILT_IN}/storage-private", "definitionVersion": "1.*.*" },
      { "policyDefinitionId": "${BUILT_IN}/storage-private", "definitionVersion": "2.*.*" },
      { "policyDefinitionId": "${BUILT_IN}/tag-check", "parameters": { "effect": { "value": "Deny" } } }
    ] } }`;
    const labels = getInlayHints(
      parsePolicyDocument(text),
      { start: 0, end: text.length },
      { ...options, kinds: { definitionVersions: false } },
    ).map(labelOf);
    assert.deepEqual(labels, [
      "Storage accounts should be private · the definition's default effect",
      "Storage accounts should be private · Audit, the definition's default",
      // No effect parameter in the definition (passing one is PS8001): no effect said.
      'Require a tag',
    ]);
  });

  test('without known definitions only the parameter values are hinted', () => {
    assert.deepEqual(getInlayHints(document, WHOLE).map(labelOf), ['= "Deny"', '= (no default)', '= [3 values]']);
  });

  test("a template's set: '[[parameters()]' is the set's own call, '[parameters()]' the template's", () => {
    const text = JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        parameters: { templateEffect: { type: 'string' } },
        resources: [
          {
            type: 'Microsoft.Authorization/policySetDefinitions',
            name: 'inTemplate',
            properties: {
              parameters: { effect: { type: 'String', defaultValue: 'Deny' } },
              policyDefinitions: [
                { policyDefinitionId: `${BUILT_IN}/storage-private`, parameters: { effect: { value: "[[parameters('effect')]" } } },
                { policyDefinitionId: `${BUILT_IN}/storage-private`, parameters: { effect: { value: "[parameters('templateEffect')]" } } },
              ],
            },
          },
        ],
      },
      null,
      2,
    );
    const hints = getInlayHints(parsePolicyDocument(text), { start: 0, end: text.length }, options).map(labelOf);
    assert.deepEqual(hints, [
      "Storage accounts should be private · Deny, from effect's default",
      '= "Deny"',
      'Storage accounts should be private · effect set at deployment',
    ]);
  });

  test('values are short: long arrays and objects by their size', () => {
    assert.equal(shortValue('Audit'), '"Audit"');
    assert.equal(shortValue(['a', 'b']), '["a","b"]');
    assert.equal(shortValue(['westeurope', 'northeurope', 'francecentral']), '[3 values]');
    assert.equal(shortValue([{ long: 'x'.repeat(40) }]), '[1 value]');
    assert.equal(shortValue({ a: 'x'.repeat(20), b: 'y'.repeat(20) }), '{2 properties}');
    assert.equal(shortValue('z'.repeat(50)), `"${'z'.repeat(27)}…"`);
    assert.equal(shortValue(12), '12');
  });

  test('a version range resolves to the newest release that matches; a preview only when asked for or alone', () => {
    const versions = ['2.1.0-preview', '2.0.0', '1.10.0', '1.2.0', '1.0.0'];
    assert.deepEqual(resolveDefinitionVersion('1.*.*', versions), { resolved: '1.10.0', newerMajor: '2.0.0' });
    assert.deepEqual(resolveDefinitionVersion('2.*.*', versions), { resolved: '2.0.0', newerMajor: undefined });
    assert.deepEqual(resolveDefinitionVersion('2.1.*', versions), { resolved: '2.1.0-preview', newerMajor: undefined });
    assert.deepEqual(resolveDefinitionVersion('2.*.*-preview', versions), { resolved: '2.1.0-preview', newerMajor: undefined });
    assert.equal(resolveDefinitionVersion('3.*.*', versions), undefined);
  });

  test('Spain_ENS (600 KB): hints of a screenful, warm, in a few milliseconds', () => {
    const text = fs.readFileSync(path.join(SUBSET.sets, 'Regulatory_Compliance', 'Spain_ENS.json'), 'utf8');
    const known = new DefinitionCatalog();
    known.addIndex(JSON.parse(fs.readFileSync(SUBSET.index, 'utf8')), SUBSET.index);
    const spain = parsePolicyDocument(text);
    const middle = Math.floor(text.length / 2);
    const screen = { start: middle, end: middle + 4000 };
    getInlayHints(spain, screen, { definitions: known });
    const started = process.hrtime.bigint();
    const rounds = 20;
    let hints: InlayHint[] = [];
    for (let i = 0; i < rounds; i++) hints = getInlayHints(spain, screen, { definitions: known });
    const ms = Number(process.hrtime.bigint() - started) / 1e6 / rounds;
    assert.ok(hints.length > 0, 'the middle of the set has hints');
    const first = spain.lines.positionAt(screen.start).line;
    const last = spain.lines.positionAt(screen.end).line;
    assert.ok(
      hints.every((h) => h.position.line >= first && h.position.line <= last),
      'every hint is in the range',
    );
    // Measured about 0.1 ms; the bound leaves room for a loaded machine.
    assert.ok(ms < 20, `a screenful of hints took ${ms.toFixed(2)} ms`);
  });
});

describe('document links', () => {
  const options = (extra: object = {}) => ({ definitions: catalog(), ...extra });

  test('a built-in definition ID links to its Azure portal page; an unknown custom one to nothing', () => {
    const [text, start, end] = marked(`{ "properties": { "policyDefinitions": [
      { "policyDefinitionId": "|${BUILT_IN}/storage-private|" },
      { "policyDefinitionId": "/subscriptions/0000/providers/Microsoft.Authorization/policyDefinitions/mine" }
    ] } }`);
    const links = getDocumentLinks(parsePolicyDocument(text), 'file:///work/set.json', options());
    assert.equal(links.length, 1);
    assert.deepEqual(links[0].range, { start: positionIn(text, start), end: positionIn(text, end) });
    assert.equal(
      links[0].target,
      `https://portal.azure.com/#view/Microsoft_Azure_Policy/PolicyDetailBlade/definitionId/%2Fproviders%2FMicrosoft.Authorization%2FpolicyDefinitions%2Fstorage-private`,
    );
    assert.equal(builtInDefinitionUrl(`${BUILT_IN}/x`, 'AzureUSGovernment').startsWith('https://portal.azure.us/'), true);
  });

  test('a definition read from a workspace file links to that file (an index entry does not link to the index)', () => {
    const known = catalog();
    known.addDefinitionDocument({ name: 'mine', properties: { displayName: 'Mine', policyRule: {} } }, '/work/definitions/mine.json');
    const [text, start, end] = marked(`{ "properties": { "policyDefinitions": [
      { "policyDefinitionId": "|/subscriptions/0000/providers/Microsoft.Authorization/policyDefinitions/mine|" }
    ] } }`);
    const sourceUri = (source: string) => `file://${source}`;
    const links = getDocumentLinks(parsePolicyDocument(text), 'file:///work/set.json', { definitions: known, sourceUri });
    assert.deepEqual(
      links.map((l) => [l.target, l.range]),
      [['file:///work/definitions/mine.json', { start: positionIn(text, start), end: positionIn(text, end) }]],
    );
    const builtIn = getDocumentLinks(
      parsePolicyDocument(`{ "properties": { "policyDefinitions": [{ "policyDefinitionId": "${BUILT_IN}/storage-private" }] } }`),
      'file:///w/s.json',
      { definitions: known, sourceUri },
    );
    assert.match(builtIn[0].target!, /^https:\/\/portal\.azure\.com\//);
  });

  test("a policy-as-code policyDefinitionName links as its definition's ID does", () => {
    const [text, start, end] = marked(`{ "properties": { "policyDefinitions": [{ "policyDefinitionName": "|storage-private|" }] } }`);
    const links = getDocumentLinks(parsePolicyDocument(text), 'file:///work/set.json', options());
    assert.deepEqual(
      links.map((l) => l.range),
      [{ start: positionIn(text, start), end: positionIn(text, end) }],
    );
    assert.match(links[0].target!, /definitionId\/%2Fproviders%2FMicrosoft\.Authorization%2FpolicyDefinitions%2Fstorage-private$/);
  });

  test("a group's additionalMetadataId links to the policy metadata resource", () => {
    const [text, start, end] = marked(`{ "properties": { "policyDefinitions": [], "policyDefinitionGroups": [
      { "name": "AC-1", "additionalMetadataId": "|/providers/Microsoft.PolicyInsights/policyMetadata/ACF1234|" },
      { "name": "AC-2", "additionalMetadataId": "not an id" }
    ] } }`);
    const links = getDocumentLinks(parsePolicyDocument(text), 'file:///work/set.json', options());
    assert.deepEqual(
      links.map((l) => [l.target, l.range]),
      [
        [
          'https://management.azure.com/providers/Microsoft.PolicyInsights/policyMetadata/ACF1234?api-version=2019-10-01',
          { start: positionIn(text, start), end: positionIn(text, end) },
        ],
      ],
    );
  });

  test('a parameterFile links to the file it names, relative to the document; an absolute path or URL does not', () => {
    const [text, offsets] = cursors(`{
  "nodeName": "/root",
  "children": [
    { "nodeName": "a", "parameterFile": "|../parameters/security baseline.csv|" },
    { "nodeName": "b", "parameterFile": "/etc/passwd" },
    { "nodeName": "c", "parameterFile": "https://example.com/x.csv" }
  ]
}`);
    const links = getDocumentLinks(parsePolicyDocument(text), 'file:///work/assignments/main.jsonc', options());
    assert.deepEqual(
      links.map((l) => [l.target, l.range]),
      [['file:///work/parameters/security%20baseline.csv', { start: positionIn(text, offsets[0]), end: positionIn(text, offsets[1]) }]],
    );
  });
});

describe('workspace symbols', () => {
  const [text] = cursors(SET);
  const document = parsePolicyDocument(text);
  const known = catalog();
  known.addDefinitionDocument(
    { name: 'network-rule', properties: { displayName: 'Network rule', policyRule: {}, parameters: { allowedPorts: { type: 'Array' } } } },
    '/work/definitions/network.json',
  );
  known.addSetDocument(
    {
      name: 'other-set',
      properties: { displayName: 'Other set', policyDefinitions: [], policyDefinitionGroups: [{ name: 'Networking' }] },
    },
    '/work/sets/other.json',
  );
  const sources = {
    documents: [workspaceSymbolsOfDocument('file:///work/sets/hints.json', document)],
    definitions: [...known.named()].filter((i) => !i.indexed && i.source).map((info) => ({ info, uri: `file://${info.source}` })),
    sets: known.sets().map((info) => ({ info, uri: `file://${info.source}` })),
  };

  test('a query matches names as a subsequence, any case, with their container', () => {
    const found = getWorkspaceSymbols('nodef', sources).map((s) => [s.name, s.kind, s.containerName, s.location.uri]);
    assert.deepEqual(found, [
      ['noDefault', SymbolKind.Variable, 'Hints', 'file:///work/sets/hints.json'],
      ['noDefault', SymbolKind.Object, 'Hints', 'file:///work/sets/hints.json'],
      // A subsequence (n-o-D-e-f) after the prefixes.
      ['definitionDefault', SymbolKind.Object, 'Hints', 'file:///work/sets/hints.json'],
    ]);
    const network = getWorkspaceSymbols('ntwrk', sources).map((s) => [s.name, s.kind, s.containerName]);
    assert.deepEqual(network, [
      ['Networking', SymbolKind.EnumMember, 'Other set'],
      ['Network rule', SymbolKind.Function, 'network.json'],
    ]);
    assert.deepEqual(
      getWorkspaceSymbols('allowedports', sources).map((s) => [s.name, s.containerName]),
      [['allowedPorts', 'Network rule']],
    );
  });

  test("an open document's symbols are at their place; the set's file is not listed twice", () => {
    const [located] = getWorkspaceSymbols('storageEffect', sources);
    assert.equal(
      text.slice(document.lines.offsetAt(located.location.range.start), document.lines.offsetAt(located.location.range.end)),
      '"storageEffect"',
    );
    const withCopy = {
      ...sources,
      sets: [...sources.sets, { info: { name: 'hints', displayName: 'Hints', groups: [] }, uri: 'file:///work/sets/hints.json' }],
    };
    assert.equal(getWorkspaceSymbols('Hints', withCopy).filter((s) => s.kind === SymbolKind.Module).length, 1);
  });

  test('prefix matches come before substrings, substrings before subsequences; at most the limit', () => {
    assert.ok(matchScore('net', 'Network') < matchScore('net', 'Subnet'));
    assert.ok(matchScore('net', 'Subnet') < matchScore('net', 'nXeXt'));
    assert.equal(matchScore('xyz', 'Network'), -1);
    const many = parsePolicyDocument(
      JSON.stringify({
        properties: {
          parameters: Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`p${i}`, { type: 'String' }])),
          policyDefinitions: [],
        },
      }),
    );
    assert.equal(getWorkspaceSymbols('', { documents: [workspaceSymbolsOfDocument('file:///m.json', many)] }).length, 500);
    assert.equal(getWorkspaceSymbols('p', { documents: [workspaceSymbolsOfDocument('file:///m.json', many)] }, 10).length, 10);
  });
});

describe('document highlight', () => {
  const [text, offsets] = cursors(`{
  "properties": {
    "parameters": { "|effect|": { "type": "String" } },
    "policyDefinitionGroups": [{ "name": "|Network|" }],
    "policyDefinitions": [
      {
        "policyDefinitionReferenceId": "|first|",
        "groupNames": ["|network|"],
        "parameters": { "effect": { "value": "[parameters('|EFFECT|')]" } }
      },
      {
        "policyDefinitionReferenceId": "|FIRST|",
        "parameters": { "list": { "value": "[if(empty(parameters('|effect|')), 'a', 'b')]" } }
      }
    ]
  }
}`);
  const document = parsePolicyDocument(text);
  const span = (i: number) => ({ start: positionIn(text, offsets[i]), end: positionIn(text, offsets[i + 1]) });

  test('on a parameter use: the declaration as Write, every use as Read, as references finds them', () => {
    const highlights = getDocumentHighlights(document, offsets[8] + 2);
    assert.deepEqual(highlights, [
      { range: span(0), kind: DocumentHighlightKind.Write },
      { range: span(8), kind: DocumentHighlightKind.Read },
      { range: span(12), kind: DocumentHighlightKind.Read },
    ]);
    assert.deepEqual(
      highlights.map((h) => h.range),
      findReferences(document, 'file:///x', offsets[8] + 2).map((l) => l.range),
    );
  });

  test('on a group use and on a reference ID (each declaration of a duplicate)', () => {
    assert.deepEqual(getDocumentHighlights(document, offsets[6] + 1), [
      { range: span(2), kind: DocumentHighlightKind.Write },
      { range: span(6), kind: DocumentHighlightKind.Read },
    ]);
    assert.deepEqual(getDocumentHighlights(document, offsets[10] + 1), [
      { range: span(4), kind: DocumentHighlightKind.Write },
      { range: span(10), kind: DocumentHighlightKind.Write },
    ]);
  });

  test('elsewhere: nothing', () => {
    assert.deepEqual(getDocumentHighlights(document, text.indexOf('"type"') + 2), []);
    assert.deepEqual(getDocumentHighlights(document, 0), []);
  });
});
