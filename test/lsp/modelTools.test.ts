// The custom requests behind the extension's language-model tools (client/src/languageModelTools.ts):
// policySet/documentDiagnostics answers what the server publishes for the document, and policySet/rules what
// `policyset rules --format json` lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer } from '../support/lspClient';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

interface Published {
  uri: string;
  diagnostics: Array<{ range: unknown; severity?: number; code?: string; message: string }>;
}

test('policySet/documentDiagnostics: the diagnostics the server publishes; null for a document it does not have', async () => {
  const client = await startLanguageServer();
  try {
    const file = path.join(REPO_ROOT, 'examples/mistakes/contoso-security-set.json');
    const uri = pathToFileURL(file).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: fs.readFileSync(file, 'utf8') } });
    const published = await client.waitFor<Published>((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri, 20000);
    assert.ok(published.params.diagnostics.length > 0, 'the example has mistakes');
    const answer = (
      await client.request<{ uri: string; kind: string; diagnostics: Published['diagnostics'] }>('policySet/documentDiagnostics', {
        textDocument: { uri },
      })
    ).result!;
    assert.equal(answer.kind, 'policySetDefinition');
    assert.deepEqual(
      answer.diagnostics,
      published.params.diagnostics.map(({ range, severity, code, message }) => ({ range, severity, code, message })),
    );
    const unknown = await client.request('policySet/documentDiagnostics', { textDocument: { uri: 'file:///not/open.json' } });
    assert.equal(unknown.result, null);
  } finally {
    await client.stop();
  }
});

test('policySet/rules: the rules policyset rules --format json lists', async () => {
  const client = await startLanguageServer();
  try {
    const cli = await runCli(['rules', '--format', 'json']);
    assert.equal(cli.code, 0);
    assert.deepEqual((await client.request('policySet/rules', null)).result, JSON.parse(cli.stdout));
  } finally {
    await client.stop();
  }
});
