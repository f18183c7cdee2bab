// The browser server's known definitions: what the extension sends (policySet/workspaceFiles), with the open
// documents laid over it, as the desktop server does with the disk.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientFiles } from '#server/lsp/browser/clientFiles';

const definition = (name: string, parameters: string[]) =>
  JSON.stringify({
    id: `/providers/Microsoft.Management/managementGroups/mg/providers/Microsoft.Authorization/policyDefinitions/${name}`,
    name,
    properties: {
      displayName: name,
      policyRule: { if: {}, then: { effect: 'audit' } },
      parameters: Object.fromEntries(parameters.map((p) => [p, { type: 'String' }])),
    },
  });
const parametersOf = (files: ClientFiles, name: string) => [...(files.catalog.lookupName(name)[0]?.parameters.keys() ?? [])];

describe('ClientFiles: the workspace as the extension sends it', () => {
  test('a complete set, then changes and deletions; what is not sent again is forgotten on the next complete set', () => {
    const files = new ClientFiles(() => undefined);
    assert.equal(
      files.receive({
        complete: true,
        files: [
          { uri: 'vscode-vfs://github/o/r/a.json', text: definition('def-a', ['x']) },
          { uri: 'vscode-vfs://github/o/r/b.json', text: definition('def-b', []) },
        ],
      }),
      true,
    );
    assert.deepEqual(parametersOf(files, 'def-a'), ['x']);
    assert.equal(
      files.receive({ complete: false, files: [{ uri: 'vscode-vfs://github/o/r/a.json', text: definition('def-a', ['x', 'y']) }] }),
      true,
    );
    assert.deepEqual(parametersOf(files, 'def-a'), ['x', 'y']);
    assert.equal(
      files.receive({ complete: false, files: [{ uri: 'vscode-vfs://github/o/r/a.json', text: definition('def-a', ['x', 'y']) }] }),
      false,
      'the same content changes nothing',
    );
    assert.equal(files.receive({ complete: false, files: [], removed: ['vscode-vfs://github/o/r/b.json'] }), true);
    assert.equal(files.catalog.lookupName('def-b').length, 0);
    files.receive({ complete: true, files: [{ uri: 'vscode-vfs://github/o/r/b.json', text: definition('def-b', []) }] });
    assert.equal(files.catalog.lookupName('def-a').length, 0, 'not in the new complete set');
    assert.equal(files.catalog.lookupName('def-b').length, 1);
  });

  test("an index file's definitions, a set's groups, and small files' text for readFile", () => {
    const files = new ClientFiles(() => undefined);
    const index = JSON.stringify([
      {
        id: '/providers/Microsoft.Authorization/policyDefinitions/0a914e76-4921-4c19-b460-a2d36003525a',
        name: '0a914e76-4921-4c19-b460-a2d36003525a',
        properties: { displayName: 'Audit', parameters: { effect: { type: 'String' } } },
      },
    ]);
    const set = JSON.stringify({ name: 'set-a', properties: { policyDefinitions: [], policyDefinitionGroups: [{ name: 'G1' }] } });
    files.receive({
      complete: true,
      files: [
        { uri: 'memfs:/index.json', text: index },
        { uri: 'memfs:/set.json', text: set },
        { uri: 'memfs:/.policysetrc.json', text: '{ "strict": true }' },
        { uri: 'memfs:/broken.json', text: '{ "properties": ' },
      ],
    });
    assert.equal(
      files.catalog.lookup('/providers/Microsoft.Authorization/policyDefinitions/0a914e76-4921-4c19-b460-a2d36003525a').length,
      1,
    );
    assert.deepEqual(files.catalog.lookupSet('set-a')?.groups, ['G1']);
    assert.equal(files.text('memfs:/.policysetrc.json'), '{ "strict": true }');
    assert.equal(files.text('memfs:/index.json'), undefined, 'an index is kept as definitions, not text');
  });

  test('an open definition: its unsaved text wins over what was sent, and a broken edit keeps the sent one', () => {
    const files = new ClientFiles(() => undefined);
    const uri = 'vscode-vfs://github/o/r/a.json';
    files.receive({ complete: true, files: [{ uri, text: definition('def-a', ['x']) }] });
    files.refreshOpen([{ uri, text: definition('def-a', ['x', 'open']) }]);
    assert.deepEqual(parametersOf(files, 'def-a'), ['x', 'open']);
    files.refreshOpen([{ uri, text: '{ "properties": { "policyRule"' }]);
    assert.deepEqual(parametersOf(files, 'def-a'), ['x']);
  });
});
