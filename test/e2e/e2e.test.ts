// E2E: the packaged .vsix in a real VS Code (code-server), as `npm test` runs it on CI here.
// 1. the integration suite (test/e2e/suite, the run() contract) inside the extension host;
// 2. what a person sees, through Chromium driven by Playwright.
// The setup installs code-server, Node 24 and Chromium itself (test/e2e/support/install.ts) and ends every
// process it starts.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { CodeServer } from './support/codeServer';
import { ensureE2eTools, type E2eTools } from './support/install';
import { packageVsix } from './support/packageVsix';
import { poll } from './support/processes';
import { launchBrowser, runSuite, startSuiteService, type SuiteRun } from './runCodeServer';
import {
  E2E_TOKEN,
  ITEMS_SUITE,
  METADATA_SCREENSHOT,
  MODEL_DEPLOYMENT_SUITE,
  SERVER_FEATURES_SUITE,
  SERVICE_SUITE,
  VERSIONS_SUITE,
} from './suite/suiteNames';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCREENSHOTS } from './runCodeServer';
import type { LocalService } from '../fake-service/localService';
import { UNDEFINED_GROUP_FIXTURE, Workbench } from './ui';

/** The Done-when of the editing experience: the squiggle and the Problems entry within 2 s of opening the file. */
const SHOWN_WITHIN_MS = 2000;
const OPENS = 3;

/** When this file started: artifacts older than this are from an earlier run. */
const testsStarted = Date.now();

