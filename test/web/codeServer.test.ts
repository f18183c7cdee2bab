// The packaged extension in code-server's web worker extension host: told to run as a web extension
// (`remote.extensionKind`), it runs in the browser there, and its language server in a Web Worker started
// from a Blob URL (code-server serves extensions under a vscode-remote address, from which a worker cannot
// be created). Uses the e2e tools (test/e2e/support/install.ts: code-server, Node 24, Chromium).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ensureE2eTools } from '../e2e/support/install';
import { packageVsix } from '../e2e/support/packageVsix';
import { CodeServer } from '../e2e/support/codeServer';
import { EXTENSION_ID, launchBrowser } from '../e2e/runCodeServer';
import { UNDEFINED_GROUP_FIXTURE, Workbench } from '../e2e/ui';

/** The bound for the browser: diagnostics within 20 s of opening. */
const WITHIN_MS = 20_000;

describe("web: the extension in code-server's web worker extension host", { timeout: 40 * 60_000 }, () => {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let workbench: Workbench | undefined;

  before(
    async () => {
      const tools = await ensureE2eTools();
      const vsix = await packageVsix();
      server = await CodeServer.start(tools, { vsix, settings: { 'remote.extensionKind': { [EXTENSION_ID]: ['web'] } } });
      browser = await launchBrowser(tools);
      workbench = await Workbench.open(server, browser);
    },
    { timeout: 35 * 60_000 },
  );

  after(async () => {
    await workbench?.close();
    await browser?.close();
    await server?.stop();
  });

  test('a set with an undefined group: the squiggle and the Problems entry, with no Node language server', async () => {
    const wb = workbench!;
    const opened = await wb.openFile(UNDEFINED_GROUP_FIXTURE);
    try {
      await wb.squiggles().first().waitFor({ state: 'visible', timeout: WITHIN_MS });
      await wb.showProblems();
      await wb.problemRows('PS5001').first().waitFor({ state: 'visible', timeout: WITHIN_MS });
    } catch (error) {
      throw new Error(`${(error as Error).message}; screenshot: ${await wb.screenshot('codeServerWebWorker')}`);
    }
    console.log(`# code-server, web worker extension host: squiggle and Problems entry ${Date.now() - opened} ms after opening`);
    // The diagnostics came from the worker: code-server started no Node server from the extension.
    assert.deepEqual(server!.languageServerPids(), [], 'no dist/server/server.js process under code-server');
  });
});
