import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { REPO_ROOT } from '../support/corpus';

/** The grammar as VS Code runs it: vscode-textmate over the Oniguruma wasm that VS Code uses. */
let grammar: textmate.IGrammar;

before(async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => oniguruma.createOnigScanner(patterns),
      createOnigString: (s) => oniguruma.createOnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.json.policyset') return null;
      const file = path.join(REPO_ROOT, 'syntaxes', 'policyset.tmLanguage.json');
      return textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const loaded = await registry.loadGrammar('source.json.policyset');
  assert.ok(loaded, 'the grammar loads');
  grammar = loaded;
});

interface Token {
  text: string;
  scopes: string[];
}

function tokenize(source: string): Token[][] {
  let state: textmate.StateStack = textmate.INITIAL;
  return source.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}

/** The scopes of the first token whose text is `text` (after `after`, when given), on any line. */
function scopesOf(tokens: Token[][], text: string, after?: string): string[] {
  const flat = tokens.flat();
  const start = after ? flat.findIndex((t) => t.text.includes(after)) : 0;
  assert.ok(start >= 0, `no token contains ${after}`);
  const token = flat.slice(start).find((t) => t.text === text);
  assert.ok(token, `no token '${text}' in ${JSON.stringify(flat.map((t) => t.text))}`);
  return token.scopes;
}

const has = (scopes: string[], prefix: string) =>
  scopes.some((s) => s === prefix || s.startsWith(`${prefix}.`) || s.split(' ').some((part) => part.startsWith(prefix)));

describe('TextMate grammar (syntaxes/policyset.tmLanguage.json)', () => {
  const SAMPLE = `{
  "properties": {
    "displayName": "Audit [[not an expression]",
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/x",
        "parameters": {
          "effect": { "value": "[parameters('effect')]" },
          "tags": { "value": "[concat(parameters('prefix'), '-', field('tags[''env'']'), string(42))]" },
          "first": { "value": "[parameters('list')[0]]" },
          "literal": { "value": "[[parameters('notCalled')]" },
          "scope": { "value": "[resourceGroup().location]" }
        }
      }
    ],
    "count": 3, "enabled": true
  }
}`;
  let tokens: Token[][];
  before(() => {
    tokens = tokenize(SAMPLE);
  });

  test('the scope name is source.json.policyset', () => {
    assert.equal(scopesOf(tokens, '{')[0], 'source.json.policyset');
  });

  test('property keys are property names, values are strings, numbers and constants', () => {
    assert.ok(has(scopesOf(tokens, 'displayName'), 'support.type.property-name'));
    assert.ok(has(scopesOf(tokens, 'policyDefinitionId'), 'support.type.property-name'));
    assert.ok(has(scopesOf(tokens, '/providers/Microsoft.Authorization/policyDefinitions/x'), 'string.quoted.double'));
    assert.ok(!has(scopesOf(tokens, '/providers/Microsoft.Authorization/policyDefinitions/x'), 'support.type.property-name'));
    assert.ok(has(scopesOf(tokens, '3'), 'constant.numeric'));
    assert.ok(has(scopesOf(tokens, 'true'), 'constant.language'));
  });

  test('a string that starts with [ is an expression: function names, single-quoted literals, brackets', () => {
    const open = scopesOf(tokens, '[', 'effect');
    assert.ok(has(open, 'punctuation.section.expression.begin'), open.join(' '));
    const fn = scopesOf(tokens, 'parameters', 'effect');
    assert.ok(has(fn, 'entity.name.function'), fn.join(' '));
    assert.ok(has(fn, 'meta.embedded.expression'), fn.join(' '));
    assert.ok(has(scopesOf(tokens, 'effect', '('), 'string.quoted.single'));
    const close = scopesOf(tokens, ']', 'effect');
    assert.ok(has(close, 'punctuation.section.expression.end'), close.join(' '));
  });

  test('any identifier before ( is a function call, in nested calls too', () => {
    for (const name of ['concat', 'field', 'string', 'resourceGroup']) {
      assert.ok(has(scopesOf(tokens, name), 'entity.name.function'), name);
    }
    assert.ok(has(scopesOf(tokens, '42'), 'constant.numeric'));
    assert.ok(has(scopesOf(tokens, 'location'), 'variable.other.property'));
  });

  test("'' inside a single-quoted literal is an escaped quote", () => {
    const escape = scopesOf(tokens, "''", 'field');
    assert.ok(has(escape, 'constant.character.escape'), escape.join(' '));
    assert.ok(has(escape, 'string.quoted.single'), escape.join(' '));
  });

  test('an index [0] inside an expression does not end it', () => {
    const zero = scopesOf(tokens, '0', 'first');
    assert.ok(has(zero, 'constant.numeric'));
    assert.ok(has(zero, 'meta.embedded.expression'), zero.join(' '));
    const last = scopesOf(tokens, ']', '0');
    assert.ok(has(last, 'meta.brackets'), last.join(' '));
  });

  test('[[ at the start is an escape: the rest is a plain string, not an expression', () => {
    const escape = scopesOf(tokens, '[[', 'literal');
    assert.ok(has(escape, 'constant.character.escape'), escape.join(' '));
    const rest = tokens.flat().find((t) => t.text.includes("parameters('notCalled')"));
    assert.ok(rest, 'the rest is one plain string token');
    assert.ok(!has(rest.scopes, 'entity.name.function') && !has(rest.scopes, 'meta.embedded.expression'), rest.scopes.join(' '));
    const display = scopesOf(tokens, '[[', 'displayName');
    assert.ok(has(display, 'constant.character.escape'));
  });

  test('a [ inside a string, not at its start, is plain text', () => {
    const line = tokenize('{ "a": "see [parameters(\'x\')]" }').flat();
    assert.ok(!line.some((t) => has(t.scopes, 'entity.name.function')), JSON.stringify(line));
  });

  test('JSON escapes inside an expression neither end it nor the string', () => {
    const line = tokenize('{ "a": "[concat(\'say \\"hi\\"\', parameters(\'p\'))]", "b": 1 }').flat();
    const p = line.filter((t) => t.text === 'parameters');
    assert.equal(p.length, 1);
    assert.ok(has(p[0].scopes, 'entity.name.function'));
    assert.ok(has(line.find((t) => t.text === '\\"')!.scopes, 'constant.character.escape'));
    assert.ok(has(line.find((t) => t.text === 'b')!.scopes, 'support.type.property-name'));
  });

  test('an unterminated expression ends with its string: the next line is JSON again', () => {
    const lines = tokenize('{ "a": "[concat(\'x\'",\n  "next": 1 }');
    assert.ok(has(lines[1].find((t) => t.text === 'next')!.scopes, 'support.type.property-name'));
  });

  test('comments (JSON with comments)', () => {
    const line = tokenize('{ // note\n "a": 1 /* more */ }');
    assert.ok(has(line[0].find((t) => t.text.includes('note'))!.scopes, 'comment.line'));
    assert.ok(has(line[1].find((t) => t.text.includes('more'))!.scopes, 'comment.block'));
  });

  test('every string of a real policy set tokenises without an invalid scope', () => {
    const file = path.join(REPO_ROOT, 'examples');
    const sets = fs.readdirSync(path.join(file, 'clean')).filter((f) => f.endsWith('.json'));
    assert.ok(sets.length > 0);
    for (const name of sets) {
      const flat = tokenize(fs.readFileSync(path.join(file, 'clean', name), 'utf8')).flat();
      const invalid = flat.filter((t) => t.scopes.some((s) => s.startsWith('invalid')));
      assert.deepEqual(invalid, [], name);
    }
  });
});
