// A `policyset test` fixture open in the editor (docs/evaluate.md, "In the editor"): the real server over stdio
// puts each failed expectation on its line, and takes it away once the expectation is right; a fixture that
// names a missing file gets a diagnostic on the value that names it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLanguageServer } from '../support/lspClient';
import { REPO_ROOT } from '../support/corpus';

interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Array<{ range: { start: { line: number; character: number } }; code?: string; message: string; severity?: number }>;
}

const repo = (file: string) => path.join(REPO_ROOT, file);

function fixtureText(expected: string, resource = repo('examples/evaluate/storage-account.json')): string {
  return JSON.stringify(
    {
      target: repo('examples/clean/contoso-baseline.json'),
      definitions: [repo('examples/definitions')],
      cases: [
        { name: 'right', resource: repo('examples/evaluate/storage-account.json'), expect: { requireOwnerTag: 'compliant' } },
        { name: 'tls', resource, expect: { requireOwnerTag: 'compliant', storageMinimumTls: expected } },
      ],
    },
    null,
    2,
  );
}

/** The 0-based line of the first line of `text` that holds `needle` after the line that holds `after`. */
function lineOf(text: string, needle: string, after = ''): number {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(after));
  return lines.findIndex((l, i) => i >= start && l.includes(needle));
}

test('a fixture with a wrong expectation: a diagnostic on its line, gone once it is fixed; a missing file on the value naming it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fixture-lsp-'));
  try {
    const file = path.join(dir, 'storage.policytest.json');
    const wrong = fixtureText('compliant');
    fs.writeFileSync(file, wrong);
    const uri = pathToFileURL(file).href;
    const client = await startLanguageServer();
    const failures = (n: { method: string; params: PublishParams }, version: number) =>
      n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === version;
    const codes = (p: PublishParams, code: string) => p.diagnostics.filter((d) => d.code === code);

    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: wrong } });
    const failed = await client.waitFor<PublishParams>((n) => failures(n, 1) && codes(n.params, 'expectation-failed').length > 0, 30000);
    const [diagnostic, ...others] = codes(failed.params, 'expectation-failed');
    assert.equal(others.length, 0, 'only the wrong expectation: the right ones give nothing');
    assert.equal(diagnostic.range.start.line, lineOf(wrong, '"storageMinimumTls"'), 'on the line of the expectation');
    assert.equal(diagnostic.severity, 1);
    assert.match(diagnostic.message, /^'storageMinimumTls': expected compliant, got nonCompliant\. /);
    assert.match(
      diagnostic.message,
      /Audit because `Microsoft\.Storage\/storageAccounts\/minimumTlsVersion` is 'TLS1_0', expected at least 'TLS1_2'/,
    );

    const fixed = fixtureText('nonCompliant');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
    await client.waitFor<PublishParams>((n) => failures(n, 2) && n.params.diagnostics.length === 0, 30000);

    const missing = fixtureText('nonCompliant', path.join(dir, 'nope.json'));
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: missing }] });
    const notRun = await client.waitFor<PublishParams>((n) => failures(n, 3) && codes(n.params, 'fixture-not-run').length > 0, 30000);
    const [unreadable] = codes(notRun.params, 'fixture-not-run');
    assert.equal(
      unreadable.range.start.line,
      lineOf(missing, '"resource"', '"name": "tls"'),
      'on the resource that names the missing file',
    );
    assert.match(unreadable.message, /nope\.json/);
    assert.match(unreadable.message, /no such file/);
    assert.equal(codes(notRun.params, 'expectation-failed').length, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
