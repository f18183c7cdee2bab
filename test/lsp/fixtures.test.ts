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

test('a code lens on the set a fixture of the workspace names: "evaluate 2 samples: 1 fail", its results, and all pass once the open fixture is right', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fixture-lens-'));
  try {
    const fixture = path.join(dir, 'nested', 'storage.policytest.json');
    fs.mkdirSync(path.dirname(fixture));
    const wrong = fixtureText('compliant');
    fs.writeFileSync(fixture, wrong);
    // Another fixture, of another target: not counted.
    fs.writeFileSync(path.join(dir, 'other.policytest.json'), JSON.stringify({ target: 'elsewhere.json', cases: [] }));
    const client = await startLanguageServer({ rootUri: pathToFileURL(dir).href });
    const setFile = repo('examples/clean/contoso-baseline.json');
    const setUri = pathToFileURL(setFile).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri: setUri, languageId: 'json', version: 1, text: fs.readFileSync(setFile, 'utf8') },
    });
    const lenses = (
      await client.request<Array<{ range: { start: { line: number } }; data: unknown }>>('textDocument/codeLens', {
        textDocument: { uri: setUri },
      })
    ).result!;
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].range.start.line, 0);
    const resolved = (
      await client.request<{ command: { title: string; command: string; arguments: unknown[] } }>('codeLens/resolve', lenses[0], 30000)
    ).result!;
    assert.equal(resolved.command.title, 'evaluate 2 samples: 1 fail');
    assert.equal(resolved.command.command, 'policySet.evaluateSamples');
    assert.deepEqual(resolved.command.arguments, [{ uri: setUri }]);

    const results = (
      await client.request<{
        fixtures: Array<{
          uri: string;
          cases: Array<{
            name: string;
            passed: boolean;
            expectations: Array<{
              referenceId: string;
              actual: string;
              explanation: string;
              passed: boolean;
              range: { start: { line: number } };
            }>;
          }>;
        }>;
      }>('policySet/fixtureResults', { textDocument: { uri: setUri } }, 30000)
    ).result!;
    assert.deepEqual(
      results.fixtures.map((f) => f.uri),
      [pathToFileURL(fixture).href],
    );
    const tls = results.fixtures[0].cases[1].expectations.find((e) => e.referenceId === 'storageMinimumTls')!;
    assert.equal(tls.passed, false);
    assert.equal(tls.actual, 'nonCompliant');
    assert.equal(tls.range.start.line, lineOf(wrong, '"storageMinimumTls"'));
    assert.match(tls.explanation, /^Audit because /);
    const owner = results.fixtures[0].cases[0].expectations[0];
    assert.equal(owner.passed, true);
    assert.match(owner.explanation, /^Compliant because /, 'a passing expectation has its sentence too');

    // The fixture open in the editor, fixed but not saved: its text is what runs.
    client.notify('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(fixture).href, languageId: 'json', version: 1, text: fixtureText('nonCompliant') },
    });
    const again = (await client.request<Array<{ data: unknown }>>('textDocument/codeLens', { textDocument: { uri: setUri } })).result!;
    const passing = (await client.request<{ command: { title: string } }>('codeLens/resolve', again[0], 30000)).result!;
    assert.equal(passing.command.title, 'evaluate 2 samples: all pass');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no code lens on a set that no fixture names', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fixture-nolens-'));
  try {
    const client = await startLanguageServer({ rootUri: pathToFileURL(dir).href });
    const setFile = repo('examples/clean/contoso-baseline.json');
    const setUri = pathToFileURL(setFile).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri: setUri, languageId: 'json', version: 1, text: fs.readFileSync(setFile, 'utf8') },
    });
    const lenses = (await client.request<unknown[]>('textDocument/codeLens', { textDocument: { uri: setUri } })).result!;
    assert.deepEqual(lenses, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('pull diagnostics: the first pull starts the run, the server asks for a refresh, the next pull has the failure', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-fixture-pull-'));
  try {
    const file = path.join(dir, 'storage.policytest.json');
    const wrong = fixtureText('compliant');
    fs.writeFileSync(file, wrong);
    const uri = pathToFileURL(file).href;
    const client = await startLanguageServer({ pull: true });
    const pull = async () =>
      (await client.request<{ items: PublishParams['diagnostics'] }>('textDocument/diagnostic', { textDocument: { uri } }, 30000)).result!
        .items;
    const refreshes = client.serverRequestCount('workspace/diagnostic/refresh');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: wrong } });
    await pull();
    await client.waitForServerRequest('workspace/diagnostic/refresh', 30000, { after: refreshes });
    const items = await pull();
    const failed = items.filter((d) => d.code === 'expectation-failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].range.start.line, lineOf(wrong, '"storageMinimumTls"'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
