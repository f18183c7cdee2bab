// Workspace diagnostics through the real language server over stdio: the workspace/diagnostic pull (full
// reports, unchanged reports for previousResultIds, partial results and work-done progress), pushing them
// with policySet.validate.workspace, the same findings as `policyset lint <folder>` (the CLI is the oracle),
// and a change on disk re-checking only the files that depend on it (policySet/workspaceStats counts).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startInitialized, type LspProcess } from '../support/lspProcess';
import { runCli } from '../support/run';
import { REPO_ROOT, SUBSET_DIR, listJsonFiles } from '../support/corpus';
import { cleanSet } from '../support/sets';

interface Diag {
  code: string;
  severity: number;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
interface Report {
  kind: 'full' | 'unchanged';
  uri: string;
  resultId?: string;
  version: number | null;
  items?: Diag[];
}
interface Stats {
  enabled: boolean;
  loaded: boolean;
  files: number;
  checked: number;
  batches: number;
  lastBatch: number;
  pending: number;
}

const PULL = {
  textDocument: { diagnostic: { dynamicRegistration: false } },
  workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
};
const SEVERITY: Record<string, number> = { error: 1, warning: 2, info: 3, hint: 4 };

const temps: string[] = [];
after(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

async function start(folder: string, capabilities: object = PULL, initializationOptions?: unknown): Promise<LspProcess> {
  const { client } = await startInitialized(capabilities, { workspaceFolders: [pathToFileURL(folder).href], initializationOptions });
  after(() => client.stop());
  return client;
}

async function pull(client: LspProcess, previousResultIds: Array<{ uri: string; value: string }> = []): Promise<Report[]> {
  const answer = await client.request<{ items: Report[] }>('workspace/diagnostic', { previousResultIds }, 60000);
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  return answer.result!.items;
}

async function stats(client: LspProcess): Promise<Stats> {
  return (await client.request<Stats>('policySet/workspaceStats', null, 10000)).result!;
}

/** The CLI's findings for a folder, run in it as a user would (its .policysetrc.json applies): absolute path -> diagnostics. */
async function cliFindings(folder: string): Promise<Map<string, Diag[]>> {
  const run = await runCli(['lint', '.', '--format', 'json', '--no-error-on-unmatched-pattern'], { cwd: folder });
  assert.ok(run.code === 0 || run.code === 1, `lint exited ${run.code}: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as {
    files: Array<{ file: string; diagnostics: Array<{ code: string; severity: string; message: string; range: Diag['range'] }> }>;
  };
  return new Map(
    report.files.map((f) => [
      path.resolve(folder, f.file),
      f.diagnostics.map((d) => ({ code: d.code, severity: SEVERITY[d.severity], message: d.message, range: d.range })),
    ]),
  );
}

const key = (d: Diag) =>
  JSON.stringify([d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, d.severity, d.message]);
const keys = (list: Diag[]) => list.map(key).sort();

/** Every file the CLI reports has the same diagnostics in the server's reports, and the server reports nothing the CLI does not. */
function assertSameFindings(reports: Report[], cli: Map<string, Diag[]>) {
  const server = new Map(reports.map((r) => [fileURLToPath(r.uri), r.items ?? []]));
  for (const [file, diagnostics] of cli) {
    assert.ok(server.has(file), `the server has no report of ${file}`);
    assert.deepEqual(keys(server.get(file)!), keys(diagnostics), `diagnostics of ${file}`);
  }
  for (const [file, diagnostics] of server)
    if (diagnostics.length) assert.ok(cli.has(file), `the server reports ${file}, the CLI does not`);
}

/** A workspace with a config file: a rule raised, a folder ignored, a minimum severity, the built-in definitions' index. */
function configuredWorkspace(): string {
  const dir = tempDir('policyset-wsd-config-');
  fs.cpSync(path.join(REPO_ROOT, 'examples'), dir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'vendor'));
  fs.writeFileSync(path.join(dir, 'vendor', 'broken.json'), '{ "properties": { "policyDefinitions": [ }');
  const index = path.join(REPO_ROOT, 'test', 'fixtures', 'corpus', 'builtin-policy-definitions-index.json');
  fs.writeFileSync(
    path.join(dir, '.policysetrc.json'),
    JSON.stringify({ rules: { 'unused-parameter': 'error' }, ignore: ['vendor/'], minSeverity: 'warning', definitions: [index] }),
  );
  return dir;
}

describe('workspace/diagnostic: the same findings as policyset lint <folder>', () => {
  const folders = [
    path.join(REPO_ROOT, 'test', 'fixtures', 'repositories'),
    path.join(REPO_ROOT, 'test', 'fixtures', 'dialects'),
    path.join(REPO_ROOT, 'examples'),
  ];
  for (const folder of folders) {
    test(path.relative(REPO_ROOT, folder), async () => {
      const [client, cli] = await Promise.all([start(folder), cliFindings(folder)]);
      assert.ok(cli.size > 0);
      const reports = await pull(client);
      assert.ok(reports.every((r) => r.kind === 'full' && r.version === null && typeof r.resultId === 'string'));
      assertSameFindings(reports, cli);
    });
  }

  test('a folder with a .policysetrc.json: its rules, minSeverity and ignore patterns', async () => {
    const dir = configuredWorkspace();
    const [client, cli] = await Promise.all([start(dir), cliFindings(dir)]);
    const reports = await pull(client);
    assertSameFindings(reports, cli);
    assert.ok(!reports.some((r) => r.uri.includes('/vendor/')), 'an ignored file is not reported');
    assert.ok(
      [...cli.values()].flat().some((d) => d.code === 'PS7003' && d.severity === 1),
      'the config turned unused-parameter into an error',
    );
  });
});

describe('workspace/diagnostic: the files the CLI checks with others, as policyset lint <folder> checks them', () => {
  /**
   * The consumer documents (test/fixtures/consumer-documents): the framework's assignment naming a CSV parameter
   * file (here with a duplicate column and a row naming no member), an enrollment and an exemption resource
   * naming an assignment with a wrong reference ID, the library's default values naming an unknown assignment.
   */
  function consumerWorkspace(): string {
    const dir = tempDir('policyset-wsd-consumers-');
    fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'consumer-documents'), dir, { recursive: true });
    const csv = path.join(dir, 'policyAssignments', 'tagging-parameters.csv');
    // A second displayName column (PS9210); the row of 96670d01 names no member of tagging-set (PS9211).
    const [header, ...rows] = fs.readFileSync(csv, 'utf8').trimEnd().split(/\r?\n/);
    fs.writeFileSync(csv, [`${header},displayName`, ...rows.map((row) => `${row},x`)].join('\n') + '\n');
    fs.mkdirSync(path.join(dir, 'exemptions'));
    fs.writeFileSync(
      path.join(dir, 'exemptions', 'waiver.json'),
      JSON.stringify(
        {
          type: 'Microsoft.Authorization/policyExemptions',
          apiVersion: '2022-07-01-preview',
          name: 'waiver',
          properties: {
            exemptionCategory: 'Waiver',
            policyAssignmentId:
              '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyAssignments/Enforce-Tagging',
            policyDefinitionReferenceIds: ['requireTag', 'requireTags'],
          },
        },
        null,
        2,
      ),
    );
    return dir;
  }

  async function settled(client: LspProcess, before: Stats): Promise<void> {
    let now = await stats(client);
    for (const deadline = Date.now() + 60_000; now.checked === before.checked || now.pending > 0; now = await stats(client)) {
      assert.ok(Date.now() < deadline, `the change was not checked: ${JSON.stringify(now)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test("the CSV parameter file, the exemption and enrollment, the library's default values: the CLI's diagnostics, kept current", async () => {
    const dir = consumerWorkspace();
    const [client, cli] = await Promise.all([start(dir), cliFindings(dir)]);
    const codes = (file: string) => (cli.get(path.join(dir, file)) ?? []).map((d) => d.code).sort();
    // The oracle holds each planted problem.
    assert.ok(
      codes('policyAssignments/tagging-parameters.csv').includes('PS9210'),
      JSON.stringify(codes('policyAssignments/tagging-parameters.csv')),
    );
    assert.ok(codes('policyAssignments/tagging-parameters.csv').includes('PS9211'));
    assert.deepEqual(codes('exemptions/waiver.json'), ['PS9205']);
    assert.deepEqual(codes('policyEnrollments/tenant/team.jsonc'), ['PS9205']);
    assert.ok(codes('library/alz_policy_default_values.json').includes('PS9216'));
    const first = await pull(client);
    assertSameFindings(first, cli);
    const csv = path.join(dir, 'policyAssignments', 'tagging-parameters.csv');
    const csvUri = pathToFileURL(csv).href;
    assert.ok(!first.some((r) => r.uri.endsWith('/other.csv') && r.items?.length), 'a CSV file nothing names says nothing');

    // The CSV file fixed on disk: its diagnostics change, as the CLI's do.
    let before = await stats(client);
    fs.writeFileSync(
      csv,
      'name,referencePath,displayName,prodEffect,prodParameters\n871b6d14-10aa-478d-b590-94f262ecfa99,,Require a tag,Deny,\ncd3aa116-8754-49c9-a813-ad46512ece54,,Inherit a tag,Audit,\n',
    );
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: csvUri, type: 2 }] });
    await settled(client, before);
    const second = await pull(client);
    const csvCodes = (reports: Report[]) => (reports.find((r) => r.uri === csvUri)?.items ?? []).map((d) => d.code).sort();
    assert.notDeepEqual(csvCodes(second), csvCodes(first));
    assert.ok(!csvCodes(second).includes('PS9210') && !csvCodes(second).includes('PS9211'), JSON.stringify(csvCodes(second)));
    assertSameFindings(second, await cliFindings(dir));

    // The assignment file no longer names it: the CSV file is not checked, and what was said of it is cleared.
    before = await stats(client);
    const tree = path.join(dir, 'policyAssignments', 'tagging.jsonc');
    fs.writeFileSync(tree, fs.readFileSync(tree, 'utf8').replace('"parameterFile": "tagging-parameters.csv",', ''));
    fs.writeFileSync(csv, fs.readFileSync(csv, 'utf8') + '00000000-0000-0000-0000-000000000000,,Not a member,Audit,\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(tree).href, type: 2 }] });
    await settled(client, before);
    const third = await pull(client);
    assert.deepEqual(csvCodes(third), []);
    const cliNow = await cliFindings(dir);
    assert.ok(!cliNow.has(csv));
    assertSameFindings(third, cliNow);

    // The assignment an exemption names renamed: the exemption and the enrollment say so, as the CLI does.
    before = await stats(client);
    const library = path.join(dir, 'library', 'policy_assignments', 'Enforce-Tagging.alz_policy_assignment.json');
    fs.writeFileSync(library, fs.readFileSync(library, 'utf8').replace('"name": "Enforce-Tagging"', '"name": "Enforce-Tagging-2"'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(library).href, type: 2 }] });
    await settled(client, before);
    const fourth = await pull(client);
    const waiverUri = pathToFileURL(path.join(dir, 'exemptions', 'waiver.json')).href;
    const waiverCodes = (reports: Report[]) => (reports.find((r) => r.uri === waiverUri)?.items ?? []).map((d) => d.code);
    assert.deepEqual(waiverCodes(first), ['PS9205']);
    assert.deepEqual(waiverCodes(fourth), [], 'the exemption names an assignment no file holds now');
    assertSameFindings(fourth, await cliFindings(dir));
  });
});

