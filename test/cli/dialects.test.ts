// Real-world dialects (issue "Real-world dialects"): every fixture of test/fixtures/dialects, linted by the
// CLI and opened in the language server over stdio, gives exactly the diagnostics of expected.json: each
// planted mistake on its line with its code, and nothing on the clean files.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../support/run';
import { startLanguageServer } from '../support/lspClient';
import { REPO_ROOT } from '../support/corpus';

const ROOT = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects');
type Expected = Record<string, Array<[code: string, line: number, why: string]>>;
const expected = JSON.parse(fs.readFileSync(path.join(ROOT, 'expected.json'), 'utf8')) as Expected;
/** The dialects: one folder each, linted (and opened as a workspace) as a whole. */
const dialects = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

const files = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.jsonc?$/.test(e.name) ? [path.join(dir, e.name)] : []));
const key = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const want = (dialect: string) =>
  Object.fromEntries(
    Object.entries(expected)
      .filter(([file]) => file.startsWith(`${dialect}/`))
      .map(([file, list]) => [file, list.map(([code, line]) => `${code}@${line}`).sort()]),
  );

test('every fixture file is in expected.json, and every entry is a file', () => {
  const all = dialects.flatMap((d) => files(path.join(ROOT, d)).map(key)).sort();
  assert.deepEqual(all, Object.keys(expected).sort());
});

describe('the CLI', () => {
  for (const dialect of dialects) {
    test(`${dialect}: every planted mistake on its line, nothing else`, async () => {
      const result = await runCli(['lint', path.join(ROOT, dialect), '-f', 'json', '--min-severity', 'hint'], { cwd: ROOT });
      const report = JSON.parse(result.stdout) as {
        files: Array<{ file: string; diagnostics: Array<{ code: string; line: number }> }>;
        notChecked: unknown[];
      };
      const got = Object.fromEntries(
        report.files.map((f) => [f.file.split(path.sep).join('/'), f.diagnostics.map((d) => `${d.code}@${d.line}`).sort()]),
      );
      assert.deepEqual(got, want(dialect));
      assert.deepEqual(report.notChecked, []);
    });
  }
});

