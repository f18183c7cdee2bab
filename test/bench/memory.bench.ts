// npm run bench: memory and start-up of our language server beside vscode-json-languageserver (VS Code's
// JSON language server, from npm) configured with the same schema, both over stdio, in the same run:
//   (a) RSS and V8 heap (after a full garbage collection in the server, through memoryProbe) with 1, 50
//       and every corpus document open and diagnosed, and the per-document and fixed cost they give;
//   (b) workspace start-up: from the server's start (initialize sent at once) to the diagnostics of every
//       open document, in a workspace of a few hundred files (corpus sets, and definition files made from
//       the corpus index) whose definitions our server scans; interleaved rounds, medians.
// BENCH_STARTUP_ROUNDS sets the start-up rounds (default 3, 0: none), BENCH_MEMORY=0 skips (a),
// BENCH_SETTLE_MS the wait before memory is read (default 10 s); POLICYSET_HEAPSNAPSHOT=<folder> makes each
// memory reading also write a heap snapshot of the server there. No assertions: figures and ratios.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundledSchema } from '#service';
import { LARGEST_CORPUS, listJsonFiles } from '../support/corpus';

const CORPUS_SETS = LARGEST_CORPUS.sets;
const CORPUS_INDEX = LARGEST_CORPUS.index;
import { startInitialized, type LspProcess, type Notification } from '../support/lspProcess';

