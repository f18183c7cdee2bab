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
import {
  E2E_ACCOUNT,
  E2E_AUTH_PROVIDER,
  E2E_TOKEN,
  UI_ANSWERS_FOLDER,
  UI_REQUEST_PREFIX,
  type UiAnswer,
  type UiRequest,
} from './suite/suiteNames';
import { startLocalService, type LocalService } from '../fake-service/localService';

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
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1300 } });
  return context.newPage();
}

/**
 * The local service (a separate HTTP server on 127.0.0.1, accepting only the test provider's token) and the
 * user settings that point the suite's code-server at it and name the test authentication provider.
 */
export async function startSuiteService(): Promise<{
  service: LocalService;
  settings: Record<string, unknown>;
  machineSettings: Record<string, unknown>;
}> {
  const service = await startLocalService({ token: E2E_TOKEN });
  return {
    service,
    settings: { 'policySet.auth.providerId': E2E_AUTH_PROVIDER },
    // The local service serves the items API (/v1/...) on the same address.
    machineSettings: { 'policySet.service.baseUrl': service.url, 'policySet.service.itemsBaseUrl': service.url },
  };
}

export interface SuiteRun {
  exitCode: number;
  results: E2eResult[];
  console: string[];
  /** The text of every notification seen while the suite ran (sampled), and of those the suite asked to close. */
  notifications: string[];
  /** What the runner did for the suite in the page (UI_REQUEST_PREFIX), and what failed. */
  uiLog: string[];
  /** The text files code-server and the extension wrote under its home (logs, settings, storage), read when the suite ended. */
  files: Array<{ path: string; text: string }>;
}

/** Does in the page what the suite asks for (type, read a notification); answers with the text it read. */
async function doUiRequest(page: Page, request: UiRequest, run: SuiteRun): Promise<string | undefined> {
  switch (request.kind) {
    case 'type':
      await page.keyboard.type(request.text, { delay: 15 });
      return undefined;
    case 'readNotification': {
      // Toasts and the notification centre both list `.notification-list-item`s.
      const item = page.locator('.notification-list-item', { hasText: request.text }).first();
      await item.waitFor({ state: 'visible', timeout: 60_000 });
      const text = (await item.locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ').trim();
      run.notifications.push(text);
      return text;
    }
    case 'runCommand': {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${request.title}`);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: request.title }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
      return undefined;
    }
    case 'screenshotView': {
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: request.view }) }).first();
      await pane.locator('.monaco-list-row', { hasText: request.text }).first().waitFor({ state: 'visible', timeout: 30_000 });
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      const file = path.join(SCREENSHOTS, `${request.name}.png`);
      await page.screenshot({ path: file });
      // Each row as a person reads it: the label, then its description after a dash.
      const rows = await pane.locator('.monaco-list-row').evaluateAll((nodes) =>
        nodes.map((node) => {
          const text = (selector: string) =>
            (
              (node as unknown as { querySelector(s: string): { textContent: string | null } | null }).querySelector(selector)
                ?.textContent ?? ''
            )
              .replace(/\s+/g, ' ')
              .trim();
          const description = text('.label-description');
          return `${text('.label-name')}${description ? ` — ${description}` : ''}`;
        }),
      );
      run.uiLog.push(`screenshot: ${file}`);
      return rows.join('\n');
    }
    case 'readPage': {
      // A webview is a frame in a frame: read every frame's text until one shows what is asked.
      const deadline = Date.now() + 30_000;
      for (;;) {
        for (const frame of page.frames()) {
          const text = await frame.evaluate('document.body ? document.body.innerText : ""').catch(() => '');
          if (typeof text === 'string' && text.includes(request.text)) {
            fs.mkdirSync(SCREENSHOTS, { recursive: true });
            const file = path.join(SCREENSHOTS, `${request.name}.png`);
            await page.screenshot({ path: file });
            run.uiLog.push(`screenshot: ${file}`);
            return text;
          }
        }
        if (Date.now() > deadline) throw new Error(`no page shows '${request.text}'`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    case 'clickNotificationButton': {
      const item = page.locator('.notification-list-item', { hasText: request.text }).first();
      await item.waitFor({ state: 'visible', timeout: 60_000 });
      await item.hover();
      await item.locator('.monaco-button', { hasText: request.button }).first().click();
      return undefined;
    }
  }
}

/**
 * The choice VS Code's consent dialog ("The extension ... wants to sign in using ...") stores when a person
 * clicks Allow: the smoke-test driver refuses to show dialogs, so the runner records it beforehand, in the
 * browser's workbench storage (application scope), as "Manage Trusted Extensions" would.
 */
async function allowAccountAccess(
  page: Page,
  serverUrl: string,
  grant: { providerId: string; account: string; extensionId: string; extensionName: string },
): Promise<void> {
  await page.goto(`${serverUrl}/healthz`);
  const key = `${grant.providerId}-${grant.account}`;
  const value = JSON.stringify([{ id: grant.extensionId.toLowerCase(), name: grant.extensionName, allowed: true }]);
  // Runs in the page (the browser's IndexedDB; a string, as this project compiles without the DOM types).
  await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('vscode-web-state-db-global');
    open.onupgradeneeded = () => open.result.createObjectStore('ItemTable');
    open.onerror = () => reject(new Error(String(open.error)));
    open.onsuccess = () => {
      const db = open.result;
      const transaction = db.transaction('ItemTable', 'readwrite');
      transaction.objectStore('ItemTable').put(${JSON.stringify(value)}, ${JSON.stringify(key)});
      transaction.oncomplete = () => { db.close(); resolve(); };
      transaction.onerror = () => reject(new Error(String(transaction.error)));
    };
  })`);
}

/** Text files under a folder, skipping installed extensions and anything large. */
function textFilesUnder(dir: string, skip: string): Array<{ path: string; text: string }> {
  const files: Array<{ path: string; text: string }> = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (full === skip) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && fs.statSync(full).size < 8 * 1024 * 1024)
        files.push({ path: full, text: fs.readFileSync(full, 'latin1') });
    }
  };
  walk(dir);
  return files;
}

