// Documentation tests: every ```sh, ```bash and ```shell block of README.md and docs/**/*.md runs as written,
// in a copy of the checkout with nothing beside it (no ../shared: the local service serves the corpus subset),
// as a reader follows a page: all blocks of one page in one bash session, each command checked for its exit
// status. Blocks fenced ```text are not run. How it runs:
//
// - Each command (lines joined at a trailing backslash) runs verbatim; it must exit 0, or N when its comment
//   says "exits N" (`npx policyset lint examples    # ... exits 1 ...`). `set -o pipefail` holds.
// - `npm run service:local -- --port 8080 ...` starts the local service in the background, as a reader does in
//   another terminal. Every port a page gives the local service (`--port N` on a line that starts it, with
//   `npm run service:local` or `node test/out/fake-service/main.js`) is a free port here: `--port N` and
//   `127.0.0.1:N` become it everywhere in the page, so that pages and other tests never meet on a port.
//   `npm run service:local` then waits until the service says it is listening; it is stopped at the end of
//   the page.
// - `npm ci` is not run again: the copy's node_modules is the checkout's, which `npm ci` made
//   (`npm ci && rest` runs `rest`). `npm test` is not run: this test is part of it.
// - `npm install -g` installs into a temporary prefix (npm_config_prefix) whose bin folder is on PATH,
//   offline when npm's cache has the packages; `npm pack` runs for real in the copy.
// - Commands that cannot run inside `npm test` are listed in SKIPPED with the reason, and the test fails when
//   one appears that is not listed, or when a listed one is gone: nothing is passed over in silence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT, SERVED_BUILT_IN } from '../support/corpus';

/** Commands not run here, each with why. */
const SKIPPED: Array<{ command: RegExp; reason: string }> = [
  { command: /^npm test\b/, reason: 'this documentation test is itself part of npm test' },
  {
    command: /^npm run test:e2e\b/,
    reason: 'the e2e suite is its own run (minutes; about 800 MB into .cache/e2e on first use), not a part of npm test',
  },
  { command: /^node test\/out\/e2e\//, reason: 'a step of the e2e suite (npm run test:e2e), not a part of npm test' },
  {
    command: /^code --install-extension\b/,
    reason: "needs VS Code's command line, which is not installed here (the e2e suite installs the extension into code-server)",
  },
];

interface Command {
  file: string;
  line: number;
  text: string;
  expect: number;
}

interface Page {
  file: string;
  commands: Command[];
  skipped: Array<Command & { reason: string }>;
}

function docPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) pages.push(relative);
    }
  };
  walk('docs');
  return pages;
}