describe('workspace/diagnostic: result ids, partial results, progress', () => {
  test('previousResultIds: the reports the client holds are unchanged, others full', async () => {
    const folder = path.join(REPO_ROOT, 'examples');
    const client = await start(folder);
    const first = await pull(client);
    const withProblems = first.find((r) => r.items?.length)!;
    const held = first.map((r) => ({ uri: r.uri, value: r.uri === withProblems.uri ? 'stale' : r.resultId! }));
    const second = await pull(client, held);
    assert.equal(second.length, first.length);
    for (const report of second) {
      if (report.uri === withProblems.uri) {
        assert.equal(report.kind, 'full');
        assert.deepEqual(keys(report.items!), keys(withProblems.items!));
      } else assert.equal(report.kind, 'unchanged', report.uri);
    }
    // Nothing was checked again to answer.
    const counted = await stats(client);
    assert.equal(counted.checked, first.length);
    // A file the client holds that is gone is cleared.
    const gone = pathToFileURL(path.join(folder, 'no-such-file.json')).href;
    const third = await pull(client, [...held, { uri: gone, value: 'x' }]);
    assert.deepEqual(
      third.find((r) => r.uri === gone),
      { kind: 'full', uri: gone, version: null, resultId: 'none', items: [] },
    );
  });

  test('partial results and work-done progress: the files stream in $/progress, the request is held open until cancelled', async () => {
    const folder = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects');
    const [client, cli] = await Promise.all([start(folder), cliFindings(folder)]);
    const streamed: Report[] = [];
    const work: Array<{ kind: string; message?: string }> = [];
    const done = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        for (const n of client.notifications.splice(0)) {
          if (n.method !== '$/progress') continue;
          const p = n.params as { token: string; value: { items?: Report[]; kind?: string; message?: string } };
          if (p.token === 'partial') streamed.push(...p.value.items!);
          if (p.token === 'work') work.push({ kind: p.value.kind!, message: p.value.message });
        }
        if (work.some((w) => w.kind === 'end')) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    client.send({
      jsonrpc: '2.0',
      id: 'held',
      method: 'workspace/diagnostic',
      params: { previousResultIds: [], partialResultToken: 'partial', workDoneToken: 'work' },
    });
    await done;
    await new Promise((r) => setTimeout(r, 200));
    for (const n of client.notifications.splice(0))
      if (n.method === '$/progress' && (n.params as { token: string }).token === 'partial')
        streamed.push(...(n.params as { value: { items: Report[] } }).value.items);
    assertSameFindings(streamed, cli);
    assert.equal(work[0].kind, 'begin');
    assert.ok(
      work.some((w) => w.kind === 'report' && /^Checking \d+ of \d+ files$/.test(w.message ?? '')),
      JSON.stringify(work),
    );
    // Held open for what changes next; cancelled, it answers RequestCancelled.
    const answered = new Promise<{ error?: { code: number } }>((resolve) => {
      const poll = setInterval(() => {
        const response = client.responses.find((r) => r.id === 'held');
        if (response) {
          clearInterval(poll);
          resolve(response as { error?: { code: number } });
        }
      }, 20);
    });
    client.notify('$/cancelRequest', { id: 'held' });
    assert.equal((await answered).error?.code, -32800);
  });
});

