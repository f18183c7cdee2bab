// A real LSP client that no one in this project wrote: Neovim (Debian 12 ships 0.7.2) starts
// `policyset-language-server --stdio`, opens a policy set with an undeclared group and asks for
// diagnostics, completion, hover, definition, references and rename. The Lua side (nvim/lspCheck.lua) only
// records what Neovim got; the assertions are here. scripts/ensure-neovim.sh installs Neovim when missing.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/corpus';
import { SERVER_BIN } from '../support/lspProcess';

const SOURCE_DIR = path.join(REPO_ROOT, 'test', 'lsp', 'nvim');
const NVIM_TIMEOUT_MS = 90000;

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface TextEdit {
  range: Range;
  newText: string;
}
interface Step {
  method: string;
  failure?: string;
  error?: { code: number; message: string };
  result?: unknown;
}
interface NvimResult {
  error?: string;
  nvim: { major: number; minor: number; patch: number };
  uri: string;
  server_pid?: number;
  server_exit?: { code: number; signal: number };
  server_alive?: boolean;
  diagnostics?: Array<{ lnum: number; col: number; code: string; message: string }>;
  undeclared_line: number;
  group_declaration_line: number;
  parameter_declaration_line: number;
  parameter_use_lines: number[];
  steps: Record<string, Step>;
  text_after_rename?: string;
  cleared?: boolean;
  diagnostics_after_edit?: Array<{ lnum: number; code: string; message: string }>;
}

function ensureNeovim(): string {
  const found = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0) {
    const install = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'ensure-neovim.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10 * 60 * 1000,
    });
    if (install.status !== 0) throw new Error(`scripts/ensure-neovim.sh failed (${install.status}): ${install.stderr}`);
  }
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`nvim --version failed: ${version.stderr}`);
  return version.stdout.split('\n')[0];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs Neovim headless with no stdin and no user configuration; it is killed after the timeout whatever happens. */
