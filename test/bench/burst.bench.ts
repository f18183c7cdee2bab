// npm run bench: a whole repository's documents arriving at once (an editor restoring a session, a client
// that opens every file of a workspace), our server beside vscode-json-languageserver (VS Code's JSON
// language server, from npm) configured with the same schema, both over stdio, in the same run:
//   - from the first didOpen to: the last didOpen handed to the pipe (the server has read the burst but the
//     pipe's last 64 KB), the first and the last document's diagnostics; the server's CPU time (user +
//     system, /proc/<pid>/stat) meanwhile, which a loaded machine changes much less than the wall time;
//   - the server's resident memory when the last diagnostics arrive (read from /proc/<pid>/status by the
//     bench as the notification is parsed, so the server is not interrupted) and its peak so far (VmHWM);
//   - its resident memory once it has been left alone for BENCH_SETTLE_MS (10 s; read by memoryProbe).
// Scenarios: (a) the 257 corpus sets opened at once; (b) a repository-sized workspace: the corpus sets and
// a definition file for every built-in definition they reference, all opened at once, with the folder given
// as the workspace (ours also scans it for definitions); (c) pull: our server asked for every corpus set's
// diagnostics right after the opens (vscode-json-languageserver 1.3.4 cannot pull: beside its push figures).
// Each round starts both servers afresh; interleaved rounds (who goes first alternates, the other is idle),
// medians. BENCH_BURST_ROUNDS (default 3), BENCH_SETTLE_MS (default 10000, 0: no quiet reading),
// BENCH_BURST_SCENARIOS (e.g. "corpus,pull"), BENCH_CPU_PROF=<folder>: our server writes a CPU profile there;
// BENCH_BASELINE_SERVER=<server.js of another build of ours>: it runs beside them as 'baseline' (before/after);
// BENCH_OURS_NODE_ARGS='--flag …': Node flags for our server only (experiments with V8's flags).
// No assertions: figures and ratios.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundledSchema } from '#service';
import { CORPUS_INDEX, CORPUS_SETS, corpusAvailable, listJsonFiles } from '../support/corpus';
import { startInitialized, type LspProcess, type Notification } from '../support/lspProcess';

const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 3);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 10000);
const SCENARIOS = (process.env.BENCH_BURST_SCENARIOS ?? 'corpus,workspace,pull').split(',');
const CPU_PROF = process.env.BENCH_CPU_PROF;
const TIMEOUT_MS = 180000;
const JSON_SERVER_MAIN = require.resolve('vscode-json-languageserver/out/node/jsonServerMain');
const PROBE = path.join(__dirname, 'memoryProbe.js');
const CAPABILITIES = {
  textDocument: {
    synchronization: { didSave: true },
    completion: { completionItem: { snippetSupport: true } },
    publishDiagnostics: { versionSupport: true },
  },
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
};
const PULL_CAPABILITIES = { ...CAPABILITIES, textDocument: { ...CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: false } } };

type Name = 'ours' | 'vscode-json-languageserver' | 'baseline';
const BASELINE = process.env.BENCH_BASELINE_SERVER;
const NAMES: Name[] = BASELINE ? ['ours', 'vscode-json-languageserver', 'baseline'] : ['ours', 'vscode-json-languageserver'];