const STARTUP_ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
const TIMEOUT_MS = 120000;
const JSON_SERVER_MAIN = require.resolve('vscode-json-languageserver/out/node/jsonServerMain');
const PROBE = path.join(__dirname, 'memoryProbe.js');
const NODE_ARGS = ['-r', PROBE];
/**
 * How long both servers are left alone after the last diagnostics before their memory is read: what an
 * editor holds once the burst of opening is over (ours collects its garbage 1 s and 7 s after it).
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 10000);
const CAPABILITIES = {
  textDocument: {
    synchronization: { didSave: true },
    completion: { completionItem: { snippetSupport: true } },
    publishDiagnostics: { versionSupport: true },
  },
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
};

type Name = 'ours' | 'vscode-json-languageserver';
const NAMES: Name[] = ['ours', 'vscode-json-languageserver'];

interface Memory {
  rss: number;
  rssAfterGc: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function startServer(name: Name, workspaceFolders?: string[]): Promise<LspProcess> {
  if (name === 'ours') return (await startInitialized(CAPABILITIES, { nodeArgs: NODE_ARGS, workspaceFolders })).client;
  const { client } = await startInitialized(CAPABILITIES, {
    script: JSON_SERVER_MAIN,
    args: ['--stdio'],
    name,
    nodeArgs: NODE_ARGS,
    workspaceFolders,
  });
  // The same schema for both: our bundled policy set schema, for every JSON file.
  const schema = bundledSchema('policySetDefinition') as { $id?: string };
  client.notify('workspace/didChangeConfiguration', {
    settings: { json: { schemas: [{ url: schema.$id ?? 'policyset:/bundled/policySetDefinition.json', fileMatch: ['*.json'], schema }] } },
  });
  return client;
}

/** The server's memory use after a full garbage collection (see memoryProbe). */
async function memoryOf(client: LspProcess): Promise<Memory> {
  const before = client.stderr.split('POLICYSET_MEMORY ').length;
  client.child.kill('SIGUSR2');
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const parts = client.stderr.split('POLICYSET_MEMORY ');
    if (parts.length > before && parts[parts.length - 1].includes('\n'))
      return JSON.parse(parts[parts.length - 1].slice(0, parts[parts.length - 1].indexOf('\n'))) as Memory;
    if (Date.now() > deadline) throw new Error(`${client.name} did not report its memory`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Published = Notification<{ uri: string; diagnostics: unknown[] }>;
const isDiagnostics = (n: Notification) => n.method === 'textDocument/publishDiagnostics';

/** Opens the files and resolves when each has had its diagnostics published (ms from the first open). */
async function openAll(client: LspProcess, files: string[], base: string): Promise<number> {
  const waiting = new Set(files.map((file) => `${base}${encodeURI(file.replace(/\\/g, '/'))}`));
  const since = client.notifications.length;
  const started = process.hrtime.bigint();
  const done = new Promise<bigint>((resolve, reject) => {
    const check = (n: Published) => {
      waiting.delete(n.params.uri);
      if (!waiting.size) resolve(n.at);
      return !waiting.size;
    };
    client.waitFor<{ uri: string; diagnostics: unknown[] }>((n) => isDiagnostics(n) && check(n), TIMEOUT_MS, { since }).catch(reject);
  });
  for (const file of files) {
    client.notify('textDocument/didOpen', {
      textDocument: {
        uri: `${base}${encodeURI(file.replace(/\\/g, '/'))}`,
        languageId: 'json',
        version: 1,
        text: fs.readFileSync(file, 'utf8'),
      },
    });
  }
  return Number((await done) - started) / 1e6;
}

async function memoryBench(files: string[]) {
  const stages = [1, 50, files.length].filter((n, i, all) => n <= files.length && all.indexOf(n) === i);
  console.log(
    `Memory with corpus documents open and diagnosed, ${SETTLE_MS} ms after the last diagnostics: RSS as the server holds it, then`,
  );
  console.log('RSS and V8 heap after a full garbage collection (read inside each server, see memoryProbe):');
  const readings: Record<Name, Memory[]> = { ours: [], 'vscode-json-languageserver': [] };
  const openTimes: Record<Name, number[]> = { ours: [], 'vscode-json-languageserver': [] };
  const clients = await Promise.all(NAMES.map((name) => startServer(name)));
  try {
    const empty = await Promise.all(clients.map(memoryOf));
    let opened = 0;
    for (const stage of stages) {
      const batch = files.slice(opened, stage);
      opened = stage;
      // One server at a time, the other idle.
      for (const [i, name] of NAMES.entries()) openTimes[name].push(await openAll(clients[i], batch, `file:///bench/${i}`));
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      for (const [i, name] of NAMES.entries()) readings[name].push(await memoryOf(clients[i]));
    }
    const row = (label: string, name: string, m: Memory, time = '') =>
      console.log(
        `  ${label.padEnd(16)} ${name.padEnd(28)} ${mib(m.rss).padStart(11)} ${mib(m.rssAfterGc).padStart(11)} ${mib(m.heapUsed).padStart(11)} ${mib(m.external).padStart(11)}  ${time}`,
      );
    console.log(
      `  ${'documents open'.padEnd(16)} ${'server'.padEnd(28)} ${'RSS'.padStart(11)} ${'RSS, GC'.padStart(11)} ${'heap, GC'.padStart(11)} ${'external'.padStart(11)}  open → all diagnosed`,
    );
    for (const [i, name] of NAMES.entries()) row('0', name, empty[i]);
    for (const [s, stage] of stages.entries()) {
      for (const name of NAMES) row(String(stage), name, readings[name][s], `${openTimes[name][s].toFixed(0)} ms`);
      const [ours, theirs] = NAMES.map((name) => readings[name][s]);
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`.padStart(11);
      console.log(
        `  ${''.padEnd(16)} ${'ours / theirs'.padEnd(28)} ${ratio(ours.rss, theirs.rss)} ${ratio(ours.rssAfterGc, theirs.rssAfterGc)} ${ratio(ours.heapUsed, theirs.heapUsed)}`,
      );
    }
    const last = stages.length - 1;
    const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    console.log(
      `  Per document (heap used, ${stages[1] ?? 1}→${stages[last]} open; the documents average ${kib(bytes / files.length)} of text):`,
    );
    for (const [i, name] of NAMES.entries()) {
      const r = readings[name];
      const from = last > 0 ? 1 : 0;
      const textFrom = files.slice(0, stages[from]).reduce((sum, f) => sum + fs.statSync(f).size, 0);
      const perByte = (r[last].heapUsed - r[from].heapUsed) / (bytes - textFrom || 1);
      console.log(
        `    ${name.padEnd(28)} ${perByte.toFixed(2)} bytes of heap per byte of text; fixed (0 documents): heap ${mib(empty[i].heapUsed)}, RSS ${mib(empty[i].rss)}`,
      );
    }
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
}

/** A workspace like a repository: corpus sets and definition files (from the corpus index) for what they reference. */
function makeWorkspace(): { folder: string; open: string[]; files: number } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-workspace-'));
  const sets = listJsonFiles(CORPUS_SETS)
    .filter((f) => !f.includes('Azure_Government') && fs.statSync(f).size < 60000)
    .slice(0, 80);
  const index = JSON.parse(fs.readFileSync(CORPUS_INDEX, 'utf8')) as Array<{
    id: string;
    name: string;
    cloud?: string;
    displayName?: string;
    version?: string;
    parameters?: object;
  }>;
  const byId = new Map(index.filter((e) => e.cloud !== 'AzureUSGovernment').map((e) => [e.id.toLowerCase(), e]));
  const referenced = new Set<string>();
  fs.mkdirSync(path.join(folder, 'policySetDefinitions'));
  fs.mkdirSync(path.join(folder, 'policyDefinitions'));
  for (const set of sets) {
    const text = fs.readFileSync(set, 'utf8');
    fs.writeFileSync(path.join(folder, 'policySetDefinitions', path.basename(set)), text);
    for (const match of text.matchAll(/"policyDefinitionId"\s*:\s*"([^"]+)"/g)) referenced.add(match[1].toLowerCase());
  }
  let definitions = 0;
  for (const id of referenced) {
    const entry = byId.get(id);
    if (!entry || definitions >= 220) continue;
    const document = {
      name: entry.name,
      properties: {
        displayName: entry.displayName,
        policyType: 'Custom',
        mode: 'All',
        version: entry.version,
        parameters: entry.parameters ?? {},
        policyRule: { if: { field: 'type', equals: 'x' }, then: { effect: 'audit' } },
      },
    };
    fs.writeFileSync(path.join(folder, 'policyDefinitions', `${entry.name}.json`), JSON.stringify(document, null, 2));
    definitions++;
  }
  const open = sets.slice(0, 20).map((s) => path.join(folder, 'policySetDefinitions', path.basename(s)));
  return { folder, open, files: sets.length + definitions };
}

/**
 * From the server's start to the diagnostics of every open document (`first`) and, for ours, to the
 * diagnostics of every open document made with the workspace's definitions known (`complete`: each
 * published after the server logged what it read).
 */
async function startUp(name: Name, folder: string, open: string[]): Promise<{ first: number; complete: number }> {
  const started = process.hrtime.bigint();
  const client = await startServer(name, [pathToFileURL(folder).href]);
  try {
    const first = new Set(open.map((f) => pathToFileURL(f).href));
    const complete = new Set(first);
    let scanned = name !== 'ours';
    let firstAt = 0n;
    const done = client.waitFor<{ uri: string; message: string }>((n) => {
      if (n.method === 'window/logMessage' && /Known policy definitions/.test(n.params.message)) scanned = true;
      if (!isDiagnostics(n)) return false;
      first.delete(n.params.uri);
      if (!first.size && !firstAt) firstAt = n.at;
      if (scanned) complete.delete(n.params.uri);
      return !complete.size;
    }, TIMEOUT_MS);
    for (const file of open)
      client.notify('textDocument/didOpen', {
        textDocument: { uri: pathToFileURL(file).href, languageId: 'json', version: 1, text: fs.readFileSync(file, 'utf8') },
      });
    const last = await done;
    return { first: Number(firstAt - started) / 1e6, complete: Number(last.at - started) / 1e6 };
  } finally {
    await client.stop();
  }
}

async function startUpBench() {
  const { folder, open, files } = makeWorkspace();
  try {
    console.log(
      `\nWorkspace start-up: ${files} files (sets and definitions), ${open.length} sets open; from the server's start to the diagnostics of every open document, median of ${STARTUP_ROUNDS} interleaved rounds:`,
    );
    const times: Record<Name, Array<{ first: number; complete: number }>> = { ours: [], 'vscode-json-languageserver': [] };
    for (let round = 0; round < STARTUP_ROUNDS; round++) {
      for (const name of round % 2 ? [...NAMES].reverse() : NAMES) times[name].push(await startUp(name, folder, open));
    }
    const line = (label: string, values: number[]) =>
      console.log(
        `  ${label.padEnd(58)} ${`${median(values).toFixed(0)} ms`.padStart(9)}   (${values.map((t) => t.toFixed(0)).join(', ')})`,
      );
    const theirs = times['vscode-json-languageserver'].map((t) => t.first);
    line('vscode-json-languageserver', theirs);
    line(
      'ours, first diagnostics of every open document',
      times.ours.map((t) => t.first),
    );
    line(
      'ours, with the workspace definitions read',
      times.ours.map((t) => t.complete),
    );
    const ratio = (ours: number[]) => `${(median(ours) / median(theirs)).toFixed(2)}x`.padStart(9);
    console.log(
      `  ${'ours / theirs: first diagnostics; with the definitions read'.padEnd(58)} ${ratio(times.ours.map((t) => t.first))} ${ratio(times.ours.map((t) => t.complete))}`,
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  // The full corpus when it is there, else the subset in the repository.
  const files = listJsonFiles(CORPUS_SETS);
  if (LARGEST_CORPUS.label === 'subset')
    console.log('The full corpus is not here (../shared/corpus or POLICYSET_CORPUS): measuring the corpus subset (test/fixtures/corpus).');
  if (process.env.BENCH_MEMORY !== '0') await memoryBench(files);
  if (STARTUP_ROUNDS > 0) await startUpBench();
}

void main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});
