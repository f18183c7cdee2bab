// npm run bench: medians of full validation beside baselines measured in the same run, interleaved.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { validateText, bundledSchema } from '#service';
import { LARGEST_CORPUS, listJsonFiles, REPO_ROOT } from '../support/corpus';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timeAsync(fn: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const jsonService = getLanguageService({});
jsonService.configure({
  validate: true,
  schemas: [
    { uri: 'policyset:/bundled/policySetDefinition.json', schema: bundledSchema('policySetDefinition') as never, fileMatch: ['*.json'] },
  ],
});

/** The three contenders on the same texts, interleaved round by round so that machine noise hits all alike. */
async function measure(texts: string[]): Promise<{ ours: number; jsonls: number; parse: number }> {
  const documents = texts.map((text, i) => TextDocument.create(`file:///bench/${i}.json`, 'json', 1, text));
  const contenders = {
    ours: () => texts.forEach((text) => validateText(text)),
    jsonls: async () => {
      for (const document of documents) await jsonService.doValidation(document, jsonService.parseJSONDocument(document));
    },
    parse: () => texts.forEach((text) => JSON.parse(text)),
  };
  for (const fn of Object.values(contenders)) await fn(); // warm-up
  const times: Record<keyof typeof contenders, number[]> = { ours: [], jsonls: [], parse: [] };
  const order = Object.entries(contenders);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate who goes first, so that neither always runs after the other's garbage.
    const sequence = round % 2 ? [...order].reverse() : order;
    for (const [name, fn] of sequence) times[name as keyof typeof contenders].push(await timeAsync(fn));
  }
  return { ours: median(times.ours), jsonls: median(times.jsonls), parse: median(times.parse) };
}

