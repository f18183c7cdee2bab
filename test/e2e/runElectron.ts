// Runs the integration suite (test/e2e/suite, the run() contract) in a desktop VS Code downloaded by
// @vscode/test-electron, for machines that can download VS Code (not this project's CI: see E2E.md).
// Build and bundle first: `npm run build && npm run bundle && node test/out/e2e/runElectron.js`.
// The extension under test is this checkout (main: dist/extension.js, the bundles).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures');

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run `npm run bundle` first');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-e2e-electron-'));
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-e2e-electron-user-'));
  fs.cpSync(FIXTURES, workspace, { recursive: true });
  try {
    await runTests({
      version: process.env.POLICYSET_E2E_VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(__dirname, 'suite', 'index.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        userData,
      ],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`the e2e suite failed in VS Code (test-electron): ${error.message}`);
  process.exitCode = 1;
});
