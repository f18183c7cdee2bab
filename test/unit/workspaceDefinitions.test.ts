import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkspaceDefinitions } from '#server/lsp/node/workspaceDefinitions';

const definition = (parameters: Record<string, object>, displayName = 'Definition A') =>
  JSON.stringify({ name: 'def-a', properties: { displayName, policyRule: { if: {}, then: { effect: 'audit' } }, parameters } });
const set = (groups: string[], references = 0, definitionPrefix = 'd', scope = '') =>
  JSON.stringify({
    name: 'set-a',
    properties: {
      displayName: 'Set A',
      policyDefinitions: Array.from({ length: references }, (_, i) => ({
        policyDefinitionId: `${scope}/providers/Microsoft.Authorization/policyDefinitions/${definitionPrefix}${i}`,
      })),
      policyDefinitionGroups: groups.map((name) => ({ name })),
    },
  });

describe('WorkspaceDefinitions: the workspace read once, then file by file', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-wsdefs-'));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));
  const file = (name: string) => path.join(folder, name);
  const change = (name: string, type: number) => [{ uri: pathToFileURL(file(name)).href, type }];
  const parametersOf = (defs: WorkspaceDefinitions) => [...(defs.catalog.lookupName('def-a')[0]?.parameters.keys() ?? [])];

  test('changes are read file by file; a change to what is not kept of a file changes nothing; a rescan reads only files whose size or time changed', async () => {
    fs.writeFileSync(file('def.json'), definition({ effect: { type: 'String' } }));
    fs.writeFileSync(file('set.json'), set(['g1'], 3));
    fs.writeFileSync(file('other.json'), '{ "not": "a policy" }');
    const defs = new WorkspaceDefinitions(() => undefined);
    assert.equal(await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []), true);
    assert.deepEqual(parametersOf(defs), ['effect']);
    assert.deepEqual(defs.catalog.lookupSet('set-a')?.groups, ['g1']);

    fs.writeFileSync(file('def.json'), definition({ effect: { type: 'String' }, extra: { type: 'Integer' } }));
    assert.equal(await defs.applyChanges(change('def.json', 2), []), true);
    assert.deepEqual(parametersOf(defs), ['effect', 'extra']);

    // A set saved with its references' definitions at another scope: what other sets and its consumers read of it
    // (name, ID, display name, groups, parameters, members' reference IDs, their number and the names of their
    // definitions, which a CSV parameter file's rows name) is the same.
    fs.writeFileSync(file('set.json'), set(['g1'], 3, 'd', '/providers/Microsoft.Management/managementGroups/mg'));
    assert.equal(await defs.applyChanges(change('set.json', 2), []), false);
    fs.writeFileSync(file('set.json'), set(['g1', 'g2'], 3));
    assert.equal(await defs.applyChanges(change('set.json', 2), []), true);
    assert.deepEqual(defs.catalog.lookupSet('set-a')?.groups, ['g1', 'g2']);

    // Same size and time: a rescan does not read the file again (what it knew stays).
    const time = 1700000000; // whole seconds: every file system keeps them exactly
    fs.utimesSync(file('def.json'), time, time);
    await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []);
    fs.writeFileSync(file('def.json'), definition({ effect: { type: 'String' }, extrb: { type: 'Integer' } }));
    fs.utimesSync(file('def.json'), time, time);
    await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []);
    assert.deepEqual(parametersOf(defs), ['effect', 'extra']);
    // Touched: read again.
    fs.utimesSync(file('def.json'), time, time + 5);
    await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []);
    assert.deepEqual(parametersOf(defs), ['effect', 'extrb']);

    fs.rmSync(file('def.json'));
    assert.equal(await defs.applyChanges(change('def.json', 3), []), true);
    assert.deepEqual(defs.catalog.lookupName('def-a'), []);
    assert.equal(await defs.applyChanges(change('other.json', 2), []), false, 'a file that is neither');
  });

  test('open documents overlay what is on disk, and stay overlaid after a change is applied', async () => {
    fs.writeFileSync(file('def.json'), definition({ effect: { type: 'String' } }));
    const defs = new WorkspaceDefinitions(() => undefined);
    const open = [{ uri: pathToFileURL(file('def.json')).href, text: definition({ unsaved: { type: 'String' } }) }];
    await defs.reload({ paths: [] }, [pathToFileURL(folder).href], open);
    assert.deepEqual(parametersOf(defs), ['unsaved']);
    await defs.applyChanges(change('def.json', 2), open);
    assert.deepEqual(parametersOf(defs), ['unsaved']);
  });

  test('definitions saved as UTF-16 or with a byte order mark are read as their text (the server reads them from disk)', async () => {
    const text = definition({ utf16param: { type: 'String' } });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(Buffer.from(text, 'utf16le')).swap16();
    for (const [name, bytes] of [
      ['le', le],
      ['be', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
      ['bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])],
    ] as const) {
      fs.rmSync(folder, { recursive: true, force: true });
      fs.mkdirSync(folder);
      fs.writeFileSync(file('def.json'), bytes);
      const defs = new WorkspaceDefinitions(() => undefined);
      await defs.reload({ paths: [] }, [pathToFileURL(folder).href], []);
      assert.deepEqual(parametersOf(defs), ['utf16param'], name);
    }
  });
});
