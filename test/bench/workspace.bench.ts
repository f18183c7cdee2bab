// npm run bench: workspace diagnostics beside the CLI, on the same folder, in the same run:
//   - the CLI: `policyset lint <folder> --format json` run in the folder, as a whole process (start-up
//     included), its wall time;
//   - our server (over stdio, pull diagnostics, the folder as its workspace, started and initialized
//     beforehand): the time from the `workspace/diagnostic` request (no partial results: the answer is the
//     last report) to its answer, its resident memory then (VmRSS, and VmHWM its peak so far), and once it has
//     been left alone for BENCH_SETTLE_MS (read by memoryProbe, before its collection); its memory just after
//     initialize for reference; and a live re-check: one set rewritten on disk, from didChangeWatchedFiles to
//     the workspace check having nothing pending (policySet/workspaceStats), with how many files it checked;
//   - the reference for memory: the same server and folder with only the corpus's sets open (each pulled
//     once), once quiet: the workspace checked, quiet, is printed as a ratio of it.
// Folders: (a) the corpus's sets with a .policysetrc.json naming its definitions index; (b) a repository-sized
// workspace: the corpus's sets copied under new names (and every fifth copy with a parameter left unused)
// until BENCH_WORKSPACE_FILES files (default 3000), with the same config; (c) with BENCH_WORKSPACE_DIR, a copy
// of that folder (a real repository; .git left out, the folder itself never written), held against the corpus
// folder's sets open for memory (scenario `folder`, added to the default list). Medians of BENCH_WORKSPACE_ROUNDS
// (default 3) interleaved rounds (CLI first, then the server, each afresh). No assertions: figures and ratios.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LARGEST_CORPUS, REPO_ROOT, listJsonFiles } from '../support/corpus';
import { startInitialized, type LspProcess } from '../support/lspProcess';

