import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkspaceDefinitions } from '#server/lsp/node/workspaceDefinitions';
import { contributionOf } from '#server/lsp/node/workspaceDependencies';
import { definedBy } from '#server/lsp/node/sharedInfos';

const set = (groups: string[]) =>
  JSON.stringify({
    name: 'set-a',
    properties: {
      displayName: 'Set A',
      policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/d0' }],
      policyDefinitionGroups: groups.map((name) => ({ name })),
    },
  });
const definition = JSON.stringify({ name: 'def-a', properties: { displayName: 'A', policyRule: { if: {}, then: { effect: 'audit' } } } });

describe('What a workspace file defines is made once and shared by the known definitions and the workspace check', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-shared-'));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  test('the same bytes: one object for both readers; other bytes: a new one, with what they say', async () => {
    const setFile = path.join(folder, 'set.json');
    const defFile = path.join(folder, 'def.json');
    fs.writeFileSync(setFile, set(['g1']));
    fs.writeFileSync(defFile, definition);
    const defs = new WorkspaceDefinitions(() => undefined);
    await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []);
    const known = defs.catalog.lookupSet('set-a');
    assert.deepEqual(known?.groups, ['g1']);

    const fromCheck = contributionOf(fs.readFileSync(setFile), setFile);
    assert.equal(fromCheck.contribution?.set, known, 'the very object the known definitions hold');
    const definitionFromCheck = contributionOf(fs.readFileSync(defFile), defFile);
    assert.equal(definitionFromCheck.contribution?.definition?.info, defs.catalog.lookupName('def-a')[0]);

    fs.writeFileSync(setFile, set(['g1', 'g2']));
    const changed = contributionOf(fs.readFileSync(setFile), setFile);
    assert.notEqual(changed.contribution?.set, known);
    assert.deepEqual(changed.contribution?.set?.groups, ['g1', 'g2']);
  });

  test('the document is parsed only when nothing made of the same bytes is held; a file that defines nothing is not remembered', () => {
    let parses = 0;
    const parse = (value: unknown) => () => (parses++, value);
    const first = definedBy('/x/set.json', 'h1', parse(JSON.parse(set(['a']))));
    const again = definedBy('/x/set.json', 'h1', parse(JSON.parse(set(['a']))));
    assert.equal(parses, 1);
    assert.equal(again.set, first.set);
    definedBy('/x/set.json', 'h2', parse({ not: 'a policy' }));
    assert.equal(parses, 2);
    assert.deepEqual(definedBy('/x/set.json', 'h2', parse({ not: 'a policy' })), {});
    assert.equal(parses, 3, 'nothing held for a file that defines nothing');
    assert.throws(() => definedBy('/x/bad.json', 'h3', () => JSON.parse('{')), SyntaxError);
  });
});
