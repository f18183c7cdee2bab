// The bundled alias catalogue (server/src/service/evaluate/bundledAliases.json, docs/evaluate.md "Aliases"):
// its shape, no alias twice for a type, and only aliases the mechanical rule does not already read right.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTree, type Node } from 'jsonc-parser';
import { Unknown, type Json, type JsonObject } from '#server/service/evaluate/types';
import { bundledAliasPath, mechanicalField, readPath, splitPath } from '#server/service/evaluate/aliases';
import { REPO_ROOT } from '../support/corpus';

const FILE = path.join(REPO_ROOT, 'server', 'src', 'service', 'evaluate', 'bundledAliases.json');
const text = fs.readFileSync(FILE, 'utf8');
const data = JSON.parse(text) as {
  source: { repository: string; licence: string; files: Record<string, string> };
  types: Record<string, Record<string, string>>;
};

/** A resource of a type holding `value` at `path` ('*': an array of one member). */
function place(type: string, at: string[], value: Json): JsonObject {
  const build = (rest: string[]): Json => {
    if (rest.length === 0) return value;
    const [head, ...tail] = rest;
    return head === '*' ? [build(tail)] : { [head]: build(tail) };
  };
  return { type, name: 'r', ...(build(at) as JsonObject) };
}

describe('bundled alias catalogue (data)', () => {
  test('shape: a source with its licence and a commit per file; types by lowercase name, each alias a path', () => {
    assert.equal(data.source.licence, 'MIT');
    assert.equal(data.source.repository, 'https://github.com/Azure/PSRule.Rules.Azure');
    for (const [file, commit] of Object.entries(data.source.files)) {
      assert.match(file, /^data\/providers\/microsoft\.[a-z0-9]+\/types\.json$/);
      assert.match(commit, /^[0-9a-f]{40}$/);
    }
    const namespaces = new Set(Object.keys(data.source.files).map((f) => f.split('/')[2]));
    assert.ok(Object.keys(data.types).length > 0);
    for (const [type, aliases] of Object.entries(data.types)) {
      assert.equal(type, type.toLowerCase(), type);
      assert.match(type, /^microsoft\.[a-z0-9]+(\/[a-z0-9]+)+$/i);
      assert.ok(namespaces.has(type.split('/')[0]), `${type}: its namespace's file is named in source.files`);
      for (const [alias, at] of Object.entries(aliases)) {
        assert.ok(alias.toLowerCase().startsWith(type.split('/')[0] + '/'), `${alias} is of the namespace of ${type}`);
        assert.match(at, /^(properties|sku|kind|identity|plan|zones)(\.[A-Za-z0-9#-]+(\[\*\])*)*(\[\*\])*$/, `${alias}: ${at}`);
      }
    }
  });

  test('no type twice, no alias twice within a type (keys compared case-insensitively, as they are read)', () => {
    const tree = parseTree(text) as Node;
    const types = tree.children?.find((p) => p.children?.[0].value === 'types')?.children?.[1];
    assert.ok(types);
    const keys = (object: Node) => (object.children ?? []).map((p) => String(p.children?.[0].value).toLowerCase());
    const typeNames = keys(types);
    assert.equal(new Set(typeNames).size, typeNames.length, 'a type listed twice');
    for (const property of types.children ?? []) {
      const names = keys(property.children?.[1] as Node);
      const seen = new Set<string>();
      for (const name of names) {
        assert.ok(!seen.has(name), `${String(property.children?.[0].value)}: '${name}' listed twice`);
        seen.add(name);
      }
    }
  });

  test('every entry reads what the mechanical rule would not: a value at its path is not found by the mechanical rule', () => {
    let entries = 0;
    for (const [type, aliases] of Object.entries(data.types)) {
      for (const [alias, at] of Object.entries(aliases)) {
        entries++;
        const sentinel = `sentinel:${alias}`;
        const resource = place(type, splitPath(at), sentinel);
        let mechanical: Array<Json | undefined> = [];
        try {
          const resolved = mechanicalField(alias, resource);
          mechanical = readPath(resource, resolved.path ?? [], 1).values;
        } catch (error) {
          assert.ok(error instanceof Unknown, String(error)); // not of the type: the mechanical rule reads nothing
        }
        assert.ok(!mechanical.includes(sentinel), `${type} ${alias}: the mechanical rule already reads ${at}`);
        // ... and the evaluator does read it through the catalogue.
        assert.equal(bundledAliasPath(type, alias.toUpperCase()), at);
        assert.deepEqual(readPath(resource, splitPath(at), 1).values, [sentinel]);
      }
    }
    assert.ok(entries > 0);
  });

  test('the guard of this test holds: an alias the mechanical rule reads right is caught', () => {
    const resource = place('Microsoft.Compute/virtualMachines', ['properties', 'licenseType'], 'sentinel');
    const resolved = mechanicalField('Microsoft.Compute/virtualMachines/licenseType', resource);
    assert.deepEqual(readPath(resource, resolved.path ?? [], 1).values, ['sentinel']);
  });
});