/** Opens the workbench with the smoke-test payload; resolves with the exit code the workbench reports and each test's result. */
export async function runSuite(server: CodeServer, browser: Browser, timeoutMs = 180_000): Promise<SuiteRun> {
  const workspace = workspaceCopy('suite');
  const page = await newPage(browser);
  const run: SuiteRun = { exitCode: -1, results: [], console: [], notifications: [], uiLog: [], files: [] };
  let exited: number | undefined;
  let uiQueue = Promise.resolve();
  const uiPattern = new RegExp(`${UI_REQUEST_PREFIX.replace(/[[\]]/g, '\\$&')} ([A-Za-z0-9+/=]+)`);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const texts = await page
        .locator('.notification-list-item-message')
        .allInnerTexts()
        .catch(() => [] as string[]);
      for (const text of texts) if (!run.notifications.includes(text)) run.notifications.push(text);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      exited = code;
    });
    page.on('console', (message) => {
      const text = message.text();
      run.console.push(text);
      const match = new RegExp(`${RESULT_PREFIX.replace(/[[\]]/g, '\\$&')} ([A-Za-z0-9+/=]+)`).exec(text);
      if (match) run.results.push(JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')) as E2eResult);
      const ui = uiPattern.exec(text);
      if (ui) {
        const request = JSON.parse(Buffer.from(ui[1], 'base64').toString('utf8')) as UiRequest;
        const answer = (value: UiAnswer) => {
          try {
            const folder = path.join(workspace, UI_ANSWERS_FOLDER);
            fs.mkdirSync(folder, { recursive: true });
            // Written aside and renamed: the suite polls for the file and must never read it half written.
            const answer = path.join(folder, `${request.id}.json`);
            fs.writeFileSync(`${answer}.tmp`, JSON.stringify(value));
            fs.renameSync(`${answer}.tmp`, answer);
          } catch {
            // the suite has ended (its workspace is gone)
          }
        };
        uiQueue = uiQueue.then(() =>
          doUiRequest(page, request, run).then(
            (text) => {
              run.uiLog.push(`done: ${JSON.stringify(request)}`);
              answer({ ok: true, text });
            },
            (error: Error) => {
              const message = error.message.split('\n')[0];
              run.uiLog.push(`FAILED: ${JSON.stringify(request)}: ${message}`);
              answer({ ok: false, error: message });
            },
          ),
        );
      }
    });
    const remote = (p: string) => `vscode-remote://remote${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(server.installedExtension(EXTENSION_ID))],
      ['extensionTestsPath', remote(path.join(REPO_ROOT, 'test', 'out', 'e2e', 'suite', 'index.js'))],
    ];
    await allowAccountAccess(page, server.url, {
      providerId: E2E_AUTH_PROVIDER,
      account: E2E_ACCOUNT,
      extensionId: EXTENSION_ID,
      extensionName: 'Policy Set Tools',
    });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    try {
      run.exitCode = await poll('the integration suite to finish (window.codeAutomationExit)', () => exited, timeoutMs, 200);
    } catch (error) {
      const screenshot = path.join(SCREENSHOTS, `suite-${Date.now()}.png`);
      await page.screenshot({ path: screenshot }).catch(() => undefined);
      throw new Error(
        `${(error as Error).message}\nscreenshot: ${screenshot}\nrunner: ${run.uiLog.join('\n')}\nnotifications: ${run.notifications.join(' | ')}\nthe console's end:\n${run.console.slice(-25).join('\n')}`,
      );
    }
    await uiQueue;
    run.files = textFilesUnder(server.home, server.extensionsDir);
    return run;
  } finally {
    sampling = false;
    await sampler;
    await page.context().close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const tools = await ensureE2eTools();
  const vsix = await packageVsix();
  const { service, settings, machineSettings } = await startSuiteService();
  const server = await CodeServer.start(tools, { vsix, settings, machineSettings });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser(tools);
    const run = await runSuite(server, browser);
    for (const result of run.results)
      console.log(
        `${result.state === 'passed' ? 'ok  ' : 'FAIL'}  ${result.suite} › ${result.title}${result.error ? `\n      ${result.error.split('\n').slice(0, 3).join('\n      ')}` : ''}`,
      );
    console.log(`exit code ${run.exitCode}, ${run.results.filter((r) => r.state === 'passed').length}/${run.results.length} passed`);
    process.exitCode = run.exitCode === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await server.stop();
    await service.close();
  }
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
