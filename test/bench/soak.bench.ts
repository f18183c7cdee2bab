// node test/out/bench/soak.bench.js: the language server under a long editing session. 10,000 edits
// (deterministic pseudo-random: spaces in and out of indentation, characters in and out of string values,
// the document broken and mended), each followed by a request (hover, completion, document symbols,
// folding ranges, definition, code actions in turn) on a policy set and a deployment plan opened side by side.
// Reports the server's memory after 100 edits and after 10,000 (read inside the server after a full
// garbage collection, see memoryProbe) and every request that was not answered or answered with an error.
// The bar: memory after 10,000 within 10% of memory after 100, and no unanswered request; the script
// exits 1 when either fails (memory, not time: nothing here depends on the machine's speed).
// BENCH_SOAK_EDITS changes the number of edits; BENCH_SETTLE_MS the wait before memory is read (default 9 s).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS_SETS, corpusAvailable, listJsonFiles } from '../support/corpus';
import { startInitialized, type LspProcess } from '../support/lspProcess';
import { cleanSet } from '../support/sets';

const EDITS = Number(process.env.BENCH_SOAK_EDITS ?? 10_000);
const FIRST_READING = 100;
/** Readings between the first and the last: is any growth warm-up, or does it go on? */
const READINGS = new Set([FIRST_READING, 1000, 5000, 10_000, EDITS].filter((n) => n <= EDITS));
// The server collects its garbage 1 s and 7 s after it goes idle: read after both.
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 9000);
const REQUEST_DEADLINE_MS = 30_000;
const PROBE = path.join(__dirname, 'memoryProbe.js');
const CAPABILITIES = {
  textDocument: {
    synchronization: { didSave: true },
    completion: { completionItem: { snippetSupport: true } },
    publishDiagnostics: { versionSupport: true },
  },
};

interface Memory {
  rss: number;
  rssAfterGc: number;
  heapUsed: number;
  spaces: Record<string, { size: number; used: number }>;
}

/** The heap without compiled code (code_space): what the server keeps, apart from the code it has warmed up. */
const dataOf = (m: Memory) => m.heapUsed - (m.spaces.code_space?.used ?? 0);