describe('the workspace check gives way to the editor', () => {
  test('an open document is answered while the workspace is being checked', async () => {
    const dir = tempDir('policyset-wsd-busy-');
    const sets = listJsonFiles(path.join(SUBSET_DIR, 'builtin-policy-sets'));
    for (let copy = 0; copy < 12; copy++) {
      for (const file of sets) fs.copyFileSync(file, path.join(dir, `${copy}-${path.basename(file)}`));
    }
    const client = await start(dir);
    const text = JSON.stringify(cleanSet('open-set', 'Open set'), null, 2);
    const uri = pathToFileURL(path.join(dir, 'open-set.json')).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    const whole = pull(client);
    // Requests are answered between files: a hover on the open document while files are still waiting.
    let answeredMidway = false;
    for (let i = 0; i < 400 && !answeredMidway; i++) {
      const hover = await client.request<{ contents: unknown } | null>(
        'textDocument/hover',
        { textDocument: { uri }, position: { line: 1, character: 5 } },
        10000,
      );
      assert.equal(hover.error, undefined);
      const s = await stats(client);
      answeredMidway = s.loaded && s.checked > 0 && s.pending > 0;
    }
    assert.ok(answeredMidway, 'a request was answered while the workspace check had files left');
    const reports = await whole;
    assert.equal(reports.length, sets.length * 12, 'every file but the open document');
    assert.ok(!reports.some((r) => r.uri === uri), 'the open document is left to the document diagnostics');
  });
});