interface Burst {
  first: number;
  last: number;
  /** RSS and peak RSS (bytes) when the last diagnostics arrived. */
  rssAtLast: number;
  peakAtLast: number;
  /** RSS after SETTLE_MS of quiet, as the server holds it (before the probe's collection). */
  rssQuiet: number;
  /** CPU time (user + system) the server used from the first didOpen to the last diagnostics. */
  cpu: number;
  /** When the last didOpen had been handed to the pipe (the server had read all but the pipe's last 64 KB). */
  sent: number;
  /** Ours, with a workspace: when every document had diagnostics made with the workspace's definitions read. */
  complete: number;
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** User + system CPU time of a process so far, in ms (Linux; 0 elsewhere). */
function procCpu(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** A message framed for the wire, made before the clock starts (the bench's own JSON.stringify is not timed). */
function framed(message: object): Buffer {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/** VmRSS and VmHWM of a process, in bytes (Linux); zeros elsewhere. */
function procMemory(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

async function startServer(name: Name, options: { pull?: boolean; folder?: string }): Promise<LspProcess> {
  const workspaceFolders = options.folder ? [pathToFileURL(options.folder).href] : undefined;
  const nodeArgs = ['-r', PROBE];
  if (name === 'ours' && process.env.BENCH_OURS_NODE_ARGS) nodeArgs.push(...process.env.BENCH_OURS_NODE_ARGS.split(' '));
  if (name === 'ours' || name === 'baseline') {
    if (CPU_PROF && name === 'ours') nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`);
    const script = name === 'baseline' ? BASELINE : undefined;
    return (
      await startInitialized(options.pull ? PULL_CAPABILITIES : CAPABILITIES, {
        nodeArgs,
        workspaceFolders,
        script,
        args: ['--stdio'],
        name,
      })
    ).client;
  }
  const { client } = await startInitialized(CAPABILITIES, {
    script: JSON_SERVER_MAIN,
    args: ['--stdio'],
    name,
    nodeArgs,
    workspaceFolders,
  });
  // The same schema for both: our bundled policy set schema, for every JSON file.
  const schema = bundledSchema('policySetDefinition') as { $id?: string };
  client.notify('workspace/didChangeConfiguration', {
    settings: { json: { schemas: [{ url: schema.$id ?? 'policyset:/bundled/policySetDefinition.json', fileMatch: ['*.json'], schema }] } },
  });
  return client;
}

/** The server's RSS as it holds it, read by the probe (see memoryProbe). */
async function heldRss(client: LspProcess): Promise<number> {
  const before = client.stderr.split('POLICYSET_MEMORY ').length;
  client.child.kill('SIGUSR2');
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const parts = client.stderr.split('POLICYSET_MEMORY ');
    const tail = parts[parts.length - 1];
    if (parts.length > before && tail.includes('\n')) return (JSON.parse(tail.slice(0, tail.indexOf('\n'))) as { rss: number }).rss;
    if (Date.now() > deadline) throw new Error(`${client.name} did not report its memory`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Documents {
  /** What is opened (uri and text), in order. */
  open: Array<{ uri: string; text: string }>;
  folder?: string;
}

/** Opens every document at once; resolves when each has had its diagnostics (pushed, or answered to a pull). */
async function burst(client: LspProcess, documents: Documents, pull: boolean, scans: boolean): Promise<Omit<Burst, 'rssQuiet'>> {
  const waiting = new Set(documents.open.map((d) => d.uri));
  // Ours logs what it read of the workspace; the diagnostics published after that are made with it.
  const incomplete = new Set(scans ? waiting : []);
  let scanned = false;
  const published = new Set<string>();
  let complete: Promise<bigint> = Promise.resolve(0n);
  if (scans) {
    complete = client
      .nextNotification<{ uri: string; message: string }>((n) => {
        if (n.method === 'window/logMessage' && /Known policy definitions/.test(n.params.message)) scanned = true;
        // Checked again: what was published before is stale. Read to what the documents were checked against
        // (after the scan): those published since they were last queued are complete.
        if (n.method === 'window/logMessage' && /documents are checked again/.test(n.params.message)) published.clear();
        if (n.method === 'window/logMessage' && scanned && /did not change/.test(n.params.message))
          for (const uri of published) incomplete.delete(uri);
        if (n.method === 'textDocument/publishDiagnostics') published.add(n.params.uri);
        if (n.method === 'textDocument/publishDiagnostics' && scanned) incomplete.delete(n.params.uri);
        return !incomplete.size;
      }, TIMEOUT_MS)
      .then((n) => n.at);
  }
  let first = 0n;
  const pid = client.child.pid;
  let atLast = { rss: 0, peak: 0, cpu: 0 };
  const opens = documents.open.map((d) =>
    framed({ method: 'textDocument/didOpen', params: { textDocument: { uri: d.uri, languageId: 'json', version: 1, text: d.text } } }),
  );
  const cpuBefore = procCpu(pid);
  const started = process.hrtime.bigint();
  let sent = 0n;
  const writeAll = (messages: Buffer[]) =>
    messages.forEach((m, i) => client.child.stdin.write(m, i === messages.length - 1 ? () => (sent = process.hrtime.bigint()) : undefined));
  const arrived = (at: bigint) => {
    if (!first) first = at;
    if (!waiting.size) atLast = { ...procMemory(pid), cpu: procCpu(pid) };
  };
  let done: Promise<bigint>;
  if (pull) {
    writeAll(opens);
    // As a client that pulls for every open document: all requests sent at once, after the opens.
    done = Promise.all(
      documents.open.map(async (d) => {
        const answer = await client.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri: d.uri } }, TIMEOUT_MS);
        if (answer.error) throw new Error(`pull of ${d.uri} failed: ${answer.error.message}`);
        const at = process.hrtime.bigint();
        waiting.delete(d.uri);
        arrived(at);
        return at;
      }),
    ).then((times) => times.reduce((a, b) => (a > b ? a : b)));
  } else {
    done = client
      .nextNotification<{ uri: string }>((n: Notification<{ uri: string }>) => {
        if (n.method !== 'textDocument/publishDiagnostics' || !waiting.has(n.params.uri)) return false;
        waiting.delete(n.params.uri);
        arrived(n.at);
        return !waiting.size;
      }, TIMEOUT_MS)
      .then((n) => n.at);
    writeAll(opens);
  }
  const last = await done;
  const completeAt = await complete;
  return {
    complete: completeAt ? Number(completeAt - started) / 1e6 : 0,
    first: Number(first - started) / 1e6,
    last: Number(last - started) / 1e6,
    rssAtLast: atLast.rss,
    peakAtLast: atLast.peak,
    cpu: atLast.cpu - cpuBefore,
    sent: Number(sent - started) / 1e6,
  };
}

async function round(name: Name, documents: Documents, pull: boolean): Promise<Burst> {
  const client = await startServer(name, { pull, folder: documents.folder });
  try {
    // The corpus: both servers have started and are idle before the documents come. A workspace: the
    // documents come right after the handshake, as an editor opening a repository sends them.
    if (!documents.folder) await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await burst(client, documents, pull, !!documents.folder && name !== 'vscode-json-languageserver');
    let rssQuiet = 0;
    if (SETTLE_MS > 0) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      rssQuiet = await heldRss(client);
    }
    return { ...result, rssQuiet };
  } finally {
    await client.stop(10000);
  }
}

function corpusDocuments(files: string[], base: string): Documents {
  return {
    open: files.map((file) => ({
      uri: `${base}${encodeURI(path.relative(CORPUS_SETS, file).replace(/\\/g, '/'))}`,
      text: fs.readFileSync(file, 'utf8'),
    })),
  };
}

/**
 * A repository-sized workspace: every corpus set under policySetDefinitions/ and, under policyDefinitions/,
 * a definition file for each built-in definition the sets reference (made from the corpus index: name,
 * version, parameters, and a policy rule), as a policy-as-code repository holds them; every file opened.
 */
function repositoryWorkspace(files: string[]): Documents & { sets: number; definitions: number; bytes: number } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-repository-'));
  const index = JSON.parse(fs.readFileSync(CORPUS_INDEX, 'utf8')) as Array<{
    id: string;
    name: string;
    cloud?: string;
    displayName?: string;
    version?: string;
    parameters?: object;
    mode?: string;
  }>;
  const byId = new Map(index.map((e) => [e.id.toLowerCase(), e]));
  const referenced = new Set<string>();
  const open: Documents['open'] = [];
  fs.mkdirSync(path.join(folder, 'policySetDefinitions'));
  fs.mkdirSync(path.join(folder, 'policyDefinitions'));
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const target = path.join(folder, 'policySetDefinitions', path.relative(CORPUS_SETS, file).replace(/[\\/]/g, '__'));
    fs.writeFileSync(target, text);
    open.push({ uri: pathToFileURL(target).href, text });
    for (const match of text.matchAll(/"policyDefinitionId"\s*:\s*"([^"]+)"/g)) referenced.add(match[1].toLowerCase());
  }
  let definitions = 0;
  const written = new Set<string>();
  for (const id of referenced) {
    const entry = byId.get(id);
    if (!entry || written.has(entry.name)) continue;
    written.add(entry.name);
    const document = {
      name: entry.name,
      properties: {
        displayName: entry.displayName,
        policyType: 'Custom',
        mode: entry.mode ?? 'All',
        version: entry.version,
        parameters: entry.parameters ?? {},
        policyRule: { if: { field: 'type', equals: 'Microsoft.Example/things' }, then: { effect: 'audit' } },
      },
    };
    const target = path.join(folder, 'policyDefinitions', `${entry.name}.json`);
    const text = JSON.stringify(document, null, 2);
    fs.writeFileSync(target, text);
    open.push({ uri: pathToFileURL(target).href, text });
    definitions++;
  }
  const bytes = open.reduce((sum, d) => sum + Buffer.byteLength(d.text), 0);
  return { open, folder, sets: files.length, definitions, bytes };
}

async function scenario(title: string, documents: Documents, pull: boolean) {
  const results: Record<Name, Burst[]> = { ours: [], 'vscode-json-languageserver': [], baseline: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 ? [...NAMES].reverse() : NAMES) {
      // The JSON server cannot pull: its push figures stand beside our pull.
      results[name].push(await round(name, documents, pull && name !== 'vscode-json-languageserver'));
    }
  }
  console.log(`\n${title}; median of ${ROUNDS} interleaved rounds (each round: both servers started afresh):`);
  const columns = [
    'input read',
    'first diagnostics',
    'last diagnostics',
    'server CPU',
    'RSS at last',
    'peak RSS',
    `RSS quiet ${SETTLE_MS / 1000} s`,
  ];
  console.log(`  ${'server'.padEnd(30)} ${columns.map((c) => c.padStart(18)).join('')}`);
  const pick: Array<[keyof Burst, (v: number) => string]> = [
    ['sent', (v) => `${v.toFixed(0)} ms`],
    ['first', (v) => `${v.toFixed(0)} ms`],
    ['last', (v) => `${v.toFixed(0)} ms`],
    ['cpu', (v) => `${v.toFixed(0)} ms`],
    ['rssAtLast', mib],
    ['peakAtLast', mib],
    ['rssQuiet', mib],
  ];
  for (const name of NAMES) {
    const label = name === 'vscode-json-languageserver' ? `${name}${pull ? ' (push)' : ''}` : `${name}${pull ? ' (pull)' : ''}`;
    console.log(
      `  ${label.padEnd(30)} ${pick.map(([key, format]) => format(median(results[name].map((r) => r[key]))).padStart(18)).join('')}`,
    );
  }
  const ratio = (key: keyof Burst, of: Name = 'ours') => {
    const theirs = median(results['vscode-json-languageserver'].map((r) => r[key === 'complete' ? 'last' : key]));
    return theirs ? `${(median(results[of].map((r) => r[key])) / theirs).toFixed(2)}x` : '-';
  };
  console.log(`  ${'ours / theirs (medians)'.padEnd(30)} ${pick.map(([key]) => ratio(key).padStart(18)).join('')}`);
  if (BASELINE)
    console.log(`  ${'baseline / theirs (medians)'.padEnd(30)} ${pick.map(([key]) => ratio(key, 'baseline').padStart(18)).join('')}`);
  for (const name of NAMES.filter((n) => results[n].some((r) => r.complete))) {
    const complete = median(results[name].map((r) => r.complete));
    console.log(
      `  ${name}: every document's diagnostics made with the workspace's definitions read: ${complete.toFixed(0)} ms (${ratio('complete', name)} of theirs without)`,
    );
  }
  for (const name of NAMES) {
    console.log(
      `    ${name} rounds, last diagnostics: ${results[name].map((r) => r.last.toFixed(0)).join(', ')} ms; RSS at last: ${results[name].map((r) => mib(r.rssAtLast)).join(', ')}`,
    );
  }
}

async function main() {
  if (!corpusAvailable) {
    console.log('Burst bench skipped: the corpus is not here (../shared/corpus or POLICYSET_CORPUS).');
    return;
  }
  if (CPU_PROF) fs.mkdirSync(CPU_PROF, { recursive: true });
  const files = listJsonFiles(CORPUS_SETS);
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  console.log(
    `Documents opened at once (${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} load average on ${os.cpus().length} CPUs at the start):`,
  );
  if (SCENARIOS.includes('corpus'))
    await scenario(
      `All ${files.length} corpus sets (${mib(bytes)}) opened at once, push diagnostics`,
      corpusDocuments(files, 'file:///bench/corpus/'),
      false,
    );
  if (SCENARIOS.includes('pull'))
    await scenario(
      `All ${files.length} corpus sets opened at once, then every one pulled`,
      corpusDocuments(files, 'file:///bench/corpus/'),
      true,
    );
  if (SCENARIOS.includes('workspace')) {
    const workspace = repositoryWorkspace(files);
    try {
      await scenario(
        `A repository: ${workspace.sets} sets and ${workspace.definitions} definition files (${mib(workspace.bytes)}), the folder as workspace, every file opened at once`,
        workspace,
        false,
      );
    } finally {
      fs.rmSync(workspace.folder!, { recursive: true, force: true });
    }
  }
  console.log(
    `\n(load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
}

void main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});
