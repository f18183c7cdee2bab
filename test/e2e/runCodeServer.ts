// Runs the integration suite (test/e2e/suite, the run() contract) inside code-server's extension host, with
// the packaged .vsix installed, through the smoke-test driver: `node test/out/e2e/runCodeServer.js`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../support/corpus';
import { CodeServer } from './support/codeServer';
import { ensureE2eTools, type E2eTools } from './support/install';
import { packageVsix } from './support/packageVsix';
import { poll } from './support/processes';
import { RESULT_PREFIX, type E2eResult } from './suite/index';

export const EXTENSION_ID = 'policyset.policy-set-tools';
export const FIXTURES = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures');
export const SCREENSHOTS = path.join(REPO_ROOT, '.cache', 'e2e', 'screenshots');

/** A fresh copy of the fixtures: the tests edit and add files, and the workbench keeps state per folder. */
export function workspaceCopy(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `policyset-e2e-${name}-`));
  fs.cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

export function launchBrowser(tools: E2eTools): Promise<Browser> {
  return chromium.launch({
    executablePath: tools.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1300 } });
  return context.newPage();
}

export interface SuiteRun {
  exitCode: number;
  results: E2eResult[];
  console: string[];
}

/** Opens the workbench with the smoke-test payload; resolves with the exit code the workbench reports and each test's result. */
export async function runSuite(server: CodeServer, browser: Browser, timeoutMs = 180_000): Promise<SuiteRun> {
  const workspace = workspaceCopy('suite');
  const page = await newPage(browser);
  const run: SuiteRun = { exitCode: -1, results: [], console: [] };
  let exited: number | undefined;
  try {
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      exited = code;
    });
    page.on('console', (message) => {
      const text = message.text();
      run.console.push(text);
      const match = new RegExp(`${RESULT_PREFIX.replace(/[[\]]/g, '\\$&')} ([A-Za-z0-9+/=]+)`).exec(text);
      if (match) run.results.push(JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')) as E2eResult);
    });
    const remote = (p: string) => `vscode-remote://remote${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(server.installedExtension(EXTENSION_ID))],
      ['extensionTestsPath', remote(path.join(REPO_ROOT, 'test', 'out', 'e2e', 'suite', 'index.js'))],
    ];
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    run.exitCode = await poll('the integration suite to finish (window.codeAutomationExit)', () => exited, timeoutMs, 200);
    return run;
  } finally {
    await page.context().close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const tools = await ensureE2eTools();
  const vsix = await packageVsix();
  const server = await CodeServer.start(tools, { vsix });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser(tools);
    const run = await runSuite(server, browser);
    for (const result of run.results) console.log(`${result.state === 'passed' ? 'ok  ' : 'FAIL'}  ${result.suite} › ${result.title}${result.error ? `\n      ${result.error.split('\n').slice(0, 3).join('\n      ')}` : ''}`);
    console.log(`exit code ${run.exitCode}, ${run.results.filter((r) => r.state === 'passed').length}/${run.results.length} passed`);
    process.exitCode = run.exitCode === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
