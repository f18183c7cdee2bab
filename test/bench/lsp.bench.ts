// npm run bench: LSP latency of our server beside vscode-json-languageserver (VS Code's JSON language
// server, from npm) configured with the same schema, both over stdio, measured interleaved in the same run:
//   (a) a one-character edit → the publishDiagnostics for that edit (push mode: neither client can pull);
//   (b) a one-character edit and at once a completion request → its response;
//   (c) the same, but the completion request sent when the server's validation delay has just run out, so that
//       it meets the validation of the edit (what a person who pauses and then asks for completion sees).
// On Spain_ENS.json (the largest corpus set) and on a small set. Medians, p90 and ours/theirs; no assertions.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledSchema } from '#service';
import { LARGEST_CORPUS, REPO_ROOT } from '../support/corpus';
import { startInitialized, type LspProcess, type Notification } from '../support/lspProcess';

const ROUNDS = Number(process.env.BENCH_LSP_ROUNDS ?? 30);
const WARMUP = 5;
const TIMEOUT_MS = 30000;
const JSON_SERVER_MAIN = require.resolve('vscode-json-languageserver/out/node/jsonServerMain');

interface Contender {
  name: string;
  client: LspProcess;
  /** Our server says which version its diagnostics are for; the JSON server does not (it drops stale ones). */
  versioned: boolean;
  completes: boolean;
  /** The server's delay before it validates a change. */
  debounceMs: number;
}

interface OpenDocument {
  uri: string;
  text: string;
  version: number;
  /** Where the one-character edit goes (a line's indentation, so the document stays the same set). */
  editLine: number;
  /** Inside the value of policyType, where both servers complete the schema's enum. */
  completionAt: { line: number; character: number };
  spaceInserted: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(10);

async function start(): Promise<Contender[]> {
  const capabilities = {
    textDocument: {
      synchronization: { didSave: true },
      // The JSON server offers completion only to clients that take snippets.
      completion: { completionItem: { snippetSupport: true } },
      publishDiagnostics: { versionSupport: true },
    },
    workspace: { configuration: true },
  };
  const ours = await startInitialized(capabilities);
  const theirs = await startInitialized(capabilities, { script: JSON_SERVER_MAIN, args: ['--stdio'], name: 'vscode-json-languageserver' });
  // The same schema for both: our bundled policy set schema, for every JSON file.
  const schema = bundledSchema('policySetDefinition') as { $id?: string };
  theirs.client.notify('workspace/didChangeConfiguration', {
    settings: { json: { schemas: [{ url: schema.$id ?? 'policyset:/bundled/policySetDefinition.json', fileMatch: ['*.json'], schema }] } },
  });
  return [
    {
      name: 'ours',
      client: ours.client,
      versioned: true,
      completes: !!ours.capabilities.completionProvider,
      debounceMs: ourDebounceMs() ?? 0,
    },
    {
      name: 'vscode-json-languageserver',
      client: theirs.client,
      versioned: false,
      completes: !!theirs.capabilities.completionProvider,
      debounceMs: jsonServerDebounceMs() ?? 0,
    },
  ];
}

function diagnosticsFor(contender: Contender, uri: string, version: number) {
  return (n: Notification<{ uri: string; version?: number; diagnostics: unknown[] }>) =>
    n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && (!contender.versioned || n.params.version === version);
}

function open(contender: Contender, uri: string, text: string): OpenDocument {
  const lines = text.split('\n');
  const policyType = lines.findIndex((line) => line.includes('"policyType"'));
  if (policyType < 0) throw new Error(`${uri} has no policyType`);
  // An indented line in the middle of the document.
  let editLine = lines.length >> 1;
  while (editLine < lines.length - 1 && !lines[editLine].startsWith(' ')) editLine++;
  contender.client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  return {
    uri,
    text,
    version: 1,
    editLine,
    completionAt: { line: policyType, character: lines[policyType].indexOf('"', lines[policyType].indexOf(':')) + 1 },
    spaceInserted: false,
  };
}

/** One character typed, or taken back: a space at the start of an indented line. */
function edit(contender: Contender, document: OpenDocument): number {
  document.version++;
  const at = { line: document.editLine, character: 0 };
  const change = document.spaceInserted
    ? { range: { start: at, end: { line: at.line, character: 1 } }, text: '' }
    : { range: { start: at, end: at }, text: ' ' };
  document.spaceInserted = !document.spaceInserted;
  contender.client.notify('textDocument/didChange', {
    textDocument: { uri: document.uri, version: document.version },
    contentChanges: [change],
  });
  return document.version;
}

async function editToDiagnostics(contender: Contender, document: OpenDocument): Promise<number> {
  const started = process.hrtime.bigint();
  const version = edit(contender, document);
  const published = await contender.client.nextNotification(diagnosticsFor(contender, document.uri, version), TIMEOUT_MS);
  return Number(published.at - started) / 1e6;
}

async function editThenCompletion(contender: Contender, document: OpenDocument, delayMs = 0): Promise<{ ms: number; items: number }> {
  let started = process.hrtime.bigint();
  const version = edit(contender, document);
  // Wait for the diagnostics of this edit too (untimed), so that no validation is left over for the next measurement.
  const settled = contender.client.nextNotification(diagnosticsFor(contender, document.uri, version), TIMEOUT_MS);
  settled.catch(() => undefined); // awaited below; a failure of the request comes first
  if (delayMs) {
    // (c): only the completion is timed, sent when the validation delay has run out.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    started = process.hrtime.bigint();
  }
  const response = await contender.client.request<{ items?: unknown[] } | unknown[] | null>(
    'textDocument/completion',
    { textDocument: { uri: document.uri }, position: document.completionAt, context: { triggerKind: 1 } },
    TIMEOUT_MS,
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.error) throw new Error(`${contender.name}: completion failed: ${response.error.message}`);
  await settled;
  const result = response.result;
  return { ms: elapsed, items: Array.isArray(result) ? result.length : (result?.items?.length ?? 0) };
}

interface Row {
  diagnostics: Record<string, number[]>;
  completion: Record<string, number[]>;
  completionAtValidation: Record<string, number[]>;
  items: Record<string, number>;
}

async function measure(contenders: Contender[], label: string, file: string): Promise<Row> {
  const text = fs.readFileSync(file, 'utf8');
  const base = `file:///bench/${label}/${path.basename(file)}`;
  const documents = contenders.map((c) => open(c, base, text));
  // The first diagnostics after opening, before anything is timed.
  await Promise.all(contenders.map((c) => c.client.waitFor(diagnosticsFor(c, base, 1), TIMEOUT_MS)));
  const row: Row = { diagnostics: {}, completion: {}, completionAtValidation: {}, items: {} };
  for (const c of contenders) {
    row.diagnostics[c.name] = [];
    row.completion[c.name] = [];
    row.completionAtValidation[c.name] = [];
  }
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternate who goes first; one server at a time, the other idle.
    const order = round % 2 ? [...contenders.keys()].reverse() : [...contenders.keys()];
    for (const i of order) {
      const diagnostics = await editToDiagnostics(contenders[i], documents[i]);
      const completion = contenders[i].completes ? await editThenCompletion(contenders[i], documents[i]) : undefined;
      const atValidation = contenders[i].completes
        ? await editThenCompletion(contenders[i], documents[i], contenders[i].debounceMs + 1)
        : undefined;
      if (round < WARMUP) continue;
      row.diagnostics[contenders[i].name].push(diagnostics);
      if (!completion) continue;
      row.completion[contenders[i].name].push(completion.ms);
      row.items[contenders[i].name] = completion.items;
      row.completionAtValidation[contenders[i].name].push(atValidation!.ms);
    }
  }
  for (const c of contenders) c.client.notify('textDocument/didClose', { textDocument: { uri: base } });
  return row;
}

