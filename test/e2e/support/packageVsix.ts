import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../support/corpus';
import { E2E_CACHE } from './install';

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (exit code ${code}):\n${output}`))));
  });
}

/**
 * Bundles and packages the extension as `npm run package` does (after `npm run build`), into the e2e cache:
 * the e2e tests install this very .vsix.
 */
export async function packageVsix(): Promise<string> {
  const out = path.join(E2E_CACHE, 'policy-set-tools.vsix');
  fs.mkdirSync(E2E_CACHE, { recursive: true });
  fs.rmSync(out, { force: true });
  await run([path.join(REPO_ROOT, 'scripts', 'bundle.js')]);
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  // The options (no dependencies: the bundles hold them; the Marketplace page) are package.json's "vsce".
  await run([vsce, 'package', '--out', out]);
  return out;
}