describe('the language server over stdio', () => {
  for (const dialect of dialects) {
    test(`${dialect}: the same diagnostics with the folder as the workspace`, async () => {
      const folder = path.join(ROOT, dialect);
      const client = await startLanguageServer({ rootUri: pathToFileURL(folder).href });
      type Published = { uri: string; diagnostics: Array<{ code: string; range: { start: { line: number } } }> };
      const codes = (p: Published) => p.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`).sort();
      const expectedHere = want(dialect);
      for (const file of files(folder)) {
        const uri = pathToFileURL(file).href;
        client.notify('textDocument/didOpen', {
          textDocument: { uri, languageId: file.endsWith('.jsonc') ? 'jsonc' : 'json', version: 1, text: fs.readFileSync(file, 'utf8') },
        });
      }
      // The workspace's definitions are scanned off the path of the first diagnostics, and every open
      // document is checked again when they are in: wait for each file's diagnostics to settle on the expected ones.
      const got: Record<string, string[]> = {};
      for (const file of files(folder)) {
        const uri = pathToFileURL(file).href;
        const isIt = (n: { method: string; params: unknown }) =>
          n.method === 'textDocument/publishDiagnostics' && (n.params as Published).uri === uri;
        await client
          .waitFor<Published>((n) => isIt(n) && codes(n.params).join() === (expectedHere[key(file)] ?? []).join(), 10000)
          .catch(() => undefined);
        const last = client.notifications.filter(isIt).pop();
        got[key(file)] = last ? codes(last.params as Published) : ['(no diagnostics published)'];
      }
      assert.deepEqual(got, want(dialect));
    });
  }
});

describe("editor features on the policy-as-code framework's sets", () => {
  const folder = path.join(ROOT, 'policy-as-code');
  const file = path.join(folder, 'policySetDefinitions', 'network-guardrails.jsonc');
  const positionOf = (text: string, needle: string, delta = 0) => {
    const offset = text.indexOf(needle) + delta;
    const before = text.slice(0, offset).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };

  test('hover, go to definition and completion work on policyDefinitionName as on policyDefinitionId', async () => {
    const client = await startLanguageServer({ rootUri: pathToFileURL(folder).href });
    const uri = pathToFileURL(file).href;
    const text = fs.readFileSync(file, 'utf8');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonc', version: 1, text } });
    // Once the workspace's definitions are in, the set is checked against them (and is clean).
    await client.waitFor(
      (n) => n.method === 'window/logMessage' && /Known policy definitions: [1-9]/.test((n.params as { message: string }).message),
      10000,
    );
    const at = positionOf(text, '"deny-rdp-from-internet"', 5);

    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: at });
    assert.match(hover.result?.contents.value ?? '', /RDP access from the internet should be blocked/);

    const definition = await client.request<Array<{ uri: string }>>('textDocument/definition', { textDocument: { uri }, position: at });
    assert.equal(definition.result?.[0]?.uri, pathToFileURL(path.join(folder, 'policyDefinitions', 'deny-rdp-from-internet.jsonc')).href);

    const scratch = pathToFileURL(path.join(folder, 'policySetDefinitions', 'unsaved.jsonc')).href;
    const typed = text.replace('"policyDefinitionName": "deny-rdp-from-internet"', '"policyDefinitionName": ""');
    client.notify('textDocument/didOpen', { textDocument: { uri: scratch, languageId: 'jsonc', version: 1, text: typed } });
    const completion = await client.request<{ items: Array<{ label: string; detail?: string }> }>('textDocument/completion', {
      textDocument: { uri: scratch },
      position: positionOf(typed, '"policyDefinitionName": ""', '"policyDefinitionName": "'.length),
    });
    const item = completion.result?.items.find((i) => i.label === 'deny-rdp-from-internet');
    assert.match(item?.detail ?? '', /^custom: RDP access from the internet/);
  });
});

describe('the split layout in the language server', () => {
  test('a change to one part re-checks the others; related information points into the other file', async () => {
    const folder = path.join(ROOT, 'split-layout', 'tagging');
    const client = await startLanguageServer({ rootUri: pathToFileURL(folder).href });
    const uriOf = (part: string) => pathToFileURL(path.join(folder, `tags.${part}.json`)).href;
    type Published = { uri: string; diagnostics: Array<{ code: string; relatedInformation?: Array<{ location: { uri: string } }> }> };
    for (const part of ['definitions', 'groups']) {
      client.notify('textDocument/didOpen', {
        textDocument: {
          uri: uriOf(part),
          languageId: 'json',
          version: 1,
          text: fs.readFileSync(path.join(folder, `tags.${part}.json`), 'utf8'),
        },
      });
    }
    const isDefinitions = (n: { method: string; params: unknown }) =>
      n.method === 'textDocument/publishDiagnostics' && (n.params as Published).uri === uriOf('definitions');
    const before = await client.waitFor<Published>((n) => isDefinitions(n) && n.params.diagnostics.some((d) => d.code === 'PS5001'));
    const undeclared = before.params.diagnostics.find((d) => d.code === 'PS5001')!;
    assert.ok(
      undeclared.relatedInformation?.some((r) => r.location.uri === uriOf('groups')),
      'the declared groups are shown in the groups file',
    );

    const since = client.notifications.length;
    client.notify('textDocument/didChange', {
      textDocument: { uri: uriOf('groups'), version: 2 },
      contentChanges: [{ text: '[{ "name": "Tagging" }, { "name": "Cost" }]' }],
    });
    // The unsaved groups file is what the definitions file is now checked against.
    const after = await client.waitFor<Published>((n) => isDefinitions(n), 10000, { since });
    assert.deepEqual(
      after.params.diagnostics.map((d) => d.code),
      ['PS7001'],
    );
  });
});