function print(title: string, row: Row) {
  console.log(`\n${title}`);
  console.log(`  ${'measure'.padEnd(34)} ${'server'.padEnd(28)} ${'median'.padStart(10)} ${'p90'.padStart(10)}`);
  const measures = [
    ['edit → publishDiagnostics', row.diagnostics],
    ['edit, then completion', row.completion],
    ['completion as validation starts', row.completionAtValidation],
  ] as const;
  for (const [measureName, values] of measures) {
    for (const [server, times] of Object.entries(values)) {
      if (!times.length) {
        console.log(`  ${measureName.padEnd(34)} ${server.padEnd(28)} ${'(the server offers no completion)'}`);
        continue;
      }
      const items = measureName === 'edit, then completion' ? `  (${row.items[server]} items)` : '';
      console.log(`  ${measureName.padEnd(34)} ${server.padEnd(28)} ${ms(median(times))} ${ms(percentile(times, 90))}${items}`);
    }
    const [ours, theirs] = Object.values(values);
    if (!ours.length || !theirs.length) continue;
    console.log(
      `  ${''.padEnd(34)} ${'ours / theirs (medians)'.padEnd(28)} ${`${(median(ours) / median(theirs)).toFixed(2)}x`.padStart(10)}`,
    );
  }
}

/** Our server's delay before validating, as set in its source (so the debounce suggestion below follows it). */
function ourDebounceMs(): number | undefined {
  const source = path.join(REPO_ROOT, 'server', 'src', 'lsp', 'diagnostics.ts');
  if (!fs.existsSync(source)) return undefined;
  const match = /DEBOUNCE_MS\s*=\s*(\d+)/.exec(fs.readFileSync(source, 'utf8'));
  return match ? Number(match[1]) : undefined;
}

