// The version check in the language server: the earlier text comes through policySet/setPreviousText
// (the server runs no git), PS3006 on the version with a quick fix that writes the suggested version,
// and policySet/changeReport for the extension's report.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer } from '../support/lspClient';

const DEF_A = '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d';
const DEF_B = '/providers/Microsoft.Authorization/policyDefinitions/0a075868-4c26-42ef-914c-5bc007359560';

function set(version: string, breaking: boolean): string {
  const parameters: Record<string, unknown> = { effect: { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' } };
  if (!breaking) parameters.tagName = { type: 'String' };
  return JSON.stringify(
    {
      name: 'lsp-set',
      properties: {
        displayName: 'LSP set',
        version,
        parameters,
        policyDefinitions: [
          { policyDefinitionReferenceId: 'ref1', policyDefinitionId: DEF_A, parameters: { effect: { value: "[parameters('effect')]" } } },
          {
            policyDefinitionReferenceId: 'ref2',
            policyDefinitionId: DEF_B,
            ...(breaking ? {} : { parameters: { tagName: { value: "[parameters('tagName')]" } } }),
          },
        ],
      },
    },
    null,
    2,
  );
}

interface Diagnostic {
  code: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  data?: Record<string, unknown>;
}
interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

const COMMITTED = set('1.2.3', false);
const EDITED = set('1.3.0', true);
const versionLine = EDITED.split('\n').findIndex((l) => l.includes('"version"'));

describe('version check over LSP', () => {
  test('push: PS3006 on the version once the earlier text is given; the quick fix writes 2.0.0', async () => {
    const client = await startLanguageServer({
      capabilities: { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } },
    });
    const uri = 'file:///work/versions/set.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: EDITED } });
    const opened = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 1,
    );
    assert.ok(!opened.params.diagnostics.some((d) => d.code === 'PS3006'), 'nothing to compare with yet');

    const since = client.notifications.length;
    const answer = await client.request<{ previous: boolean }>('policySet/setPreviousText', {
      textDocument: { uri },
      text: COMMITTED,
      label: 'HEAD',
    });
    assert.equal(answer.result?.previous, true);
    const checked = await client.waitFor<PublishParams>(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.diagnostics.some((d) => d.code === 'PS3006'),
      10000,
      { since },
    );
    const diagnostic = checked.params.diagnostics.find((d) => d.code === 'PS3006')!;
    assert.equal(diagnostic.range.start.line, versionLine);
    assert.match(diagnostic.message, /since HEAD \(1\.2\.3\).*major.*use '2\.0\.0'/);

    const { result: actions } = await client.request<
      Array<{
        title: string;
        isPreferred?: boolean;
        edit: { changes: Record<string, Array<{ range: Diagnostic['range']; newText: string }>> };
      }>
    >('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: ['quickfix'] },
    });
    const fix = actions!.find((a) => a.title === "Change the version to '2.0.0'");
    assert.ok(fix, JSON.stringify(actions));
    assert.equal(fix.isPreferred, true);
    const [edit] = fix.edit.changes[uri];
    assert.equal(edit.newText, '"2.0.0"');
    assert.equal(edit.range.start.line, versionLine);

    // The fix applied: the diagnostic goes.
    const lines = EDITED.split('\n');
    const line = lines[edit.range.start.line];
    lines[edit.range.start.line] = line.slice(0, edit.range.start.character) + edit.newText + line.slice(edit.range.end.character);
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: lines.join('\n') }] });
    const fixed = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 2,
    );
    assert.ok(!fixed.params.diagnostics.some((d) => d.code === 'PS3006'), JSON.stringify(fixed.params.diagnostics));

    // Forgetting the earlier text (null) turns the check off.
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: EDITED }] });
    await client.waitFor<PublishParams>(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' &&
        n.params.uri === uri &&
        n.params.version === 3 &&
        n.params.diagnostics.some((d) => d.code === 'PS3006'),
    );
    const before = client.notifications.length;
    await client.request('policySet/setPreviousText', { textDocument: { uri }, text: null });
    const cleared = await client.waitFor<PublishParams>(
      (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri,
      10000,
      { since: before },
    );
    assert.ok(!cleared.params.diagnostics.some((d) => d.code === 'PS3006'));
  });

  test('pull: the diagnostic after the earlier text is given', async () => {
    const client = await startLanguageServer({ pull: true });
    const uri = 'file:///work/versions/pulled.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: EDITED } });
    await client.request('policySet/setPreviousText', { textDocument: { uri }, text: COMMITTED, label: 'HEAD' });
    const { result } = await client.request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } });
    assert.ok(result!.items.some((d) => d.code === 'PS3006' && d.range.start.line === versionLine));
  });

  test('policySet/changeReport: the changes by bump, each with its range; bad parameters are refused and the server stays up', async () => {
    const client = await startLanguageServer();
    const uri = 'file:///work/versions/report.json';
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: EDITED } });
    const none = await client.request<{ compared: boolean }>('policySet/changeReport', { textDocument: { uri } });
    assert.equal(none.result?.compared, false);
    await client.request('policySet/setPreviousText', { textDocument: { uri }, text: COMMITTED, label: 'HEAD' });
    const { result } = await client.request<{
      compared: boolean;
      label: string;
      reports: Array<{
        requiredBump: string;
        suggestedVersion: string;
        versionOk: boolean;
        versionLine: number;
        changes: Array<{ kind: string; bump: string; side: string; range: Diagnostic['range'] }>;
      }>;
    }>('policySet/changeReport', { textDocument: { uri } });
    assert.equal(result!.compared, true);
    assert.equal(result!.label, 'HEAD');
    const [report] = result!.reports;
    assert.equal(report.requiredBump, 'major');
    assert.equal(report.suggestedVersion, '2.0.0');
    assert.equal(report.versionOk, false);
    assert.equal(report.versionLine, versionLine);
    const removed = report.changes.find((c) => c.kind === 'parameter-removed')!;
    assert.equal(removed.side, 'old');
    assert.equal(
      EDITED.split('\n')[removed.range.start.line].trim(),
      '"parameters": {',
      'a removal is shown where it was taken from in the document',
    );

    const bad = await client.request('policySet/setPreviousText', { text: 'x' });
    assert.equal(bad.error?.code, -32602);
    const wrong = await client.request('policySet/setPreviousText', { textDocument: { uri }, text: 42 });
    assert.equal(wrong.error?.code, -32602);
    const garbage = await client.request('policySet/setPreviousText', { textDocument: { uri }, text: '{ not json' });
    assert.equal(garbage.error, undefined);
    const problem = await client.request<{ problem?: string }>('policySet/changeReport', { textDocument: { uri } });
    assert.match(problem.result?.problem ?? '', /not valid JSON/);
    const info = await client.request<{ kind: string }>('policySet/documentInfo', { textDocument: { uri } });
    assert.equal(info.result?.kind, 'policySetDefinition', 'the server is still up');
  });
});