async function measureOnce(texts: string[]) {
  for (const text of texts) {
    validateText(text);
    const document = TextDocument.create('file:///bench/warm.json', 'json', 1, text);
    await jsonService.doValidation(document, jsonService.parseJSONDocument(document));
  }
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`.padStart(10);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`.padStart(7);

function row(label: string, r: { ours: number; jsonls: number; parse: number }) {
  console.log(`${label.padEnd(58)} ${ms(r.ours)} ${ms(r.jsonls)} ${ms(r.parse)} ${ratio(r.ours, r.jsonls)} ${ratio(r.ours, r.parse)}`);
}

function processRuns(rounds: number, corpus: string): void {
  const cli = path.join(REPO_ROOT, 'bin', 'policyset.js');
  const baseline = path.join(REPO_ROOT, 'test', 'out', 'bench', 'jsonlsProcess.js');
  const floor = path.join(REPO_ROOT, 'test', 'out', 'bench', 'parseProcess.js');
  // The baseline reads the merged schema from a file: importing our service for it would cost it our start-up.
  const schemaFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-bench-')), 'policySetDefinition.json');
  fs.writeFileSync(schemaFile, JSON.stringify(bundledSchema('policySetDefinition')));
  const commands: Record<string, string[]> = {
    'policyset lint (CLI, default)': [cli, 'lint', corpus, '-f', 'json', '-o', process.platform === 'win32' ? 'NUL' : '/dev/null'],
    'policyset lint (CLI, --jobs 2)': [
      cli,
      'lint',
      corpus,
      '-f',
      'json',
      '-o',
      process.platform === 'win32' ? 'NUL' : '/dev/null',
      '--jobs',
      '2',
    ],
    'vscode-json-languageservice process': [baseline, schemaFile, corpus],
    'read + JSON.parse only (the floor)': [floor, corpus],
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first, as in-process.
    const order = Object.entries(commands);
    for (const [name, args] of round % 2 ? order.reverse() : order) {
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
      if (result.status !== 0 && result.status !== 1) throw new Error(`${name} failed with ${result.status}`);
      times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  fs.rmSync(path.dirname(schemaFile), { recursive: true, force: true });
  const base = median(times['vscode-json-languageservice process']);
  console.log(`\nWhole process over ${corpus} (median of ${rounds}, interleaved):`);
  for (const [name, values] of Object.entries(times)) {
    console.log(`  ${name.padEnd(40)} ${ms(median(values))} ${ratio(median(values), base)} of the baseline`);
  }
}

/** Runs lintPart.js; resolves with the milliseconds of each pass and the process's wall time. */
function lintPart(corpus: string, part: number, parts: number, passes: number): Promise<{ passes: number[]; wall: number }> {
  const script = path.join(REPO_ROOT, 'test', 'out', 'bench', 'lintPart.js');
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [script, corpus, String(part), String(parts), String(passes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve({ passes: JSON.parse(output) as number[], wall: Number(process.hrtime.bigint() - start) / 1e6 })
        : reject(new Error(`lintPart.js exited with ${code}`)),
    ),
  );
}

/**
 * What limits a whole process, measured: the cost of cold code (a first pass over the files against a
 * second one in the same process), and whether a second process helps (the files shared by two
 * processes side by side, against one process doing them all).
 */
async function coldCodeAndTwoProcesses(rounds: number, corpus: string): Promise<void> {
  const first: number[] = [];
  const second: number[] = [];
  const half: number[] = [];
  const halvesSideBySide: number[] = [];
  const oneProcess: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const twice = await lintPart(corpus, 0, 1, 2);
    first.push(twice.passes[0]);
    second.push(twice.passes[1]);
    oneProcess.push((await lintPart(corpus, 0, 1, 1)).wall);
    half.push((await lintPart(corpus, 0, 2, 1)).passes[0]);
    const start = process.hrtime.bigint();
    await Promise.all([lintPart(corpus, 0, 2, 1), lintPart(corpus, 1, 2, 1)]);
    halvesSideBySide.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  console.log(`
What limits a whole process (median of ${rounds}; linting in-process, startup excluded except where said):`);
  console.log(`  the files, first pass in a fresh process     ${ms(median(first))}`);
  console.log(
    `  the same files, second pass in that process  ${ms(median(second))} ${ratio(median(second), median(first))} of the first: the rest is cold code`,
  );
  console.log(`  half of the files (every second by size)     ${ms(median(half))} ${ratio(median(half), median(first))} of all of them`);
  console.log(
    `  both halves in two processes side by side    ${ms(median(halvesSideBySide))} ${ratio(median(halvesSideBySide), median(oneProcess))} of one process doing all (${ms(median(oneProcess)).trim()}), wall times with startup`,
  );
}

async function main() {
  // The full corpus when it is there, else the subset in the repository.
  const root = LARGEST_CORPUS.sets;
  const files = listJsonFiles(root);
  console.log(
    `Measuring the ${LARGEST_CORPUS.label === 'full' ? 'full corpus' : 'corpus subset (test/fixtures/corpus; POLICYSET_CORPUS names the full corpus)'}: ${files.length} files.`,
  );
  const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
  const largest = [...files].sort((a, b) => texts.get(b)!.length - texts.get(a)!.length).slice(0, 5);
  console.log(
    `Full validation (syntax, schema, every rule) vs vscode-json-languageservice parse+doValidation with the same schema, and JSON.parse; median of ${ROUNDS} interleaved rounds.\n`,
  );
  // Both services compiled and optimised before anything is timed: a few passes over the measured files.
  for (let pass = 0; pass < 3; pass++) await measureOnce(largest.map((f) => texts.get(f)!));
  console.log(
    `${'document'.padEnd(58)} ${'ours'.padStart(10)} ${'json-ls'.padStart(10)} ${'JSON.parse'.padStart(10)} ${'/json-ls'.padStart(7)} ${'/parse'.padStart(7)}`,
  );
  for (const file of largest) {
    const label = `${path.relative(root, file)} (${Math.round(texts.get(file)!.length / 1024)} KB)`;
    row(label, await measure([texts.get(file)!]));
  }
  const all = [...texts.values()];
  row(`all ${files.length} files (${(all.reduce((n, t) => n + t.length, 0) / 1048576).toFixed(1)} MB)`, await measure(all));
  processRuns(Number(process.env.BENCH_PROCESS_ROUNDS ?? 5), root);
  await coldCodeAndTwoProcesses(Number(process.env.BENCH_PROCESS_ROUNDS ?? 5), root);
}

void main();