/** The commands of a page's shell blocks, in order, with the line each starts on. */
function commandsOf(file: string): Page {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const page: Page = { file, commands: [], skipped: [] };
  const fence = /^```(sh|bash|shell)[^\n]*\n([\s\S]*?)^```/gm;
  for (const block of text.matchAll(fence)) {
    const firstLine = text.slice(0, block.index).split('\n').length + 1;
    const lines = block[2].split('\n');
    for (let i = 0; i < lines.length; i++) {
      const start = i;
      let command = lines[i];
      while (command.endsWith('\\') && i + 1 < lines.length) command += `\n${lines[++i]}`;
      const trimmed = command.trim();
      if (!trimmed || trimmed.startsWith('#')) continue;
      const expect = Number(/#.*\bexits? (\d+)\b/.exec(command)?.[1] ?? 0);
      const entry: Command = { file, line: firstLine + start, text: command, expect };
      const skip = SKIPPED.find((s) => s.command.test(trimmed));
      if (skip) page.skipped.push({ ...entry, reason: skip.reason });
      else page.commands.push(entry);
    }
  }
  return page;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The ports a page gives the local service. */
function servicePorts(page: Page): number[] {
  const ports = new Set<number>();
  for (const command of page.commands) {
    if (!/npm run service:local\b|test\/out\/fake-service\/main\.js\b/.test(command.text)) continue;
    for (const m of command.text.matchAll(/--port (\d+)\b/g)) ports.add(Number(m[1]));
  }
  return [...ports];
}

/** The bash script that runs a page's commands; `ports` maps each port of the page to a free one. */
function scriptOf(page: Page, ports: Map<number, number>, serviceLog: string): string {
  const lines = ['set +e', 'set -o pipefail', '__service=', 'trap \'[ -n "$__service" ] && kill -- -"$__service" 2>/dev/null\' EXIT'];
  for (const command of page.commands) {
    const where = `${command.file}:${command.line}`;
    let text = command.text;
    for (const [given, free] of ports) text = text.replace(new RegExp(`(--port |127\\.0\\.0\\.1:)${given}\\b`, 'g'), `$1${free}`);
    // npm ci has been done (node_modules is the checkout's): what follows it runs.
    if (/^npm ci\s*(&&|$)/.test(text.trim())) {
      text = text.trim().replace(/^npm ci\s*(&&\s*)?/, '');
      lines.push(`echo ${quote(`# ${where}: npm ci: done already (the copy's node_modules is the checkout's)`)}`);
      if (!text) continue;
    }
    lines.push(`echo ${quote(`$ ${text.split('\n')[0]}`)}`);
    if (/^npm run service:local\b/.test(text.trim())) {
      // Started as in another terminal: in the background, in a process group of its own (stopped at the end).
      lines.push(`[ -n "$__service" ] && kill -- -"$__service" 2>/dev/null`);
      lines.push(`setsid bash -c ${quote(text)} > ${quote(serviceLog)} 2>&1 &`, '__service=$!');
      lines.push(
        `for __i in $(seq 1 600); do grep -q 'listening on' ${quote(serviceLog)} && break; kill -0 "$__service" 2>/dev/null || break; sleep 0.1; done`,
        `grep -q 'listening on' ${quote(serviceLog)} || { echo ${quote(`${where}: the local service did not start:`)} >&2; cat ${quote(serviceLog)} >&2; exit 97; }`,
      );
      continue;
    }
    lines.push(
      text,
      `__s=$?; [ "$__s" = "${command.expect}" ] || { echo ${quote(`${where}: exit status`)} "$__s, expected ${command.expect}" >&2; exit 97; }`,
    );
  }
  return lines.join('\n') + '\n';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A copy of the checkout as a clone has it (tracked and new files), with its build and node_modules, and nothing beside it. */
function copyCheckout(into: string): string {
  const copy = path.join(into, 'policy-set-tools');
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted, not yet committed
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.cpSync(from, path.join(copy, file), { preserveTimestamps: true });
  }
  // What `npm ci` made in the checkout: the build (so an incremental build in the copy has nothing to do) and node_modules.
  for (const built of ['server/out', 'client/out', 'test/out', 'dist', 'server/tsconfig.tsbuildinfo', 'client/tsconfig.tsbuildinfo']) {
    const from = path.join(REPO_ROOT, built);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(copy, built), { recursive: true, preserveTimestamps: true });
  }
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

function runPage(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60 * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** What a page's commands leave behind that the page promises. */
const AFTERWARDS: Record<string, (copy: string) => void> = {
  'docs/service.md': (copy) => {
    const fetched = JSON.parse(fs.readFileSync(path.join(copy, 'fetched.json'), 'utf8')) as {
      name: string;
      properties: { policyDefinitions: unknown[] };
    };
    assert.equal(fetched.name, SERVED_BUILT_IN, 'the local service demo saved the set it fetched');
    assert.ok(fetched.properties.policyDefinitions.length > 0);
  },
  'README.md': (copy) => {
    const report = JSON.parse(fs.readFileSync(path.join(copy, 'report.json'), 'utf8')) as { summary: { checked: number; errors: number } };
    assert.ok(report.summary.checked > 0 && report.summary.errors === 0);
  },
};

const pages = docPages().map(commandsOf);

test('the skipped commands are exactly the listed ones, each with its reason', () => {
  const skipped = pages.flatMap((p) => p.skipped);
  for (const s of skipped) console.log(`# not run: ${s.file}:${s.line} ${s.text.trim()}: ${s.reason}`);
  for (const rule of SKIPPED)
    assert.ok(
      skipped.some((s) => rule.command.test(s.text.trim())),
      `no command in the docs matches ${rule.command}: remove it from SKIPPED`,
    );
  assert.ok(pages.reduce((n, p) => n + p.commands.length, 0) > 10, 'the docs have shell commands to run');
});

test(
  'every shell block of the README and docs/ runs as written, on a copy of the checkout with nothing beside it',
  { timeout: 20 * 60 * 1000 },
  async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-docs-'));
    try {
      const copy = copyCheckout(work);
      const prefix = path.join(work, 'npm-prefix');
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
        npm_config_prefix: prefix,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        NO_COLOR: '1',
      };
      // A fresh clone has none of these: what a page needs, it sets itself.
      for (const name of Object.keys(env)) if (/^POLICYSET_/.test(name)) delete env[name];
      const failures: string[] = [];
      for (const page of pages) {
        if (!page.commands.length) continue;
        const ports = new Map<number, number>();
        for (const given of servicePorts(page)) ports.set(given, await freePort());
        const result = await runPage(scriptOf(page, ports, path.join(work, `service-${path.basename(page.file)}.log`)), copy, env);
        if (result.code !== 0) {
          failures.push(`${page.file} (exit ${result.code}):\n${result.output.split('\n').slice(-25).join('\n')}`);
          continue;
        }
        try {
          AFTERWARDS[page.file]?.(copy);
        } catch (error) {
          failures.push(`${page.file}: ${(error as Error).message}`);
        }
      }
      assert.deepEqual(failures, []);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
);
