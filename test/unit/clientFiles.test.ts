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

  // The cases below were written against the survivors of the `web` mutation target (docs/mutation.md).

  test('what changes the known definitions and what does not: a removal or a file dropped from a complete list only when it held one', () => {
    const files = new ClientFiles(() => undefined);
    const a = 'memfs:/a.json';
    const notes = 'memfs:/notes.json';
    assert.equal(
      files.receive({
        complete: true,
        files: [
          { uri: a, text: definition('def-a', []) },
          { uri: notes, text: '{ "hello": 1 }' },
        ],
      }),
      true,
    );
    assert.equal(files.receive({ complete: false, files: [], removed: [notes] }), false, 'a file that held no definition: nothing changed');
    assert.equal(
      files.receive({ complete: false, files: [], removed: ['memfs:/never-sent.json'] }),
      false,
      'a file never sent: nothing changed',
    );
    assert.equal(files.receive({ complete: false, files: [{ uri: notes, text: '{ "hello": 2 }' }] }), false, 'still no definition');
    assert.equal(
      files.receive({ complete: true, files: [{ uri: a, text: definition('def-a', []) }] }),
      false,
      'only notes.json left the list',
    );
    assert.equal(files.catalog.lookupName('def-a').length, 1);
    assert.equal(files.receive({ complete: true, files: [] }), true, 'def-a left the list');
    assert.equal(files.catalog.lookupName('def-a').length, 0);
    assert.equal(files.receive({ complete: false, files: [], removed: [a] }), false, 'already gone');
  });

  test('a malformed notification: entries without a string uri or text are passed over, the others taken', () => {
    const lines: string[] = [];
    const files = new ClientFiles((line) => lines.push(line));
    const files_ = [
      { uri: 7, text: definition('def-bad-uri', []) },
      { uri: 'memfs:/no-text.json', text: { properties: {} } },
      { uri: 'memfs:/good.json', text: definition('def-good', []) },
    ] as unknown as Array<{ uri: string; text: string }>;
    assert.equal(files.receive({ complete: true, files: files_ }), true);
    assert.equal(files.catalog.lookupName('def-bad-uri').length, 0);
    assert.equal(files.catalog.lookupName('def-good').length, 1);
    assert.equal(files.text('memfs:/no-text.json'), undefined);
    assert.equal(files.text('memfs:/not-sent.json'), undefined, 'a file never sent has no text (and no error)');
    assert.match(lines.at(-1) ?? '', /\(from 1 workspace files/, 'only the good entry is held');
  });

  test('the log says what is known after a complete list or a change, and nothing after an update that changed nothing', () => {
    const lines: string[] = [];
    const files = new ClientFiles((line) => lines.push(line));
    files.receive({ complete: true, files: [{ uri: 'memfs:/n.json', text: '{}' }] });
    assert.equal(lines.length, 1, 'a complete list is always reported');
    assert.match(lines[0], /Known policy definitions: 0; policy sets: 0 \(from 1 workspace files/);
    files.receive({ complete: false, files: [{ uri: 'memfs:/n.json', text: '{ }' }] });
    assert.equal(lines.length, 1, 'nothing changed: nothing said');
    files.receive({ complete: false, files: [{ uri: 'memfs:/d.json', text: definition('def-d', []) }] });
    assert.equal(lines.length, 2);
    assert.match(lines[1], /Known policy definitions: 1; policy sets: 0 \(from 2 workspace files/);
  });

  test('a change to the sent files keeps the open documents laid over them', () => {
    const files = new ClientFiles(() => undefined);
    const uri = 'memfs:/a.json';
    files.receive({ complete: true, files: [{ uri, text: definition('def-a', ['sent']) }] });
    files.refreshOpen([{ uri, text: definition('def-a', ['open']) }]);
    files.receive({ complete: false, files: [{ uri: 'memfs:/b.json', text: definition('def-b', []) }] });
    assert.deepEqual(parametersOf(files, 'def-a'), ['open'], 'the unsaved text still wins after the rebuild');
    assert.equal(files.catalog.lookupName('def-b').length, 1);
    // An open document that is neither a definition nor a set adds nothing and hides nothing.
    files.refreshOpen([{ uri: 'memfs:/other.json', text: '{ "x": 1 }' }]);
    assert.deepEqual(parametersOf(files, 'def-a'), ['sent']);
  });

  test('an open set: its unsaved text wins; an open file at a sent URI that is JSON but neither definition nor set keeps the sent one', () => {
    const files = new ClientFiles(() => undefined);
    const setUri = 'memfs:/set.json';
    const defUri = 'memfs:/def.json';
    const set = (group: string) =>
      JSON.stringify({ name: 'set-a', properties: { policyDefinitions: [], policyDefinitionGroups: [{ name: group }] } });
    files.receive({
      complete: true,
      files: [
        { uri: setUri, text: set('Sent') },
        { uri: defUri, text: definition('def-a', ['sent']) },
      ],
    });
    files.refreshOpen([{ uri: setUri, text: set('Open') }]);
    assert.deepEqual(files.catalog.lookupSet('set-a')?.groups, ['Open']);
    assert.equal(files.catalog.lookupName('set-a').length, 0, 'a set is not a definition');
    files.refreshOpen([{ uri: defUri, text: '{ "being": "rewritten" }' }]);
    assert.deepEqual(parametersOf(files, 'def-a'), ['sent']);
    assert.equal(files.catalog.setCount, 1);
  });

  test("the server's reload and file changes: nothing to read in the browser, the open documents laid over what was sent", async () => {
    const files = new ClientFiles(() => undefined);
    const uri = 'memfs:/a.json';
    files.receive({ complete: true, files: [{ uri, text: definition('def-a', ['sent']) }] });
    assert.equal(await files.reload({}, ['memfs:/'], [{ uri, text: definition('def-a', ['reloaded']) }]), true);
    assert.deepEqual(parametersOf(files, 'def-a'), ['reloaded']);
    assert.equal(
      await files.applyChanges([{ uri, type: 2 }], [{ uri, text: definition('def-a', ['changed']) }]),
      false,
      'the client sends changed files itself',
    );
    assert.deepEqual(parametersOf(files, 'def-a'), ['changed']);
  });

  test('which texts are kept: split-set parts and config files up to 1 MiB, nothing else', () => {
    const files = new ClientFiles(() => undefined);
    const config = 'memfs:/.policysetrc.json';
    const part = 'memfs:/set.definitions.json';
    const big = 'memfs:/big/.policysetrc.json';
    const exactly = 'memfs:/exact/.policysetrc.json';
    const oneMiB = 1024 * 1024;
    const padded = (length: number) => `{ "x": "${'a'.repeat(length - 11)}" }`;
    assert.equal(padded(oneMiB).length, oneMiB);
    files.receive({
      complete: true,
      files: [
        { uri: config, text: '{ "strict": true }' },
        { uri: part, text: '[]' },
        { uri: big, text: padded(oneMiB + 1) },
        { uri: exactly, text: padded(oneMiB) },
        { uri: 'memfs:/set.json', text: '{ "properties": { "policyDefinitions": [] } }' },
        { uri: 'memfs:/broken.policysetrc.json', text: '{' },
      ],
    });
    assert.equal(files.text(config), '{ "strict": true }');
    assert.equal(files.text(part), '[]', 'a part of a split set');
    assert.equal(files.text(big), undefined, 'over 1 MiB');
    assert.equal(files.text(exactly)?.length, oneMiB, 'exactly 1 MiB is kept');
    assert.equal(files.text('memfs:/set.json'), undefined, 'a set is kept as its facts');
    assert.equal(files.keptTexts(), 3);
  });

  test('what is an index: an array, or an object with a definitions array; null, numbers and other objects are not', () => {
    const files = new ClientFiles(() => undefined);
    const entry = (name: string) => ({
      id: `/providers/Microsoft.Authorization/policyDefinitions/${name}`,
      name,
      properties: { displayName: name, parameters: {} },
    });
    assert.equal(
      files.receive({
        complete: true,
        files: [
          { uri: 'memfs:/array.json', text: JSON.stringify([entry('in-array')]) },
          { uri: 'memfs:/wrapped.json', text: JSON.stringify({ definitions: [entry('in-wrapper')] }) },
          { uri: 'memfs:/null.json', text: 'null' },
          { uri: 'memfs:/number.json', text: '42' },
          { uri: 'memfs:/not-array.json', text: JSON.stringify({ definitions: { a: entry('not-listed') } }) },
        ],
      }),
      true,
    );
    assert.equal(files.catalog.lookupName('in-array').length, 1);
    assert.equal(files.catalog.lookupName('in-wrapper').length, 1);
    assert.equal(files.catalog.lookupName('not-listed').length, 0);
    assert.equal(files.catalog.size, 2);
    assert.equal(files.receive({ complete: false, files: [{ uri: 'memfs:/null.json', text: '[]' }] }), true, 'an empty index is an index');
  });

  test('a set file is known; an object that is neither definition nor set adds nothing', () => {
    const files = new ClientFiles(() => undefined);
    const set = JSON.stringify({ name: 'set-a', properties: { policyDefinitions: [{ policyDefinitionId: '/x' }] } });
    assert.equal(files.receive({ complete: true, files: [{ uri: 'memfs:/set.json', text: set }] }), true);
    assert.equal(files.catalog.setCount, 1);
    assert.equal(files.receive({ complete: false, files: [{ uri: 'memfs:/other.json', text: '{ "properties": {} }' }] }), false);
    assert.equal(files.catalog.setCount, 1);
  });
});