describe('e2e: the packaged extension in code-server', { timeout: 50 * 60_000 }, () => {
  let tools: E2eTools;
  let vsix: string;
  /** One code-server for the integration suite, a fresh one for the UI checks: nothing of the first window weighs on the timings. */
  let server: CodeServer | undefined;
  let uiServer: Promise<CodeServer> | undefined;
  let browser: Browser | undefined;
  let suiteRun: Promise<SuiteRun> | undefined;
  let workbench: Promise<Workbench> | undefined;
  /** The local service the suite's fetch and deploy commands talk to. */
  let service: LocalService | undefined;

  before(
    async () => {
      const started = Date.now();
      tools = await ensureE2eTools();
      vsix = await packageVsix();
      const suiteService = await startSuiteService();
      service = suiteService.service;
      server = await CodeServer.start(tools, { vsix, settings: suiteService.settings, machineSettings: suiteService.machineSettings });
      browser = await launchBrowser(tools);
      console.log(`# e2e setup (install when needed, package, code-server, chromium): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    { timeout: 40 * 60_000 },
  ); // a first install on a fresh machine: apt-get, Node 24, code-server's native build

  after(async () => {
    if (workbench) await (await workbench.catch(() => undefined))?.close();
    await browser?.close();
    await server?.stop();
    if (uiServer) await (await uiServer.catch(() => undefined))?.stop();
    await service?.close();
  });

  const suiteResults = () =>
    (suiteRun ??= runSuite(server!, browser!).finally(async () => {
      await server?.stop();
      server = undefined;
    }));
  const startUiServer = () => (uiServer ??= CodeServer.start(tools, { vsix }));
  const freshName = (i: number) => `openedFresh${i}.json`;
  const copies = Object.fromEntries(Array.from({ length: OPENS }, (_, i) => [freshName(i + 1), UNDEFINED_GROUP_FIXTURE]));
  const openWorkbench = () => (workbench ??= startUiServer().then((s) => Workbench.open(s, browser!, copies)));

  const assertPassed = (run: SuiteRun, results: SuiteRun['results'], minimum: number) => {
    const failed = results.filter((r) => r.state !== 'passed');
    assert.deepEqual(
      failed.map((r) => `${r.title}: ${r.error}`),
      [],
      'every test of the suite passes',
    );
    assert.ok(
      results.length >= minimum,
      `the suite ran (${results.length} results, exit code ${run.exitCode}); the console's end:\n${run.console.slice(-30).join('\n')}`,
    );
  };

  test('integration suite in the extension host: language and diagnostics', async () => {
    const run = await suiteResults();
    const others = [SERVER_FEATURES_SUITE, SERVICE_SUITE, ITEMS_SUITE, MODEL_DEPLOYMENT_SUITE, VERSIONS_SUITE];
    const mine = run.results.filter((r) => !others.some((suite) => r.suite.startsWith(suite)));
    for (const r of mine) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, mine, 4);
  });

  for (const [check, titlePart] of [
    ['strongType completion', 'completion'],
    ['the declare-group quick fix', 'quick fix'],
  ] as const) {
    test(`integration suite in the extension host: ${check}`, async () => {
      const run = await suiteResults();
      const results = run.results.filter((r) => r.suite.startsWith(SERVER_FEATURES_SUITE) && r.title.includes(titlePart));
      for (const r of results) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
      assertPassed(run, results, 1);
    });
  }

  test('integration suite in the extension host: fetch and deploy against the local service, signed in through the authentication API', async () => {
    const run = await suiteResults();
    const results = run.results.filter((r) => r.suite.startsWith(SERVICE_SUITE));
    for (const r of results) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    for (const line of run.uiLog) console.log(`#   runner: ${line}`);
    assertPassed(run, results, 5);
    // What the page showed (sampled while the suite ran): the cancellable progress of a fetch, the timeout's error message.
    assert.ok(
      run.notifications.some((n) => /^Fetching '[^']+'\.\.\.$/.test(n)),
      `the fetch's progress notification; seen: ${JSON.stringify(run.notifications)}`,
    );
    const timeout = run.notifications.find((n) => /fetching '[^']+' failed: No answer from the service within 8 s/.test(n));
    assert.ok(timeout, `the hung fetch's error notification; seen: ${JSON.stringify(run.notifications)}`);
    console.log(`#   shown: ${timeout}`);
    assert.ok(
      run.notifications.some((n) => /not deployed: the document has \d+ errors?/.test(n)),
      "the refused deployment's message",
    );
    // The output channel (a log file of the extension) has the calls and the failure.
    const channel = run.files
      .filter((f) => /Policy Set\.log$/.test(f.path))
      .map((f) => f.text)
      .join('\n');
    assert.match(
      channel,
      /GET built-in '[^']+': 200/,
      `the Policy Set output channel's log; files: ${run.files.map((f) => f.path).join(', ')}`,
    );
    assert.match(channel, /fetching '[^']+' failed: No answer from the service within 8 s/);
    // (The suite itself checks that the local service received the test provider's token, in the fetch's Authorization header.)
  });

  test('integration suite in the extension host: Open Eventstream and the advisor metadata view from the palette, against the local service', async () => {
    const run = await suiteResults();
    const results = run.results.filter((r) => r.suite.startsWith(ITEMS_SUITE));
    for (const r of results) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, results, 3);
    // A person's view of the metadata: the screenshot the runner took of the view, in the e2e artifacts.
    const screenshot = path.join(SCREENSHOTS, `${METADATA_SCREENSHOT}.png`);
    assert.ok(fs.existsSync(screenshot) && fs.statSync(screenshot).size > 10_000, `the screenshot of the metadata view: ${screenshot}`);
    assert.ok(fs.statSync(screenshot).mtimeMs >= testsStarted, 'the screenshot is from this run');
    console.log(`#   screenshot of the advisor metadata view: ${screenshot}`);
    const channel = run.files
      .filter((f) => /Policy Set\.log$/.test(f.path))
      .map((f) => f.text)
      .join('\n');
    assert.match(channel, /GET advisor metadata: 3 entities in 3 page\(s\)/);
    assert.match(channel, /GET eventstream \S+ in workspace \S+: 200/);
  });

  test('integration suite in the extension host: model deployment refused over the free quota, the usage view', async () => {
    const run = await suiteResults();
    const results = run.results.filter((r) => r.suite.startsWith(MODEL_DEPLOYMENT_SUITE));
    for (const r of results) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, results, 5);
    const refused = run.notifications.find((n) => /not deployed: 20,000 TPM asked, 5,000 TPM free/.test(n));
    assert.ok(refused, `the refusal's notification; seen: ${JSON.stringify(run.notifications)}`);
    console.log(`#   shown: ${refused}`);
  });

  test('integration suite in the extension host: the version check against the committed text (git extension), its quick fix, Show Changes Against HEAD', async () => {
    const run = await suiteResults();
    const results = run.results.filter((r) => r.suite.startsWith(VERSIONS_SUITE));
    for (const r of results) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, results, 2);
  });

  test("no token in the output channel, logs, settings, storage, notifications or console of the suite's code-server", async () => {
    const run = await suiteResults();
    assert.ok(run.files.length > 5 && run.files.some((f) => f.path.endsWith('settings.json')), `the files were read: ${run.files.length}`);
    const leaks = [
      ...run.files.filter((f) => f.text.includes(E2E_TOKEN)).map((f) => f.path),
      ...run.notifications.filter((n) => n.includes(E2E_TOKEN)).map((n) => `notification: ${n}`),
      ...run.console.filter((c) => c.includes(E2E_TOKEN)).map((c) => `console: ${c.slice(0, 200)}`),
    ];
    assert.deepEqual(leaks, []);
  });

  test(`UI: the workspace check lists closed files in the Problems panel; the squiggle for an undefined group appears (Done-when: within ${SHOWN_WITHIN_MS} ms of opening the file)`, async () => {
    await suiteResults().catch(() => undefined); // the suite's code-server is stopped before this one starts
    const wb = await openWorkbench();
    try {
      // The workspace holds a policySetDefinitions folder: the extension starts its server with the workbench (workspaceContains).
      const ui = await startUiServer();
      await poll(
        'the language server to start with the workbench',
        () => (ui.languageServerPids().length > 0 ? true : undefined),
        30_000,
        100,
      );
      await wb.showProblems();
      await wb.closeAllEditors();
      // The workspace check (on by default in VS Code): the Problems panel lists the problems of files no editor has open.
      const closed = await poll(
        'the Problems panel to list a closed file (the workspace check)',
        async () => ((await wb.problemFileRows(freshName(OPENS)).count()) > 0 ? await wb.problemRows('PS5001').count() : undefined),
        60_000,
      );
      console.log(`# the workspace check: ${closed} PS5001 entries listed with no editor open`);
      // Fresh files each time (new documents, content-detected as policy sets); the first open also warms the editor.
      // Their Problems entries are there before they open (the workspace check): what is timed is the squiggle.
      const times: number[] = [];
      for (let i = 1; i <= OPENS; i++) {
        const name = freshName(i);
        await wb.closeAllEditors();
        const opened = await wb.openFile(name);
        await wb.squiggles().first().waitFor({ state: 'visible', timeout: 15_000 });
        const squiggleMs = Date.now() - opened;
        const row = wb.problemRows('Monitoring').first();
        await row.waitFor({ state: 'visible', timeout: 15_000 });
        assert.match((await row.textContent()) ?? '', /not declared.*PS5001/);
        times.push(squiggleMs);
        console.log(`# open ${i}: squiggle after ${squiggleMs} ms`);
      }
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
      // Measured, printed, not asserted: timings on a shared machine are not a pass/fail signal (the project's rule).
      console.log(
        `# squiggle: median ${median} ms over ${OPENS} opens (first ${times[0]} ms); Done-when (<= ${SHOWN_WITHIN_MS} ms): ${median <= SHOWN_WITHIN_MS ? 'met' : 'NOT met'} here`,
      );
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('squiggle')}`);
      throw error;
    }
  });

  test('UI: the suggest widget inside metadata.strongType lists strongType values', async () => {
    const wb = await openWorkbench();
    try {
      await wb.openFile(UNDEFINED_GROUP_FIXTURE);
      const { line, column } = wb.positionAfter(UNDEFINED_GROUP_FIXTURE, '"strongType": "');
      await wb.goTo(line, column);
      await wb.page.keyboard.press('Control+Space');
      const labels = wb.page.locator('.editor-widget.suggest-widget.visible .monaco-list-row .label-name');
      const texts = await poll(
        'the suggest widget to list the strongType value location',
        async () => {
          const shown = (await labels.allTextContents()).map((text) => text.replace(/"/g, '').trim());
          return shown.includes('location') ? shown : undefined;
        },
        10_000,
      );
      console.log(`# suggestions: ${texts.slice(0, 8).join(' | ')}`);
      await wb.page.keyboard.press('Escape');
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('completion')}`);
      throw error;
    }
  });

  test('UI: the quick fix from Ctrl+. declares the undefined group', async () => {
    const wb = await openWorkbench();
    try {
      await wb.closeAllEditors();
      await wb.openFile(UNDEFINED_GROUP_FIXTURE);
      await wb.squiggles().first().waitFor({ state: 'visible', timeout: 15_000 });
      const { line, column } = wb.positionAfter(UNDEFINED_GROUP_FIXTURE, '"Monitoring');
      await wb.goTo(line, column - 3);
      const fix = wb.page.locator('.action-widget .monaco-list-row.action', { hasText: 'Monitoring' }).first();
      // On a loaded machine the key can come before the code actions are ready ("no code actions"): asked
      // again, as a person would, up to three times.
      for (let attempt = 1; ; attempt++) {
        await wb.page.keyboard.press('Control+.');
        try {
          await fix.waitFor({ state: 'visible', timeout: 10_000 });
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          await wb.page.keyboard.press('Escape');
        }
      }
      console.log(`# quick fix: ${(await fix.textContent())?.trim()}`);
      await fix.click();
      const text = await poll(
        'the group to be declared in the editor',
        async () => {
          const visible = await wb.editorText();
          return (visible.match(/"Monitoring"/g) ?? []).length >= 2 ? visible : undefined;
        },
        10_000,
      );
      assert.match(text, /"name"\s*:\s*"Monitoring"/, 'a group named Monitoring is declared');
      // The file's only error was PS5001 (the copies of it keep theirs in the Problems panel: the workspace check).
      await poll('the squiggle to leave the editor', async () => ((await wb.squiggles().count()) === 0 ? true : undefined), 10_000);
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('quickFix')}`);
      throw error;
    }
  });
});
