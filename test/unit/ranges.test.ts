import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Range, TextEdit } from 'vscode-languageserver-types';
import { parsePolicyDocument, validateText } from '#service';
import {
  findDefinition,
  findReferences,
  prepareRename,
  rename,
  documentSymbols,
  foldingRanges,
  selectionRanges,
  format,
  getCodeActions,
} from '#features';

// Every feature that answers ranges answers ranges that start at or before their end and lie inside the
// document, also on documents cut off inside a string (as a document is while it is typed). The regression:
// the LSP fuzz test (seed 20261122, edit 4220) found rename answering {41:7}-{41:6} for a property key whose
// closing quote was missing at the end of the text: the name's span took the last character for the quote.

const URI = 'file:///work/cut.json';

const SET = `{
  "type": "Provider.Authorization/policySetDefinitions",
  "name": "demo",
  "properties": {
    "displayName": "Demo",
    "parameters": {
      "effect": { "type": "String", "defaultValue": "Audit", "allowedValues": ["Audit", "Deny"] },
      "it's": { "type": "Array" }
    },
    "policyDefinitionGroups": [
      { "name": "Network", "category": "Networking" },
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
      }
    ]
  }
}`;

type Found = { what: string; range: Range };

function isOrdered(range: Range): boolean {
  return range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character);
}

/** Every range in `found` is ordered and inside `text` (a position may be at a line's end, or at the very end). */
function badRanges(text: string, found: Found[]): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  const inside = (p: { line: number; character: number }) =>
    p.line >= 0 && p.character >= 0 && p.line < lines.length && p.character <= lines[p.line].length;
  return found
    .filter((f) => !isOrdered(f.range) || !inside(f.range.start) || !inside(f.range.end))
    .map((f) => `${f.what} ${JSON.stringify(f.range)}`);
}

const editsOf = (what: string, edits: TextEdit[] | undefined): Found[] => (edits ?? []).map((e) => ({ what, range: e.range }));

/** Every range the features answer at `offset` of `text`. */
function rangesAt(text: string, offset: number): Found[] {
  const document = parsePolicyDocument(text);
  const found: Found[] = [];
  found.push(...findDefinition(document, URI, offset).map((l) => ({ what: 'definition', range: l.range })));
  found.push(...findReferences(document, URI, offset).map((l) => ({ what: 'references', range: l.range })));
  const prepared = prepareRename(document, offset);
  if ('range' in prepared) found.push({ what: 'prepareRename', range: prepared.range });
  const renamed = rename(document, URI, offset, 'Renamed');
  if ('changes' in renamed) found.push(...editsOf('rename', renamed.changes?.[URI]));
  const position = document.lines.positionAt(offset);
  for (const selection of selectionRanges(document, [position])) {
    for (let s: typeof selection | undefined = selection; s; s = s.parent) found.push({ what: 'selectionRange', range: s.range });
  }
  return found;
}

/** The ranges that do not depend on a position: symbols, folding, formatting, and code actions' edits. */
function documentRanges(text: string): Found[] {
  const result = validateText(text);
  const document = result.document;
  const found: Found[] = [];
  const walk = (symbols: ReturnType<typeof documentSymbols>) => {
    for (const s of symbols) {
      found.push({ what: `symbol ${s.name}`, range: s.range }, { what: `symbol ${s.name} selection`, range: s.selectionRange });
      if (!(
        document.lines.offsetAt(s.selectionRange.start) >= document.lines.offsetAt(s.range.start) &&
        document.lines.offsetAt(s.selectionRange.end) <= document.lines.offsetAt(s.range.end)
      )) {
        found.push({ what: `symbol ${s.name}: selection outside its range`, range: { start: s.range.end, end: s.range.start } });
      }
      walk(s.children ?? []);
    }
  };
  walk(documentSymbols(document));
  for (const f of foldingRanges(document))
    found.push({ what: 'folding', range: { start: { line: f.startLine, character: 0 }, end: { line: f.endLine, character: 0 } } });
  found.push(...editsOf('format', format(document, { tabSize: 2, insertSpaces: true })));
  const whole = document.lines.rangeOf(0, text.length);
  for (const action of getCodeActions(document, URI, result.diagnostics, whole) as CodeAction[])
    found.push(...editsOf(`code action '${action.title}'`, action.edit?.changes?.[URI]));
  return found;
}

describe('ranges of every feature stay ordered and inside the document', () => {
  test('the fuzz case: a key cut off by the end of the text, after its opening quote', () => {
    const cut = `${SET.slice(0, SET.indexOf('"it\'s"'))}"`;
    const offset = cut.length; // just after the lone quote, where the fuzz test asked
    const document = parsePolicyDocument(cut);
    const edit = rename(document, URI, offset, 'Renamed');
    assert.ok('changes' in edit && edit.changes, JSON.stringify(edit));
    const [only] = edit.changes[URI];
    assert.ok(isOrdered(only.range), JSON.stringify(only.range));
    // The empty name after the quote is replaced: the new name is inserted after the quote.
    assert.equal(TextDocument.applyEdits(TextDocument.create(URI, 'json', 1, cut), [only]), `${cut}Renamed`);
  });

  test('a name cut off at a line end keeps its last character: rename replaces all of it', () => {
    const cut = `${SET.slice(0, SET.indexOf('"effect": {') + '"eff'.length)}\n`;
    const document = parsePolicyDocument(cut);
    const prepared = prepareRename(document, cut.indexOf('"eff') + 2);
    assert.ok('range' in prepared, JSON.stringify(prepared));
    assert.equal(prepared.placeholder, 'eff');
    const textDocument = TextDocument.create(URI, 'json', 1, cut);
    assert.equal(textDocument.getText(prepared.range), 'eff');
  });

  test('an escaped quote at the end of a cut-off name is part of the name, not its end', () => {
    const cut = `${SET.slice(0, SET.indexOf('"Storage"'))}"Sto\\"`;
    const document = parsePolicyDocument(cut);
    const prepared = prepareRename(document, cut.length - 2);
    assert.ok('range' in prepared, JSON.stringify(prepared));
    assert.equal(TextDocument.create(URI, 'json', 1, cut).getText(prepared.range), 'Sto\\"');
  });

  test('every cut of the document, every feature at the cut and just before it', () => {
    const problems: string[] = [];
    let answered = 0;
    for (let cut = 1; cut <= SET.length; cut++) {
      const text = SET.slice(0, cut);
      for (const offset of [cut, cut - 1, cut - 2]) {
        if (offset < 0) continue;
        const found = rangesAt(text, offset);
        answered += found.length;
        for (const bad of badRanges(text, found)) problems.push(`cut at ${cut}, offset ${offset}: ${bad}`);
      }
      if (cut % 7 === 0 || cut === SET.length) {
        const found = documentRanges(text);
        answered += found.length;
        for (const bad of badRanges(text, found)) problems.push(`cut at ${cut}: ${bad}`);
      }
      if (problems.length > 10) break;
    }
    assert.deepEqual(problems, []);
    // Guard against a vacuous pass: the features answered on most cuts.
    assert.ok(answered > 5000, `only ${answered} ranges`);
  });

  test('every cut with a closing line after it (the string ends at a line end, not at the end of the text)', () => {
    const problems: string[] = [];
    for (let cut = 1; cut <= SET.length; cut++) {
      const text = `${SET.slice(0, cut)}\n}`;
      for (const offset of [cut, cut - 1])
        for (const bad of badRanges(text, rangesAt(text, offset))) problems.push(`cut at ${cut}, offset ${offset}: ${bad}`);
      if (problems.length > 10) break;
    }
    assert.deepEqual(problems, []);
  });
});