describe('policySet.validate.workspace: pushed diagnostics for clients that do not pull', () => {
  test('on: every file of the folder is pushed, as the CLI finds it', async () => {
    const folder = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects');
    const [client, cli] = await Promise.all([start(folder, {}, { policySet: { validate: { workspace: true } } }), cliFindings(folder)]);
    for (let i = 0; i < 300; i++) {
      const s = await stats(client);
      if (s.loaded && s.pending === 0 && s.checked > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 200));
    const pushed = new Map<string, Diag[]>();
    for (const n of client.notifications)
      if (n.method === 'textDocument/publishDiagnostics')
        pushed.set((n.params as { uri: string }).uri, (n.params as { diagnostics: Diag[] }).diagnostics);
    assertSameFindings(
      [...pushed].map(([uri, items]) => ({ kind: 'full', uri, version: null, items })),
      new Map([...cli].filter(([, d]) => d.length)),
    );
    for (const [file, diagnostics] of cli) if (diagnostics.length) assert.ok(pushed.has(pathToFileURL(file).href), `${file} pushed`);
  });

  test('a document opened and closed: the open document is pushed as before, then the file as on disk again', async () => {
    const dir = tempDir('policyset-wsd-push-');
    const set = cleanSet('with-unused', 'With unused') as { properties: { parameters: Record<string, unknown> } };
    set.properties.parameters.unused = { type: 'String' };
    const file = path.join(dir, 'set.json');
    fs.writeFileSync(file, JSON.stringify(set, null, 2));
    const uri = pathToFileURL(file).href;
    const client = await start(dir, {}, { policySet: { validate: { workspace: true } } });
    const isFor = (n: { method: string; params: unknown }) =>
      n.method === 'textDocument/publishDiagnostics' && (n.params as { uri: string }).uri === uri;
    const fromDisk = await client.waitFor<{ diagnostics: Diag[]; version?: number }>(isFor, 20000);
    assert.deepEqual(
      fromDisk.params.diagnostics.map((d) => d.code),
      ['PS7003'],
    );
    assert.equal(fromDisk.params.version, undefined);
    // Opened with the mistake fixed: the open document's diagnostics (with its version).
    client.clearNotifications();
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'json', version: 1, text: JSON.stringify(cleanSet('with-unused', 'With unused'), null, 2) },
    });
    const opened = await client.waitFor<{ diagnostics: Diag[]; version?: number }>(isFor, 20000);
    assert.deepEqual({ version: opened.params.version, codes: opened.params.diagnostics.map((d) => d.code) }, { version: 1, codes: [] });
    // Closed without saving: cleared, then the file's own diagnostics again.
    client.clearNotifications();
    client.notify('textDocument/didClose', { textDocument: { uri } });
    await client.waitFor<{ diagnostics: Diag[] }>((n) => isFor(n) && (n.params as { diagnostics: Diag[] }).diagnostics.length > 0, 20000);
    const last = client.notifications.filter(isFor).at(-1)!.params as { diagnostics: Diag[] };
    assert.deepEqual(
      last.diagnostics.map((d) => d.code),
      ['PS7003'],
    );
  });

  test('off (the default when pushing): nothing is checked or pushed beyond the open documents', async () => {
    const folder = path.join(REPO_ROOT, 'test', 'fixtures', 'dialects');
    const client = await start(folder, {});
    await new Promise((r) => setTimeout(r, 1000));
    const s = await stats(client);
    assert.deepEqual({ enabled: s.enabled, loaded: s.loaded, checked: s.checked }, { enabled: false, loaded: false, checked: 0 });
    assert.equal(client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics').length, 0);
  });
});