const ROUNDS = Number(process.env.BENCH_WORKSPACE_ROUNDS ?? 3);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 10000);
const FILES = Number(process.env.BENCH_WORKSPACE_FILES ?? 3000);
const FOLDER = process.env.BENCH_WORKSPACE_DIR;
const SCENARIOS = (process.env.BENCH_WORKSPACE_SCENARIOS ?? `corpus,repository${FOLDER ? ',folder' : ''}`).split(',') as Kind[];
type Kind = 'corpus' | 'repository' | 'folder';
const TIMEOUT_MS = 600000;
const CLI = path.join(REPO_ROOT, 'bin', 'policyset.js');
const PROBE = path.join(__dirname, 'memoryProbe.js');
const CAPABILITIES = {
  textDocument: { diagnostic: { dynamicRegistration: false } },
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
};

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function procMemory(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** The server's RSS as it holds it, read by the probe (see memoryProbe). */
async function heldRss(client: LspProcess): Promise<number> {
  const before = client.stderr.split('POLICYSET_MEMORY ').length;
  client.child.kill('SIGUSR2');
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const parts = client.stderr.split('POLICYSET_MEMORY ');
    const tail = parts[parts.length - 1];
    if (parts.length > before && tail.includes('\n')) {
      const probe = JSON.parse(tail.slice(0, tail.indexOf('\n'))) as {
        rss: number;
        rssAfterGc: number;
        heapTotal: number;
        heapUsed: number;
      };
      // What the held memory is made of: after the probe's own collection, and the V8 heap in it.
      if (process.env.BENCH_MEMORY_DETAIL)
        console.log(
          `    ${client.name}: held ${mib(probe.rss)}; after a full collection ${mib(probe.rssAfterGc)}, V8 heap ${mib(probe.heapUsed)} used of ${mib(probe.heapTotal)}`,
        );
      return probe.rss;
    }
    if (Date.now() > deadline) throw new Error(`${client.name} did not report its memory`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A folder holding the corpus's sets (and, for the repository, copies of them) with a config naming the definitions index. */
function makeWorkspace(kind: Kind): { dir: string; files: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `policyset-bench-workspace-${kind}-`));
  if (kind === 'folder') {
    if (!FOLDER) throw new Error('the folder scenario needs BENCH_WORKSPACE_DIR');
    fs.cpSync(FOLDER, dir, {
      recursive: true,
      filter: (source) => path.basename(source) !== '.git' && !fs.lstatSync(source).isSymbolicLink(),
    });
    return { dir, files: listJsonFiles(dir).length };
  }
  const sets = listJsonFiles(LARGEST_CORPUS.sets);
  fs.writeFileSync(path.join(dir, '.policysetrc.json'), JSON.stringify({ definitions: [LARGEST_CORPUS.index] }));
  let files = 1;
  for (const file of sets) {
    const target = path.join(dir, 'sets', path.relative(LARGEST_CORPUS.sets, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
    files++;
  }
  if (kind === 'repository') {
    const texts = sets.map(
      (file) => JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; properties?: { parameters?: Record<string, unknown> } },
    );
    for (let copy = 0; files < FILES; copy++) {
      const folder = path.join(dir, `team-${copy}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let i = 0; i < texts.length && files < FILES; i++) {
        const set = structuredClone(texts[i]);
        set.name = `${set.name ?? 'set'}-${copy}`;
        // Some findings to report: a parameter nobody uses.
        if (copy % 5 === 0 && set.properties)
          set.properties.parameters = { ...set.properties.parameters, unusedInCopy: { type: 'String' } };
        fs.writeFileSync(path.join(folder, `${i}-${path.basename(sets[i])}`), JSON.stringify(set, null, 2));
        files++;
      }
    }
  }
  return { dir, files };
}

/** The CLI's whole process on the folder: wall time. */
function runCli(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, 'lint', '.', '--format', 'json'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 || code === 1 ? resolve(performance.now() - start) : reject(new Error(`lint exited ${code}: ${stderr}`)),
    );
  });
}

interface ServerRun {
  time: number;
  reports: number;
  rssInitialized: number;
  rssAtLast: number;
  peakAtLast: number;
  rssQuiet: number;
  liveMs: number;
  liveChecked: number;
}

/** A set of the folder with a display name to change (the corpus's first, or the first such file of a real folder). */
function aSet(dir: string): string {
  const sets = fs.existsSync(path.join(dir, 'sets')) ? listJsonFiles(path.join(dir, 'sets')) : listJsonFiles(dir);
  const set = sets.find(
    (file) => /"policyDefinitions"/.test(fs.readFileSync(file, 'utf8')) && /"displayName": "/.test(fs.readFileSync(file, 'utf8')),
  );
  if (!set) throw new Error(`no set with a display name in ${dir}`);
  return set;
}

/**
 * Until the server's scan of the workspace for definitions is done (it logs what it knows): on a repository of
 * thousands of files the scan takes seconds, and measuring the check, or memory "once quiet", while it runs
 * measured both.
 */
async function definitionsRead(client: LspProcess): Promise<void> {
  await client.waitFor<{ message?: string }>(
    (n) => n.method === 'window/logMessage' && /^Known policy definitions: /.test(n.params?.message ?? ''),
    TIMEOUT_MS,
  );
}

async function runServer(dir: string): Promise<ServerRun> {
  const { client } = await startInitialized(CAPABILITIES, {
    nodeArgs: ['-r', PROBE],
    workspaceFolders: [pathToFileURL(dir).href],
    name: 'ours',
  });
  try {
    // Initialized and idle (the workspace scan for definitions done, then 1 s): the reference.
    await definitionsRead(client);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssInitialized = procMemory(client.child.pid).rss;
    const start = performance.now();
    const answer = await client.request<{ items: unknown[] }>('workspace/diagnostic', { previousResultIds: [] }, TIMEOUT_MS);
    const time = performance.now() - start;
    const atLast = procMemory(client.child.pid);
    if (answer.error) throw new Error(`workspace/diagnostic failed: ${answer.error.message}`);
    const stats = async () =>
      (await client.request<{ checked: number; pending: number }>('policySet/workspaceStats', null, TIMEOUT_MS)).result!;
    // Live: one set rewritten (a new display name), until nothing is pending.
    const set = aSet(dir);
    const before = await stats();
    fs.writeFileSync(set, fs.readFileSync(set, 'utf8').replace('"displayName": "', '"displayName": "Renamed '));
    const liveStart = performance.now();
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(set).href, type: 2 }] });
    let after = before;
    while (after.checked === before.checked || after.pending > 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await stats();
      if (performance.now() - liveStart > TIMEOUT_MS) throw new Error('the live re-check did not finish');
    }
    const liveMs = performance.now() - liveStart;
    let rssQuiet = 0;
    if (SETTLE_MS > 0) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      rssQuiet = await heldRss(client);
    }
    return {
      time,
      reports: answer.result!.items.length,
      rssInitialized,
      rssAtLast: atLast.rss,
      peakAtLast: atLast.peak,
      rssQuiet,
      liveMs,
      liveChecked: after.checked - before.checked,
    };
  } finally {
    client.stop();
  }
}

/**
 * The reference the workspace check's memory is held against: the same server, same folder, with only the
 * corpus's sets open (each pulled once), once quiet. No workspace/diagnostic is sent.
 */
async function runOpenBaseline(dir: string): Promise<number> {
  const { client } = await startInitialized(CAPABILITIES, {
    nodeArgs: ['-r', PROBE],
    workspaceFolders: [pathToFileURL(dir).href],
    name: 'ours (open sets)',
  });
  try {
    await definitionsRead(client);
    const sets = listJsonFiles(path.join(dir, 'sets'));
    for (const file of sets)
      client.notify('textDocument/didOpen', {
        textDocument: { uri: pathToFileURL(file).href, languageId: 'json', version: 1, text: fs.readFileSync(file, 'utf8') },
      });
    for (const file of sets)
      await client.request('textDocument/diagnostic', { textDocument: { uri: pathToFileURL(file).href } }, TIMEOUT_MS);
    await new Promise((resolve) => setTimeout(resolve, Math.max(SETTLE_MS, 1000)));
    return await heldRss(client);
  } finally {
    client.stop();
  }
}

async function main() {
  console.log(`workspace diagnostics beside the CLI (corpus: ${LARGEST_CORPUS.label}; ${ROUNDS} rounds; medians)`);
  for (const kind of SCENARIOS) {
    const { dir, files } = makeWorkspace(kind);
    // The memory reference: the corpus folder's sets open (for a real folder, in a corpus folder of its own).
    const reference = kind === 'folder' ? makeWorkspace('corpus').dir : dir;
    try {
      const cli: number[] = [];
      const server: ServerRun[] = [];
      const open: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        cli.push(await runCli(dir));
        server.push(await runServer(dir));
        open.push(await runOpenBaseline(reference));
      }
      const m = (pick: (r: ServerRun) => number) => median(server.map(pick));
      const cliMs = median(cli);
      console.log(`\n${kind === 'folder' ? `${kind} ${FOLDER}` : kind}: ${files} files (${server[0].reports} reports)`);
      console.log(`  CLI lint, whole process         ${ms(cliMs)}`);
      console.log(`  server, request to last report  ${ms(m((r) => r.time))}  (${(m((r) => r.time) / cliMs).toFixed(2)}x the CLI)`);
      console.log(
        `  server memory: initialized ${mib(m((r) => r.rssInitialized))}, at the last report ${mib(m((r) => r.rssAtLast))} (peak ${mib(m((r) => r.peakAtLast))})${SETTLE_MS > 0 ? `, quiet ${mib(m((r) => r.rssQuiet))} (${(m((r) => r.rssQuiet) / m((r) => r.rssInitialized)).toFixed(2)}x initialized)` : ''}`,
      );
      console.log(
        `  reference: the corpus's ${listJsonFiles(path.join(reference, 'sets')).length} sets open, quiet ${mib(median(open))}${SETTLE_MS > 0 ? `; the workspace checked, quiet: ${(m((r) => r.rssQuiet) / median(open)).toFixed(2)}x that` : ''}`,
      );
      console.log(
        `  live: one set changed on disk, re-checked in ${ms(m((r) => r.liveMs))} (debounce included), ${m((r) => r.liveChecked)} file(s) checked again`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      if (reference !== dir) fs.rmSync(reference, { recursive: true, force: true });
    }
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});
