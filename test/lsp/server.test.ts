import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer } from '../support/lspClient';

const SET = `{
  "properties": {
    "policyDefinitionGroups": [{ "name": "Network" }],
    "policyDefinitions": [
      { "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/x", "groupNames": ["Netwrk"] }
    ]
  }
}`;

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ code: string; range: { start: { line: number } } }>;
}

describe('language server over stdio', () => {
  test('push: diagnostics on open, after an edit, and cleared on close', async () => {
    const client = await startLanguageServer();
    const uri = 'file:///work/set.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    const opened = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 1);
    const group = opened.params.diagnostics.find((d) => d.code === 'PS5001') as
      { range: { start: { line: number } }; codeDescription?: { href: string } } | undefined;
    assert.ok(group);
    assert.equal(group.range.start.line, 4);
    assert.match(group.codeDescription?.href ?? '', /^file:.*\/docs\/rules\/undefined-group\.md$/);

    const fixed = SET.replace('"Netwrk"', '"Network"');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
    const changed = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 2);
    assert.ok(!changed.params.diagnostics.some((d) => d.code === 'PS5001'));

    client.notify('textDocument/didClose', { textDocument: { uri } });
    await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === undefined && n.params.diagnostics.length === 0,
    );
  });

  test('pull: textDocument/diagnostic answers for clients that ask', async () => {
    const client = await startLanguageServer({ pull: true });
    const uri = 'file:///work/pulled.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    const response = await client.request<{ kind: string; items: Array<{ code: string }> }>('textDocument/diagnostic', {
      textDocument: { uri },
    });
    assert.equal(response.result?.kind, 'full');
    assert.ok(response.result?.items.some((d) => d.code === 'PS5001'));
    assert.ok(!client.notifications.some((n) => n.method === 'textDocument/publishDiagnostics'));
  });

  test('a document that is not a policy document gets no diagnostics; broken input does not take the server down', async () => {
    const client = await startLanguageServer();
    client.notify('textDocument/didOpen', {
      textDocument: { uri: 'file:///work/package.json', languageId: 'json', version: 1, text: '{"name": "x"}' },
    });
    const other = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri.endsWith('package.json'),
    );
    assert.deepEqual(other.params.diagnostics, []);
    client.notify('textDocument/didOpen', {
      textDocument: { uri: 'file:///work/deep.json', languageId: 'json', version: 1, text: '['.repeat(100000) },
    });
    client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///work/set2.json', languageId: 'json', version: 7, text: SET } });
    const after = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri.endsWith('set2.json'),
    );
    assert.ok(after.params.diagnostics.some((d) => d.code === 'PS5001'));
  });

  test('no silent pass: JSON of no known kind opened as a policy set gets one information notice on its first line', async () => {
    const client = await startLanguageServer();
    const uri = 'file:///work/assignment.policyset.json';
    const text = '{\n  "properties": { "policyDefinitionId": "/providers/Microsoft.Authorization/policySetDefinitions/x" }\n}';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'policyset', version: 1, text } });
    const opened = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
    const notices = opened.params.diagnostics as unknown as Array<{
      severity: number;
      message: string;
      range: { start: { line: number }; end: { line: number; character: number } };
    }>;
    assert.equal(notices.length, 1);
    assert.equal(notices[0].severity, 3, 'information');
    assert.deepEqual([notices[0].range.start.line, notices[0].range.end.line, notices[0].range.end.character], [0, 0, 1]);
    assert.match(notices[0].message, /^Not checked: JSON, but not a policy set definition/);
    // The same text as plain JSON is not ours to talk about; once it becomes a set, the notice goes.
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: SET }] });
    const changed = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 2);
    assert.ok(changed.params.diagnostics.every((d) => !/Not checked/.test((d as unknown as { message: string }).message)));
    assert.ok(changed.params.diagnostics.some((d) => d.code === 'PS5001'));
  });

  test('a client without code action literals gets each quick fix as a command; running it applies the edit', async () => {
    const client = await startLanguageServer({
      setup: (c) => c.serverRequestHandlers.set('workspace/applyEdit', () => ({ applied: true })),
    });
    const uri = 'file:///work/commands.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    const opened = await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
    const diagnostic = opened.params.diagnostics.find((d) => d.code === 'PS5001')!;
    const range = (diagnostic as unknown as { range: object }).range;
    const { result } = await client.request<Array<{ title: string; command: string; arguments: unknown[] }>>('textDocument/codeAction', {
      textDocument: { uri },
      range,
      context: { diagnostics: [diagnostic] },
    });
    const declare = result?.find((a) => /declare/i.test(a.title));
    assert.equal(declare?.command, 'policySet.applyFix');
    const executed = await client.request('workspace/executeCommand', { command: declare.command, arguments: declare.arguments });
    assert.equal(executed.error, undefined);
    const applied = client.serverRequests.find((r) => r.method === 'workspace/applyEdit') as
      { params: { edit: { changes: Record<string, unknown[]> } } } | undefined;
    assert.ok(applied?.params.edit.changes[uri]?.length);
  });
});