function runNeovim(
  fixture: string,
  resultFile: string,
): Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'nvim',
      ['--headless', '--clean', '-n', '-i', 'NONE', '-u', 'NONE', '-c', `luafile ${path.join(SOURCE_DIR, 'lspCheck.lua')}`],
      {
        cwd: path.dirname(fixture),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          POLICYSET_NVIM_FIXTURE: fixture,
          POLICYSET_NVIM_RESULT: resultFile,
          POLICYSET_NVIM_SERVER: SERVER_BIN,
          POLICYSET_NVIM_NODE: process.execPath,
          // Neovim writes its LSP log and shada under these: keep them in the temporary folder.
          XDG_CACHE_HOME: path.dirname(resultFile),
          XDG_STATE_HOME: path.dirname(resultFile),
          XDG_DATA_HOME: path.dirname(resultFile),
          XDG_CONFIG_HOME: path.dirname(resultFile),
        },
      },
    );
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nvim did not finish in ${NVIM_TIMEOUT_MS} ms; stderr: ${stderr}`));
    }, NVIM_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, stdout });
    });
  });
}

/** Location | Location[] | LocationLink[] → [uri, range] pairs. */
function locations(result: unknown): Array<{ uri: string; range: Range }> {
  const list = (Array.isArray(result) ? result : result ? [result] : []) as Array<Record<string, unknown>>;
  return list.map((l) =>
    'targetUri' in l
      ? { uri: l.targetUri as string, range: (l.targetSelectionRange ?? l.targetRange) as Range }
      : { uri: l.uri as string, range: l.range as Range },
  );
}

function labels(result: unknown): string[] {
  const items = (Array.isArray(result) ? result : ((result as { items?: unknown[] } | null)?.items ?? [])) as Array<{
    label: string;
    insertText?: string;
    textEdit?: { newText: string };
  }>;
  return items.map((item) => item.label.replace(/^"|"$/g, ''));
}

function hoverText(result: unknown): string {
  const contents = (result as { contents?: unknown } | null)?.contents;
  const parts = Array.isArray(contents) ? contents : [contents];
  return parts.map((p) => (typeof p === 'string' ? p : ((p as { value?: string } | undefined)?.value ?? ''))).join('\n');
}

/** The text edits of a WorkspaceEdit for one document, from `changes` or `documentChanges`. */
function editsFor(edit: unknown, uri: string): TextEdit[] {
  const workspaceEdit = edit as {
    changes?: Record<string, TextEdit[]>;
    documentChanges?: Array<{ textDocument?: { uri: string }; edits?: TextEdit[] }>;
  };
  const fromChanges = Object.entries(workspaceEdit.changes ?? {})
    .filter(([u]) => sameFile(u, uri))
    .flatMap(([, edits]) => edits);
  const fromDocumentChanges = (workspaceEdit.documentChanges ?? [])
    .filter((c) => c.textDocument && sameFile(c.textDocument.uri, uri))
    .flatMap((c) => c.edits ?? []);
  return [...fromChanges, ...fromDocumentChanges];
}

function sameFile(a: string, b: string): boolean {
  return decodeURIComponent(a) === decodeURIComponent(b);
}

function answered(step: Step | undefined, what: string): unknown {
  assert.ok(step, `${what}: Neovim did not get as far as this request`);
  assert.equal(step.failure, undefined, `${what}: ${step.failure}`);
  assert.equal(step.error, undefined, `${what}: the server answered with an error: ${JSON.stringify(step.error)}`);
  return step.result;
}

describe('Neovim as the LSP client (a client this project did not write)', () => {
  let result: NvimResult;
  let fixtureText: string;
  let workDir: string;

  before(async () => {
    const version = ensureNeovim();
    console.log(`${version}, headless, no user configuration`);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-nvim-'));
    const fixture = path.join(workDir, 'fixture.policyset.json');
    fixtureText = fs.readFileSync(path.join(SOURCE_DIR, 'fixture.policyset.json'), 'utf8');
    fs.writeFileSync(fixture, fixtureText);
    const resultFile = path.join(workDir, 'result.json');
    const run = await runNeovim(fixture, resultFile);
    assert.ok(
      fs.existsSync(resultFile),
      `nvim exited (${run.code}, ${run.signal}) without writing its result; stderr: ${run.stderr} stdout: ${run.stdout}`,
    );
    result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as NvimResult;
    // The server is Neovim's child; it must be gone with it, and is killed here if it is not.
    if (result.server_pid && isAlive(result.server_pid)) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (isAlive(result.server_pid)) {
        process.kill(result.server_pid, 'SIGKILL');
        console.log(`the server (pid ${result.server_pid}) outlived Neovim and was killed`);
      }
    }
    assert.equal(result.error, undefined, `the Lua script failed: ${result.error}`);
  });

  after(() => {
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  test('Neovim 0.7 or later started the server over stdio and it stayed up', () => {
    assert.ok(result.nvim.major > 0 || result.nvim.minor >= 7, `Neovim ${JSON.stringify(result.nvim)} is older than 0.7`);
    assert.equal(result.server_alive, true, `the server stopped early: ${JSON.stringify(result.server_exit)}`);
  });

  test('the undeclared group is reported (pushed diagnostics, PS5001) on its line', () => {
    const diagnostics = result.diagnostics ?? [];
    const undeclared = diagnostics.filter((d) => d.code === 'PS5001');
    assert.equal(undeclared.length, 1, `PS5001 expected once, got: ${JSON.stringify(diagnostics)}`);
    assert.equal(undeclared[0].lnum, result.undeclared_line);
    assert.match(undeclared[0].message, /Undeclared/);
  });

  test('completion inside metadata.strongType offers strongType values', () => {
    const offered = labels(answered(result.steps.strongType, 'completion in strongType'));
    for (const value of ['location', 'resourceTypes', 'existingResourceGroups'])
      assert.ok(offered.includes(value), `${value} not offered; got ${JSON.stringify(offered.slice(0, 40))}`);
  });

  test('completion inside groupNames offers the declared group names, and only those', () => {
    const offered = labels(answered(result.steps.groupNames, 'completion in groupNames'));
    assert.ok(offered.includes('Storage'), `Storage not offered; got ${JSON.stringify(offered)}`);
    assert.deepEqual(
      offered.filter((l) => !['Network', 'Storage'].includes(l)),
      [],
      'only declared group names belong there',
    );
  });

  test("hover on [parameters('effect')] shows the declared parameter", () => {
    const text = hoverText(answered(result.steps.hover, 'hover'));
    assert.match(text, /effect/);
    assert.match(text, /String/);
    assert.match(text, /Audit/);
  });

  test('definition of a group reference lands on the group declaration', () => {
    const found = locations(answered(result.steps.definition, 'definition'));
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.ok(sameFile(found[0].uri, result.uri), `${found[0].uri} is not ${result.uri}`);
    assert.equal(found[0].range.start.line, result.group_declaration_line);
  });

  test('references of a parameter include every use', () => {
    const found = locations(answered(result.steps.references, 'references'));
    const lines = found.filter((l) => sameFile(l.uri, result.uri)).map((l) => l.range.start.line);
    for (const line of result.parameter_use_lines)
      assert.ok(lines.includes(line), `the use on line ${line + 1} is missing from ${JSON.stringify(lines)}`);
    assert.ok(
      lines.includes(result.parameter_declaration_line),
      `the declaration (includeDeclaration) is missing from ${JSON.stringify(lines)}`,
    );
  });

  test('rename of a group edits its declaration and every use, and Neovim applies it', () => {
    const edit = answered(result.steps.rename, 'rename');
    const edits = editsFor(edit, result.uri);
    assert.equal(edits.length, 3, `declaration and two uses expected: ${JSON.stringify(edits)}`);
    const expected = fixtureText.split('\n').flatMap((line, i) => (line.includes('"Network"') ? [i] : []));
    assert.deepEqual(
      edits.map((e) => e.range.start.line).sort((a, b) => a - b),
      expected,
    );
    // What Neovim made of the edit: every "Network" group is now "Perimeter", and nothing else changed.
    assert.equal(result.text_after_rename, fixtureText.replaceAll('"Network"', '"Perimeter"').replace(/\n$/, ''));
  });

  test('after typing in Neovim (incremental changes) the undeclared group is declared and its diagnostic goes away', () => {
    assert.equal(result.cleared, true, `PS5001 still reported after the edit: ${JSON.stringify(result.diagnostics_after_edit)}`);
    assert.ok(!(result.diagnostics_after_edit ?? []).some((d) => d.code === 'PS5001'));
  });
});
