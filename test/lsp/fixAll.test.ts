// source.fixAll.policyset over stdio (editor.codeActionsOnSave): one action, one edit, the same fixes as
// `policyset lint --fix`; "Fix all <rule> problems in this file" beside a single fix; the kind declared.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { startLanguageServer, type LspClient } from '../support/lspClient';
import { startServerProcess } from '../support/lspProcess';
import { applyTextEdits, editsOf } from '../support/textEdits';
import { CLI } from '../support/run';

const SET = `{
  "properties": {
    "displayName": "Fix on save",
    "policyType": "Custom",
    "version": "v1.2",
    "parameters": {
      "storageEffect": { "type": "String", "defaultValue": "Audit" },
      "unused": { "type": "String" }
    },
    "policyDefinitions": [
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "parameters": { "effect": { "value": "[parameters('storageEfect')]" }, "other": { "value": "[parameters('storgeEffect')]" } }
      },
      {
        "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/abc",
        "parameters": { "effect": { "value": "[parameters('storageEffect')]" } }
      }
    ]
  }
}
`;

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

const FULL = { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } };

describe('source.fixAll.policyset', () => {
  let client: LspClient;
  const uri = 'file:///work/fix-on-save.json';
  let diagnostics: Diagnostic[];
  const started = startLanguageServer({
    capabilities: { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } } } } },
  });
  before(async () => {
    client = await started;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: SET } });
    diagnostics = (
      await client.waitFor<PublishParams>(
        (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === 1,
      )
    ).params.diagnostics;
  });

  test('the server declares the kind', async () => {
    const fresh = startServerProcess();
    try {
      const init = await fresh.request<{ capabilities: { codeActionProvider?: { codeActionKinds?: string[] } } }>('initialize', {
        processId: null,
        rootUri: null,
        capabilities: {},
      });
      assert.deepEqual(init.result?.capabilities.codeActionProvider?.codeActionKinds, ['quickfix', 'source.fixAll.policyset']);
    } finally {
      fresh.stop();
    }
  });

  test('on save (only: source.fixAll): one action with one edit that gives what lint --fix writes', async () => {
    const { result } = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: FULL,
      context: { diagnostics: [], only: ['source.fixAll'] },
    });
    assert.equal(result?.length, 1);
    const action = result![0];
    assert.equal(action.kind, 'source.fixAll.policyset');
    const edits = editsOf(action, uri);
    const fixed = applyTextEdits(SET, edits);
    // The CLI's --fix-dry-run on the same text: the same output.
    const cli = spawnSync(process.execPath, [CLI, 'lint', '--stdin', '--fix-dry-run', '-f', 'json', '--min-severity', 'hint'], {
      input: SET,
      encoding: 'utf8',
    });
    const report = JSON.parse(cli.stdout) as { files: Array<{ output: string }> };
    assert.equal(fixed, report.files[0].output);
    assert.match(fixed, /"version": "1\.2\.0"/);
    assert.equal(fixed.match(/\[parameters\('storageEffect'\)\]/g)?.length, 3);
    assert.match(fixed, /"unused": \{ "type": "String" \}/, "removing a parameter is a person's choice");
    // Asked as 'source' (the Source Action menu) it comes too; as quickfix only, it does not.
    const source = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: FULL,
      context: { diagnostics: [], only: ['source'] },
    });
    assert.deepEqual(
      source.result?.map((a) => a.kind),
      ['source.fixAll.policyset'],
    );
    const quick = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: FULL,
      context: { diagnostics: [], only: ['quickfix'] },
    });
    assert.ok(!quick.result?.some((a) => a.kind === 'source.fixAll.policyset'));
  });

  test('the lightbulb (no only) does not check the whole document for it', async () => {
    const diagnostic = diagnostics.find((d) => d.code === 'PS3002')!;
    const { result } = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    assert.ok(result?.length);
    assert.ok(!result!.some((a) => a.kind === 'source.fixAll.policyset'));
  });

  test('"Fix all undefined-parameter problems in this file" beside the single fix', async () => {
    const ps7001 = diagnostics.filter((d) => d.code === 'PS7001');
    assert.equal(ps7001.length, 2);
    const { result } = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: ps7001[0].range,
      context: { diagnostics: [ps7001[0]] },
    });
    const all = result!.find((a) => a.title.startsWith('Fix all undefined-parameter problems in this file'));
    assert.ok(all, result!.map((a) => a.title).join(' | '));
    assert.equal(all.title, 'Fix all undefined-parameter problems in this file (2)');
    const fixed = applyTextEdits(SET, editsOf(all, uri));
    assert.equal(fixed.match(/\[parameters\('storageEffect'\)\]/g)?.length, 3);
    // Only that rule: the version is left.
    assert.match(fixed, /"version": "v1\.2"/);
    // A rule with one such problem gets no fix-all of its own.
    const version = diagnostics.find((d) => d.code === 'PS3002')!;
    const single = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: version.range,
      context: { diagnostics: [version] },
    });
    assert.ok(!single.result!.some((a) => a.title.startsWith('Fix all')));
  });

  test('nothing to fix: no action', async () => {
    const clean = 'file:///work/clean.json';
    const text = fs.readFileSync(path.join(__dirname, '../../../examples/clean/contoso-baseline.json'), 'utf8');
    client.notify('textDocument/didOpen', { textDocument: { uri: clean, languageId: 'json', version: 1, text } });
    await client.waitFor<PublishParams>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === clean);
    const { result } = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: clean },
      range: FULL,
      context: { diagnostics: [], only: ['source.fixAll'] },
    });
    assert.deepEqual(result, []);
  });
});