async function memoryOf(client: LspProcess): Promise<Memory> {
  const before = client.stderr.split('POLICYSET_MEMORY ').length;
  client.child.kill('SIGUSR2');
  const deadline = Date.now() + REQUEST_DEADLINE_MS;
  for (;;) {
    const parts = client.stderr.split('POLICYSET_MEMORY ');
    const last = parts[parts.length - 1];
    if (parts.length > before && last.includes('\n')) return JSON.parse(last.slice(0, last.indexOf('\n'))) as Memory;
    if (Date.now() > deadline) throw new Error('the server did not report its memory');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A small deterministic generator (mulberry32): the same session on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Doc {
  uri: string;
  /** The text as opened: each edit is made on it, and the next one may undo it. */
  base: string;
  text: string;
  version: number;
}

/** A middle-sized corpus set (the session edits something real), or a set written here without the corpus. */
function setText(): { text: string; source: string } {
  if (corpusAvailable) {
    const files = listJsonFiles(CORPUS_SETS)
      .map((f) => ({ f, size: fs.statSync(f).size }))
      .sort((a, b) => a.size - b.size);
    const chosen = files[Math.floor(files.length * 0.75)];
    return {
      text: fs.readFileSync(chosen.f, 'utf8'),
      source: `${path.relative(CORPUS_SETS, chosen.f)} (${(chosen.size / 1024).toFixed(0)} KiB, the 75th percentile of the corpus)`,
    };
  }
  return { text: JSON.stringify(cleanSet('soak', 'Soak set', '1.0.0'), null, 2), source: 'a small set written here (no corpus)' };
}

const PLAN = JSON.stringify(
  {
    region: 'eastus',
    deployments: Array.from({ length: 20 }, (_, i) => ({
      account: `ai-${i % 3}`,
      name: `chat-${i}`,
      model: i % 2 ? 'gpt-4o' : 'gpt-4o-mini',
      sku: { name: 'Standard', capacity: 1 + (i % 5) },
    })),
  },
  null,
  2,
);

/** One edit of the base text: a space into indentation, a character into a string, or a broken document. */
function editOf(doc: Doc, next: () => number): string {
  const lines = doc.base.split('\n');
  const line = Math.floor(next() * lines.length);
  const kind = next();
  if (kind < 0.5) lines[line] = ' ' + lines[line];
  else if (kind < 0.9) {
    const quote = lines[line].lastIndexOf('"');
    if (quote > 0) lines[line] = lines[line].slice(0, quote) + 'x' + lines[line].slice(quote);
  } else lines[line] = lines[line] + ' {';
  return lines.join('\n');
}

function positionIn(text: string, next: () => number): { line: number; character: number } {
  const lines = text.split('\n');
  const line = Math.floor(next() * lines.length);
  return { line, character: Math.floor(next() * (lines[line].length + 1)) };
}

async function main() {
  const { client } = await startInitialized(CAPABILITIES, { nodeArgs: ['-r', PROBE] });
  const set = setText();
  const docs: Doc[] = [
    { uri: 'file:///soak/set.json', base: set.text, text: set.text, version: 1 },
    { uri: 'file:///soak/plan.json', base: PLAN, text: PLAN, version: 1 },
  ];
  for (const doc of docs)
    client.notify('textDocument/didOpen', { textDocument: { uri: doc.uri, languageId: 'json', version: 1, text: doc.text } });
  const next = random(22);
  const methods = [
    'textDocument/hover',
    'textDocument/completion',
    'textDocument/documentSymbol',
    'textDocument/foldingRange',
    'textDocument/definition',
    'textDocument/codeAction',
  ];
  const unanswered: string[] = [];
  const errors = new Map<string, number>();
  const readings: Array<{ edits: number; memory: Memory }> = [];
  const started = Date.now();
  console.log(
    `Soak: ${EDITS.toLocaleString('en-US')} edits, each followed by a request; the set is ${set.source}, the plan has 20 deployments.`,
  );

  for (let i = 1; i <= EDITS; i++) {
    const doc = docs[i % 2];
    // Every other edit goes back to the text as opened: the document does not grow over the session.
    doc.text = i % 4 < 2 ? editOf(doc, next) : doc.base;
    doc.version++;
    client.notify('textDocument/didChange', { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ text: doc.text }] });
    // Each document gets every kind of request in turn (not i % 6, which would pair kinds with documents).
    const method = methods[Math.floor(i / 2) % methods.length];
    const position = positionIn(doc.text, next);
    const params =
      method === 'textDocument/documentSymbol' || method === 'textDocument/foldingRange'
        ? { textDocument: { uri: doc.uri } }
        : method === 'textDocument/codeAction'
          ? { textDocument: { uri: doc.uri }, range: { start: position, end: position }, context: { diagnostics: [] } }
          : { textDocument: { uri: doc.uri }, position };
    try {
      const response = await client.request(method, params, REQUEST_DEADLINE_MS);
      // ContentModified and RequestCancelled are answers (the document changed under the request), not failures.
      if (response.error && response.error.code !== -32801 && response.error.code !== -32800) {
        const key = `${method}: ${response.error.message}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    } catch (error) {
      unanswered.push(`${method} after edit ${i}: ${(error as Error).message.split('\n')[0]}`);
      if (client.exit) break;
    }
    if (READINGS.has(i)) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      readings.push({ edits: i, memory: await memoryOf(client) });
    }
  }
  const seconds = (Date.now() - started) / 1000;
  await client.stop();

  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
  console.log(
    `  ${'after edits'.padEnd(12)} ${'heap, GC'.padStart(11)} ${'code'.padStart(11)} ${'heap - code'.padStart(11)} ${'RSS, GC'.padStart(11)} ${'RSS'.padStart(11)}`,
  );
  for (const r of readings) {
    const m = r.memory;
    console.log(
      `  ${r.edits.toLocaleString('en-US').padEnd(12)} ${mib(m.heapUsed).padStart(11)} ${mib(m.spaces.code_space?.used ?? 0).padStart(11)} ${mib(dataOf(m)).padStart(11)} ${mib(m.rssAfterGc).padStart(11)} ${mib(m.rss).padStart(11)}`,
    );
  }
  const [first, last] = [readings[0], readings[readings.length - 1]];
  const heapRatio = last.memory.heapUsed / first.memory.heapUsed;
  const rssRatio = last.memory.rssAfterGc / first.memory.rssAfterGc;
  const dataRatio = dataOf(last.memory) / dataOf(first.memory);
  const within = readings.length === READINGS.size && heapRatio <= 1.1;
  console.log(
    `  after ${last.edits.toLocaleString('en-US')} / after ${first.edits}: heap ${heapRatio.toFixed(3)} (${within ? 'within' : 'NOT within'} 10%), heap without code ${dataRatio.toFixed(3)}, RSS after GC ${rssRatio.toFixed(3)}`,
  );
  console.log(
    `  requests: ${EDITS.toLocaleString('en-US')} sent, ${unanswered.length} unanswered, ${[...errors.values()].reduce((a, b) => a + b, 0)} answered with an error; ${seconds.toFixed(0)} s in all`,
  );
  for (const line of unanswered.slice(0, 10)) console.log(`    unanswered: ${line}`);
  for (const [key, count] of errors) console.log(`    error (${count}x): ${key}`);
  if (!within || unanswered.length || errors.size) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