describe('live: a change re-checks the changed file and the files that depend on it', () => {
  /** A definition with an allowed-values parameter, two sets that reference it, one that does not, and a split set. */
  function liveWorkspace(unrelated = 20): string {
    const dir = tempDir('policyset-wsd-live-');
    const definition = (allowed: string[]) =>
      JSON.stringify(
        {
          name: 'require-owner',
          properties: {
            displayName: 'Require owner',
            policyType: 'Custom',
            mode: 'Indexed',
            parameters: { effect: { type: 'String', allowedValues: allowed } },
            policyRule: { if: { field: 'tags.owner', exists: 'false' }, then: { effect: "[parameters('effect')]" } },
          },
        },
        null,
        2,
      );
    fs.mkdirSync(path.join(dir, 'policyDefinitions'));
    fs.writeFileSync(path.join(dir, 'policyDefinitions', 'require-owner.json'), definition(['Audit', 'Deny']));
    fs.mkdirSync(path.join(dir, 'policySetDefinitions'));
    const consumer = (name: string) => ({
      name,
      properties: {
        displayName: name,
        policyType: 'Custom',
        policyDefinitions: [
          {
            policyDefinitionReferenceId: 'owner',
            policyDefinitionId:
              '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/require-owner',
            parameters: { effect: { value: 'Deny' } },
          },
        ],
      },
    });
    fs.writeFileSync(path.join(dir, 'policySetDefinitions', 'consumer-a.json'), JSON.stringify(consumer('consumer-a'), null, 2));
    fs.writeFileSync(path.join(dir, 'policySetDefinitions', 'consumer-b.json'), JSON.stringify(consumer('consumer-b'), null, 2));
    for (let i = 0; i < unrelated; i++)
      fs.writeFileSync(
        path.join(dir, 'policySetDefinitions', `unrelated-${i}.json`),
        JSON.stringify(cleanSet(`unrelated-${i}`, `Unrelated ${i}`), null, 2),
      );
    return dir;
  }

  test('a definition changed on disk: itself and its two consumers are checked again, nothing else; the consumers report the new problem', async () => {
    const dir = liveWorkspace();
    const client = await start(dir);
    const first = await pull(client);
    const consumerA = pathToFileURL(path.join(dir, 'policySetDefinitions', 'consumer-a.json')).href;
    assert.deepEqual(first.find((r) => r.uri === consumerA)?.items, []);
    const before = await stats(client);
    assert.equal(before.checked, 23);
    // Deny is no longer allowed: both consumers pass a value the definition does not allow.
    const definitionFile = path.join(dir, 'policyDefinitions', 'require-owner.json');
    fs.writeFileSync(definitionFile, fs.readFileSync(definitionFile, 'utf8').replace('"Deny"', '"Disabled"'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(definitionFile).href, type: 2 }] });
    await new Promise((r) => setTimeout(r, 400));
    const second = await pull(
      client,
      first.map((r) => ({ uri: r.uri, value: r.resultId! })),
    );
    const after = await stats(client);
    assert.equal(after.checked - before.checked, 3, 'the definition and its two consumers, not the 20 others');
    const changed = second
      .filter((r) => r.kind === 'full')
      .map((r) => path.basename(fileURLToPath(r.uri)))
      .sort();
    assert.deepEqual(changed, ['consumer-a.json', 'consumer-b.json']);
    assert.ok(second.find((r) => r.uri === consumerA)!.items!.some((d) => d.code === 'PS8004'));
    // And what the CLI says of the folder now.
    assertSameFindings(
      second.map((r) => (r.kind === 'full' ? r : { ...r, items: first.find((f) => f.uri === r.uri)!.items })),
      await cliFindings(dir),
    );
  });

  test('a burst of 1,000 changed files (a branch switch) is one batch; a file saved with the same bytes is not checked again', async () => {
    const dir = liveWorkspace(1000);
    const client = await start(dir);
    await pull(client);
    const before = await stats(client);
    const files = fs.readdirSync(path.join(dir, 'policySetDefinitions')).map((f) => path.join(dir, 'policySetDefinitions', f));
    // Every unrelated set rewritten (a new display name), the consumers touched with the same bytes.
    const changes = files.map((file) => {
      if (file.includes('unrelated')) fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"Unrelated', '"Still unrelated'));
      else fs.writeFileSync(file, fs.readFileSync(file));
      return { uri: pathToFileURL(file).href, type: 2 };
    });
    // As an editor's file watcher reports a branch switch: the events of one burst in one notification.
    client.notify('workspace/didChangeWatchedFiles', { changes });
    // Waited for by the server's own count, not a clock: a loaded machine only makes it later.
    let after = await stats(client);
    for (const deadline = Date.now() + 120_000; after.checked - before.checked < 1000 || after.pending > 0; after = await stats(client)) {
      assert.ok(Date.now() < deadline, `the burst was not checked: ${JSON.stringify(after)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await pull(client);
    after = await stats(client);
    assert.equal(
      after.checked - before.checked,
      1000,
      'the rewritten sets, and not the files saved with the same bytes, checked once each',
    );
    assert.equal(after.batches - before.batches, 1);
  });

  test('a set changed on disk: the assignment that passes its renamed parameter is checked again and says so, nothing else', async () => {
    const dir = tempDir('policyset-wsd-consumer-');
    fs.mkdirSync(path.join(dir, 'sets'));
    fs.mkdirSync(path.join(dir, 'assignments'));
    const setFile = path.join(dir, 'sets', 'assigned.json');
    fs.writeFileSync(setFile, JSON.stringify(cleanSet('assigned-set', 'Assigned'), null, 2));
    for (let i = 0; i < 5; i++)
      fs.writeFileSync(path.join(dir, 'sets', `other-${i}.json`), JSON.stringify(cleanSet(`other-${i}`, `Other ${i}`), null, 2));
    const assignmentFile = path.join(dir, 'assignments', 'assign.json');
    const assignment = {
      type: 'Microsoft.Authorization/policyAssignments',
      apiVersion: '2022-06-01',
      name: 'assign',
      properties: {
        policyDefinitionId:
          '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policySetDefinitions/assigned-set',
        parameters: { effect: { value: 'Audit' } },
      },
    };
    fs.writeFileSync(assignmentFile, JSON.stringify(assignment, null, 2));
    const client = await start(dir);
    const first = await pull(client);
    const assignmentUri = pathToFileURL(assignmentFile).href;
    assert.deepEqual(first.find((r) => r.uri === assignmentUri)?.items, []);
    const before = await stats(client);
    // The set's parameter renamed: the assignment now passes a parameter the set does not declare.
    fs.writeFileSync(
      setFile,
      fs
        .readFileSync(setFile, 'utf8')
        .replace(/"effect"/g, '"setEffect"')
        .replace("parameters('effect')", "parameters('setEffect')"),
    );
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(setFile).href, type: 2 }] });
    let after = await stats(client);
    for (const deadline = Date.now() + 60_000; after.checked === before.checked || after.pending > 0; after = await stats(client)) {
      assert.ok(Date.now() < deadline, `the change was not checked: ${JSON.stringify(after)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const second = await pull(client);
    const codes = (second.find((r) => r.uri === assignmentUri)?.items ?? []).map((d) => d.code);
    assert.deepEqual(codes, ['PS9201']);
    assert.equal(after.checked - before.checked, 2, 'the set and its assignment, not the other sets');
  });

  test('a set whose groups others import, changed on disk: the importers are checked again, and say what the CLI says', async () => {
    const dir = tempDir('policyset-wsd-import-');
    fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'dialects', 'policy-as-code'), dir, { recursive: true });
    const client = await start(dir);
    const first = await pull(client);
    const before = await stats(client);
    const imported = path.join(dir, 'builtInSets', 'network-benchmark.json');
    const name = '6f1b3a52-0c5e-4bd1-9a43-2f0e8c7d9b11';
    // The files that name the set (its importers), found by their text: the oracle of who depends on it.
    const importers = first.map((r) => fileURLToPath(r.uri)).filter((f) => f !== imported && fs.readFileSync(f, 'utf8').includes(name));
    assert.ok(importers.length >= 1 && importers.length < first.length - 1);
    // Group NS-2 is no longer there to import.
    const set = JSON.parse(fs.readFileSync(imported, 'utf8')) as { properties: { policyDefinitionGroups: Array<{ name: string }> } };
    set.properties.policyDefinitionGroups = set.properties.policyDefinitionGroups.filter((g) => g.name !== 'NS-2');
    fs.writeFileSync(imported, JSON.stringify(set, null, 2));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(imported).href, type: 2 }] });
    await new Promise((r) => setTimeout(r, 400));
    const second = await pull(client);
    const after = await stats(client);
    assert.equal(after.checked - before.checked, 1 + importers.length, 'the set and its importers only');
    const guardrails = second.find((r) => r.uri.endsWith('/network-guardrails.jsonc'))!;
    assert.ok(
      guardrails.items!.some((d) => d.code === 'PS5001' && d.message.includes('NS-2')),
      JSON.stringify(guardrails.items),
    );
    assertSameFindings(second, await cliFindings(dir));
  });

  test('a changed .policysetrc.json checks every file it governs again', async () => {
    const dir = liveWorkspace();
    const client = await start(dir);
    await pull(client);
    const before = await stats(client);
    fs.writeFileSync(path.join(dir, '.policysetrc.json'), JSON.stringify({ rules: { 'unused-parameter': 'off' } }));
    client.notify('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(path.join(dir, '.policysetrc.json')).href, type: 1 }],
    });
    await new Promise((r) => setTimeout(r, 400));
    await pull(client);
    const after = await stats(client);
    // The config file itself is a .json file of the folder, as for the CLI.
    assert.equal(after.checked - before.checked, 24);
  });
});
