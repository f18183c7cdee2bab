// E2E: the packaged .vsix in a real VS Code (code-server), as `npm test` runs it on CI here.
// 1. the integration suite (test/e2e/suite, the run() contract) inside the extension host;
// 2. what a person sees, through Chromium driven by Playwright.
// The setup installs code-server, Node 24 and Chromium itself (test/e2e/support/install.ts) and ends every
// process it starts. Checks that need the language server's completion and quick fixes are TODO while the
// server does not offer them: they still run and show their failure, without failing the run.
import { describe, test, before, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../support/corpus';
import { CodeServer } from './support/codeServer';
import { ensureE2eTools, type E2eTools } from './support/install';
import { packageVsix } from './support/packageVsix';
import { poll } from './support/processes';
import { serverCapabilities } from './support/serverCapabilities';
import { launchBrowser, runSuite, type SuiteRun } from './runCodeServer';
import { SERVER_FEATURES_SUITE } from './suite/serverFeatures.e2e';
import { UNDEFINED_GROUP_FIXTURE, Workbench } from './ui';

/** The Done-when of the editing experience: the squiggle and the Problems entry within 2 s of opening the file. */
const SHOWN_WITHIN_MS = 2000;

describe('e2e: the packaged extension in code-server', { timeout: 20 * 60_000 }, () => {
  let tools: E2eTools;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let capabilities: Record<string, unknown> = {};
  let suiteRun: Promise<SuiteRun> | undefined;
  let workbench: Promise<Workbench> | undefined;

  before(async () => {
    const started = Date.now();
    tools = await ensureE2eTools();
    const vsix = await packageVsix();
    capabilities = await serverCapabilities(path.join(REPO_ROOT, 'dist', 'server', 'server.js'));
    server = await CodeServer.start(tools, { vsix });
    browser = await launchBrowser(tools);
    console.log(`# e2e setup (install when needed, package, code-server, chromium): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(async () => {
    if (workbench) await (await workbench.catch(() => undefined))?.close();
    await browser?.close();
    await server?.stop();
  });

  /** TODO while the server lacks a capability; a plain test once it has it. */
  const needsServer = (t: TestContext, ...names: string[]) => {
    const missing = names.filter((name) => !capabilities[name]);
    if (missing.length > 0) t.todo(`the language server does not offer ${missing.join(', ')} yet`);
  };

  const suiteResults = () => (suiteRun ??= runSuite(server!, browser!));
  const openWorkbench = () => (workbench ??= Workbench.open(server!, browser!));

  const assertPassed = (run: SuiteRun, results: SuiteRun['results'], minimum: number) => {
    const failed = results.filter((r) => r.state !== 'passed');
    assert.deepEqual(failed.map((r) => `${r.title}: ${r.error}`), [], 'every test of the suite passes');
    assert.ok(results.length >= minimum, `the suite ran (${results.length} results, exit code ${run.exitCode}); the console's end:\n${run.console.slice(-30).join('\n')}`);
  };

  test('integration suite in the extension host: language and diagnostics', async () => {
    const run = await suiteResults();
    const mine = run.results.filter((r) => !r.suite.startsWith(SERVER_FEATURES_SUITE));
    for (const r of mine) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, mine, 4);
  });

  test('integration suite in the extension host: strongType completion and the declare-group quick fix', async (t) => {
    needsServer(t, 'completionProvider', 'codeActionProvider');
    const run = await suiteResults();
    const features = run.results.filter((r) => r.suite.startsWith(SERVER_FEATURES_SUITE));
    for (const r of features) console.log(`#   ${r.state} ${r.title} (${r.durationMs ?? '?'} ms)`);
    assertPassed(run, features, 2);
    assert.equal(run.exitCode, 0, 'the workbench reports success');
  });

  test(`UI: the squiggle and the Problems entry for an undefined group appear within ${SHOWN_WITHIN_MS} ms of opening the file`, async () => {
    const wb = await openWorkbench();
    try {
      await wb.showProblems();
      const opened = await wb.openFile(UNDEFINED_GROUP_FIXTURE);
      await wb.squiggles().first().waitFor({ state: 'visible', timeout: 15_000 });
      const squiggleMs = Date.now() - opened;
      await wb.problemRows('Monitoring').first().waitFor({ state: 'visible', timeout: 15_000 });
      const problemMs = Date.now() - opened;
      console.log(`# opened → squiggle ${squiggleMs} ms, → Problems entry ${problemMs} ms`);
      const row = (await wb.problemRows('Monitoring').first().textContent()) ?? '';
      assert.match(row, /not declared/);
      assert.match(row, /PS5001/);
      assert.ok(Math.max(squiggleMs, problemMs) <= SHOWN_WITHIN_MS, `shown ${Math.max(squiggleMs, problemMs)} ms after opening`);
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('squiggle')}`);
      throw error;
    }
  });

  test('UI: the suggest widget inside metadata.strongType lists strongType values', async (t) => {
    needsServer(t, 'completionProvider');
    const wb = await openWorkbench();
    try {
      await wb.openFile(UNDEFINED_GROUP_FIXTURE);
      const { line, column } = wb.positionAfter(UNDEFINED_GROUP_FIXTURE, '"strongType": "');
      await wb.goTo(line, column);
      await wb.page.keyboard.press('Control+Space');
      const rows = wb.page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');
      const labels = await poll(
        'the suggest widget to list location',
        async () => {
          const texts = await rows.allTextContents();
          return texts.some((text) => text.includes('location')) ? texts : undefined;
        },
        10_000,
      );
      console.log(`# suggestions: ${labels.slice(0, 8).join(' | ')}`);
      await wb.page.keyboard.press('Escape');
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('completion')}`);
      throw error;
    }
  });

  test('UI: the quick fix from Ctrl+. declares the undefined group', async (t) => {
    needsServer(t, 'codeActionProvider');
    const wb = await openWorkbench();
    try {
      await wb.openFile(UNDEFINED_GROUP_FIXTURE);
      const { line, column } = wb.positionAfter(UNDEFINED_GROUP_FIXTURE, '"Monitoring');
      await wb.goTo(line, column - 3);
      await wb.page.keyboard.press('Control+.');
      const fix = wb.page.locator('.action-widget .monaco-list-row.action', { hasText: 'Monitoring' }).first();
      await fix.waitFor({ state: 'visible', timeout: 10_000 });
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
      await poll('the PS5001 entry to leave the Problems panel', async () => ((await wb.problemRows('PS5001').count()) === 0 ? true : undefined), 10_000);
    } catch (error) {
      console.log(`# screenshot: ${await wb.screenshot('quickFix')}`);
      throw error;
    }
  });
});