function jsonServerDebounceMs(): number | undefined {
  const source = path.join(path.dirname(JSON_SERVER_MAIN), '..', 'jsonServer.js');
  const match = /validationDelayMs\s*=\s*(\d+)/.exec(fs.readFileSync(source, 'utf8'));
  return match ? Number(match[1]) : undefined;
}

async function main() {
  // Spain_ENS and a small set are in the full corpus and in the subset in the repository alike.
  const large = path.join(CORPUS_SETS, 'Regulatory_Compliance', 'Spain_ENS.json');
  const small = pickSmall();
  const contenders = await start();
  try {
    const theirDebounce = jsonServerDebounceMs();
    const ourDebounce = ourDebounceMs();
    console.log(`LSP latency over stdio, median and p90 of ${ROUNDS} interleaved rounds after ${WARMUP} warm-up rounds.`);
    console.log(
      `Both servers validate after a quiet period: ours ${ourDebounce ?? '?'} ms, vscode-json-languageserver ${theirDebounce ?? '?'} ms (its validationDelayMs).`,
    );
    await sanityCheck(contenders);
    const results: Array<[string, Row]> = [];
    for (const [label, file] of [
      ['large', large],
      ['small', small],
    ] as const) {
      const row = await measure(contenders, label, file);
      const size = Math.round(fs.statSync(file).size / 1024);
      const title = `${path.relative(CORPUS_SETS, file)} (${size} KB)`;
      print(title, row);
      results.push([title, row]);
    }
    if (ourDebounce !== undefined) {
      console.log("\nDebounce that would make our median edit → diagnostics at most half of the JSON server's (all else as measured):");
      for (const [title, row] of results) {
        const ours = median(row.diagnostics.ours);
        const theirs = median(row.diagnostics['vscode-json-languageserver']);
        const work = ours - ourDebounce;
        const needed = Math.floor(theirs / 2 - work);
        console.log(
          `  ${title}: ours ${ours.toFixed(0)} ms = ${ourDebounce} ms debounce + ${work.toFixed(0)} ms; half of theirs is ${(theirs / 2).toFixed(0)} ms → a debounce of at most ${needed} ms`,
        );
      }
    }
  } finally {
    await Promise.all(contenders.map((c) => c.client.stop()));
  }
}

const CORPUS_SETS = LARGEST_CORPUS.sets;

/** The smallest corpus set that has groups and set parameters, a few KB. */
function pickSmall(): string {
  const manifest = path.join(CORPUS_SETS, '..', 'builtin-policy-sets-manifest.json');
  const entries = JSON.parse(fs.readFileSync(manifest, 'utf8')) as
    Array<{ corpusPath: string; bytes: number }> | { files: Array<{ corpusPath: string; bytes: number }> };
  const list = Array.isArray(entries) ? entries : entries.files;
  const sized = list.filter((e) => e.bytes >= 4000 && e.bytes <= 12000).sort((a, b) => a.bytes - b.bytes);
  for (const entry of sized) {
    const file = path.join(CORPUS_SETS, '..', entry.corpusPath);
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.includes('"policyDefinitionGroups"') && text.includes('"policyType"')) return file;
  }
  return path.join(CORPUS_SETS, 'Regulatory_Compliance', 'Spain_ENS.json');
}

/** Both servers really validate with the schema: a wrong policyType is reported by each. */
async function sanityCheck(contenders: Contender[]) {
  const text = JSON.stringify({ properties: { displayName: 'x', policyType: 'Nonsense', policyDefinitions: [] } }, null, 2);
  const counts: string[] = [];
  for (const c of contenders) {
    const uri = 'file:///bench/sanity/set.json';
    const document = open(c, uri, text);
    const published = await c.client.waitFor<{ uri: string; diagnostics: Array<{ message: string }> }>(
      diagnosticsFor(c, uri, document.version),
      TIMEOUT_MS,
    );
    const hit = published.params.diagnostics.some((d) => /Nonsense|BuiltIn|Custom|allowed|enum/i.test(d.message));
    if (!hit) throw new Error(`${c.name} did not report the wrong policyType: ${JSON.stringify(published.params.diagnostics)}`);
    counts.push(`${c.name}: ${published.params.diagnostics.length}`);
    c.client.notify('textDocument/didClose', { textDocument: { uri } });
  }
  console.log(`Schema check (a set with policyType "Nonsense"): both report it (${counts.join(', ')} diagnostics).`);
  for (const c of contenders) c.client.clearNotifications();
}

void main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
