// Many documents opened at once (an editor restoring a session): the server reads the whole burst before it
// checks the rest of it, a request sent behind the burst is answered before the burst is checked, an edit
// made meanwhile is checked in its new version only, and what was closed or
// changed before its turn is not checked in its old state (docs/performance.md).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer, type LspClient } from '../support/lspClient';

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; message: string }>;
}

/** A set of `references` references, each passing a parameter and using a group; `mistake`: one undeclared group. */
function set(index: number, references: number, mistake = false): string {
  return JSON.stringify(
    {
      name: `burst-${index}`,
      properties: {
        displayName: `Burst ${index}`,
        policyType: 'Custom',
        parameters: Object.fromEntries(
          Array.from({ length: references }, (_, i) => [
            `effect-${i}`,
            { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' },
          ]),
        ),
        policyDefinitionGroups: Array.from({ length: 10 }, (_, i) => ({ name: `Group-${i}` })),
        policyDefinitions: Array.from({ length: references }, (_, i) => ({
          policyDefinitionReferenceId: `ref-${i}`,
          policyDefinitionId: `/providers/Microsoft.Authorization/policyDefinitions/${String(i).padStart(8, '0')}-0000-0000-0000-000000000000`,
          parameters: { effect: { value: `[parameters('effect-${i}')]` } },
          groupNames: [mistake && i === 0 ? 'Undeclared' : `Group-${i % 10}`],
        })),
      },
    },
    null,
    2,
  );
}

const COUNT = 400;
const REFERENCES = 120;
const uriOf = (i: number) => `file:///work/burst/set-${i}.json`;
const isPublish = (n: { method: string }) => n.method === 'textDocument/publishDiagnostics';

function publishesOf(client: LspClient, uri: string) {
  return client.notifications.filter((n) => isPublish(n) && (n.params as PublishParams).uri === uri).map((n) => n.params as PublishParams);
}

describe('a burst of documents opened at once', () => {
  test('documents closed or changed before their turn are not checked as they were; an edit meanwhile is checked in its new version only', async () => {
    const client = await startLanguageServer({ capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    const texts = Array.from({ length: COUNT }, (_, i) => set(i, REFERENCES));
    const closed = COUNT - 20;
    const changed = COUNT - 10;
    const edited = COUNT - 1;
    // Everything at once, as a client restoring a session sends it: the opens, with a hover in the middle of
    // them, then a close and a change.
    const openOne = (i: number) =>
      client.notify('textDocument/didOpen', { textDocument: { uri: uriOf(i), languageId: 'json', version: 1, text: texts[i] } });
    for (let i = 0; i < COUNT / 2; i++) openOne(i);
    const hover = client.request('textDocument/hover', { textDocument: { uri: uriOf(0) }, position: { line: 3, character: 8 } }, 120000);
    for (let i = COUNT / 2; i < COUNT; i++) openOne(i);
    client.notify('textDocument/didClose', { textDocument: { uri: uriOf(closed) } });
    client.notify('textDocument/didChange', {
      textDocument: { uri: uriOf(changed), version: 2 },
      contentChanges: [{ text: set(changed, REFERENCES, true) }],
    });
    // The hover is answered as it is read, not after the documents that came behind it have been checked
    // (counted in the order the server sent its messages, not by a clock).
    const answered = await hover;
    assert.equal(answered.error, undefined);
    const publishedBefore = client.notifications
      .slice(0, answered.notificationsBefore)
      .filter(isPublish)
      .map((n) => Number(/set-(\d+)/.exec((n.params as PublishParams).uri)![1]));
    assert.deepEqual(
      publishedBefore.filter((i) => i >= COUNT / 2),
      [],
      'no document opened after the hover had its diagnostics before the hover was answered',
    );

    // The first document is checked at once; then a keystroke in the last one.
    await client.waitFor(isPublish, 60000);
    client.notify('textDocument/didChange', {
      textDocument: { uri: uriOf(edited), version: 2 },
      contentChanges: [{ text: set(edited, REFERENCES, true) }],
    });
    const answer = await client.waitFor<PublishParams>(
      (n) => isPublish(n) && n.params.uri === uriOf(edited) && n.params.version === 2,
      60000,
    );
    assert.ok(
      answer.params.diagnostics.some((d) => d.code === 'PS5001'),
      'the edit is what was checked',
    );
    const open = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i !== closed);
    // Whether other documents are still waiting when the edit is answered depends on how fast this machine
    // checks the burst against the edit's debounce: a timing, not asserted here (issue 24 keeps it open).

    // The rest of the burst comes in.
    await Promise.all(
      open.map((i) =>
        client.waitFor<PublishParams>(
          (n) => isPublish(n) && n.params.uri === uriOf(i) && n.params.version === (i === changed || i === edited ? 2 : 1),
          120000,
        ),
      ),
    );
    assert.deepEqual(
      publishesOf(client, uriOf(closed)),
      [{ uri: uriOf(closed), diagnostics: [] }],
      'a closed document: only the clearing of its diagnostics',
    );
    for (const i of [changed, edited]) {
      const versions = publishesOf(client, uriOf(i)).map((p) => p.version);
      assert.deepEqual(versions, [2], `${uriOf(i)}: only its new version is checked (got versions ${versions.join(', ')})`);
      assert.ok(publishesOf(client, uriOf(i))[0].diagnostics.some((d) => d.code === 'PS5001'));
    }
    // The others as each would be alone: the generated sets have no mistake.
    for (const i of open.filter((i) => i !== changed && i !== edited)) assert.deepEqual(publishesOf(client, uriOf(i)).length, 1, uriOf(i));
  });
});

describe('a repository whose files are open', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'policyset-open-repository-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  test('reading the workspace to what the open files already said checks nothing again', async () => {
    const definition = JSON.stringify({
      name: 'open-def',
      id: '/providers/Microsoft.Authorization/policyDefinitions/open-def',
      properties: { policyRule: { if: {}, then: { effect: 'audit' } }, parameters: { effect: { type: 'String' } } },
    });
    const setText = JSON.stringify(
      {
        properties: {
          displayName: 'Open repository',
          policyDefinitions: [
            {
              policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/open-def',
              parameters: { effect: { value: 'Audit' }, extra: { value: 1 } },
            },
          ],
        },
      },
      null,
      2,
    );
    writeFileSync(path.join(folder, 'open-def.json'), definition);
    writeFileSync(path.join(folder, 'set.json'), setText);
    const client = await startLanguageServer({
      rootUri: pathToFileURL(folder).href,
      capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      setup: (c) => c.serverRequestHandlers.set('workspace/configuration', () => [{ validate: { run: 'onType' } }]),
    });
    const setUri = pathToFileURL(path.join(folder, 'set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri: setUri, languageId: 'json', version: 1, text: setText } });
    client.notify('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(path.join(folder, 'open-def.json')).href, languageId: 'json', version: 1, text: definition },
    });
    const isLog = (pattern: RegExp) => (n: { method: string; params: unknown }) =>
      n.method === 'window/logMessage' && pattern.test((n.params as { message: string }).message);
    // The open definition and the scan of the folder give the same catalogue: the second of them is a no-op.
    await client.waitFor(isLog(/Known policy definitions: 1/), 20000);
    await client.waitFor(isLog(/did not change: the open documents are not checked again/), 20000);
    const setPublishes = () =>
      client.notifications.filter((n) => isPublish(n) && (n.params as PublishParams).uri === setUri).map((n) => n.params as PublishParams);
    const count = setPublishes().length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(setPublishes().length, count, 'no check of the set after the catalogue was found unchanged');
    const last = setPublishes().at(-1)!;
    assert.ok(
      last.diagnostics.some((d) => d.code === 'PS8001' && /extra/.test(d.message)),
      'its diagnostics were made with the definition known',
    );
    assert.ok(
      client.notifications.some(isLog(/The known definitions changed: the open documents are checked again/)),
      'the first time the definition became known, the open documents were checked again',
    );
  });
});
