// The package installs like a real CLI: `npm pack`, then `npm install -g` into a temporary prefix, and
// both bins work from a folder outside the checkout, with no dev dependencies pulled in. Needs the npm
// registry or npm's cache for the runtime dependencies (as `npm ci` does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../support/corpus';

/** The first fenced block of this language in docs/editor.md whose text includes `marker`. */
function readmeSnippet(language: string, marker: string): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'editor.md'), 'utf8');
  const blocks = [...readme.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
  const block = blocks.find((b) => b.includes(marker));
  assert.ok(block, `docs/editor.md has no ${language} block with ${marker}`);
  return block;
}

let work: string;
let prefix: string;
/** What `npm install -g` of the tarball printed. */
let installOutput: string;
let manifestBefore: string;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name: string) => path.join(prefix, 'bin', name);

before(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-install-'));
  prefix = path.join(work, 'prefix');
  // As docs/cli.md says: `npm pack` (its prepack builds and leaves the install-time scripts out of the packed
  // package.json, its postpack puts the checkout's back), then `npm install -g` of the tarball.
  manifestBefore = fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8');
  const pack = spawnSync(npm, ['pack', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 600_000 });
  assert.equal(pack.status, 0, pack.stderr);
  // The build's own lines share standard output with npm's: the tarball is found in the folder.
  const tarball = path.join(
    work,
    fs.readdirSync(work).find((name) => name.endsWith('.tgz'))!,
  );
  const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: work,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(install.status, 0, install.stderr);
  installOutput = install.stdout + install.stderr;
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

test("npm pack leaves the checkout's package.json as it was; the install says nothing of the package's own scripts", () => {
  assert.equal(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'), manifestBefore);
  assert.ok(!fs.existsSync(path.join(REPO_ROOT, 'package.json.before-pack')));
  const installed = JSON.parse(fs.readFileSync(path.join(prefix, 'lib', 'node_modules', 'policy-set-tools', 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  for (const name of ['preinstall', 'install', 'postinstall', 'prepare'])
    assert.ok(!installed.scripts?.[name], `the packed package.json has a ${name} script`);
  assert.doesNotMatch(installOutput, /policy-set-tools@[^\s]* \(|install-scripts|allow-scripts/, installOutput);
});

test('the packed tarball holds what runs, not the tests or sources', () => {
  const installed = path.join(prefix, 'lib', 'node_modules', 'policy-set-tools');
  assert.ok(fs.existsSync(path.join(installed, 'server', 'out', 'cli', 'main.js')));
  assert.ok(fs.existsSync(path.join(installed, 'server', 'out', 'cli', 'bundle.js')), 'the CLI bundle, which bin/policyset.js runs');
  assert.ok(!fs.existsSync(path.join(installed, 'server', 'tsconfig.tsbuildinfo')));
  assert.ok(fs.existsSync(path.join(installed, 'LICENSE')));
  assert.ok(fs.existsSync(path.join(installed, 'THIRD-PARTY-NOTICES.md')), 'the notice of the bundled alias data');
  assert.ok(!fs.existsSync(path.join(installed, 'test')));
  assert.ok(!fs.existsSync(path.join(installed, 'server', 'src')));
  const deps = fs.readdirSync(path.join(installed, 'node_modules'));
  for (const dev of ['typescript', 'eslint', 'mockttp', 'playwright-core'])
    assert.ok(!deps.includes(dev), `dev dependency ${dev} installed`);
  assert.ok(deps.includes('ajv'));
});

test('policyset lints from a folder outside the checkout', () => {
  const folder = fs.mkdtempSync(path.join(work, 'elsewhere-'));
  fs.writeFileSync(path.join(folder, 'set.json'), JSON.stringify({ properties: { displayName: 'x', policyDefinition: [] } }, null, 2));
  const result = spawnSync(bin('policyset'), ['lint', 'set.json', '--no-color'], { cwd: folder, encoding: 'utf8' });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /Did you mean 'policyDefinitions'\?/);
  const version = spawnSync(bin('policyset'), ['--version'], { cwd: folder, encoding: 'utf8' });
  assert.equal(
    version.stdout.trim(),
    (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
});

test('policyset-language-server answers initialize over stdio from a folder outside the checkout', async () => {
  const folder = fs.mkdtempSync(path.join(work, 'lsp-'));
  const child = spawn(bin('policyset-language-server'), ['--stdio'], { cwd: folder, stdio: ['pipe', 'pipe', 'pipe'] });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { processId: null, rootUri: null, capabilities: {} },
  });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  const answer = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no answer to initialize: ${out}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"id":1')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
  });
  child.kill();
  assert.match(answer, /"capabilities"/);
  assert.match(answer, /"completionProvider"/);
});

test("docs/editor.md's Neovim configuration, verbatim, gets diagnostics from the installed server", async () => {
  // scripts/ensure-neovim.sh installs Debian's Neovim when missing (test/lsp/neovim.test.ts does the same).
  if (spawnSync('nvim', ['--version']).status !== 0) {
    const install = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'ensure-neovim.sh')], { encoding: 'utf8', timeout: 600_000 });
    assert.equal(install.status, 0, install.stderr);
  }
  const folder = fs.mkdtempSync(path.join(work, 'nvim-'));
  const init = path.join(folder, 'init.lua');
  const result = path.join(folder, 'diagnostics.json');
  // The page's snippet as it stands, then a few lines that write what Neovim got and quit.
  fs.writeFileSync(
    init,
    readmeSnippet('lua', 'policyset-language-server') +
      `
local function report()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(found, { lnum = d.lnum, code = d.code, message = d.message }) end
  if #found == 0 then return false end
  local f = io.open(${JSON.stringify(result)}, 'w'); f:write(vim.fn.json_encode(found)); f:close()
  return true
end
local tries = 0
local function poll()
  tries = tries + 1
  if report() or tries > 100 then vim.cmd('qa!') else vim.defer_fn(poll, 200) end
end
vim.defer_fn(poll, 200)
`,
  );
  const set = {
    properties: {
      displayName: 'x',
      policyDefinitionGroups: [{ name: 'Network' }],
      policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a', groupNames: ['Netwrok'] }],
    },
  };
  fs.writeFileSync(path.join(folder, 'set.json'), JSON.stringify(set, null, 2));
  const env = {
    ...process.env,
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: folder,
    XDG_DATA_HOME: folder,
    XDG_STATE_HOME: folder,
  };
  const nvim = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', init, 'set.json'], {
    cwd: folder,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.ok(fs.existsSync(result), `Neovim got no diagnostics (status ${nvim.status}): ${nvim.stderr}`);
  const diagnostics = JSON.parse(fs.readFileSync(result, 'utf8')) as Array<{ lnum: number; code: string; message: string }>;
  const undeclared = diagnostics.find((d) => d.code === 'PS5001');
  assert.ok(undeclared, JSON.stringify(diagnostics));
  assert.match(undeclared.message, /Netwrok/);
});

test("docs/editor.md's Emacs eglot configuration, verbatim, gets diagnostics from the installed server", () => {
  // scripts/ensure-emacs.sh installs Debian's emacs-nox and elpa-eglot when missing.
  const install = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'ensure-emacs.sh')], { encoding: 'utf8', timeout: 600_000 });
  assert.equal(install.status, 0, install.stderr);
  const folder = fs.mkdtempSync(path.join(work, 'emacs-'));
  fs.writeFileSync(path.join(folder, 'init.el'), readmeSnippet('elisp', 'policyset-language-server'));
  // What a person would see: open the file, let eglot connect, read flymake's diagnostics.
  fs.writeFileSync(
    path.join(folder, 'check.el'),
    `(find-file "set.json")
(run-hooks 'post-command-hook)
(let ((n 0))
  (while (and (< n 150) (null (flymake-diagnostics)))
    (accept-process-output nil 0.2)
    (setq n (1+ n))))
(let ((found (mapcar (lambda (d) (format "%d %s" (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d))) (flymake-diagnostics))))
  (with-temp-file "diagnostics.txt" (dolist (line found) (insert line "\\n"))))
(kill-emacs 0)
`,
  );
  const set = {
    properties: {
      displayName: 'x',
      policyDefinitionGroups: [{ name: 'Network' }],
      policyDefinitions: [{ policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a', groupNames: ['Netwrok'] }],
    },
  };
  fs.writeFileSync(path.join(folder, 'set.json'), JSON.stringify(set, null, 2));
  // HOME is the test folder, so no one's own Emacs configuration takes part.
  const env = { ...process.env, HOME: folder, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  const emacs = spawnSync('emacs', ['--batch', '-l', 'init.el', '-l', 'check.el'], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
  const file = path.join(folder, 'diagnostics.txt');
  assert.ok(fs.existsSync(file), `Emacs wrote nothing (status ${emacs.status}): ${emacs.stderr}`);
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const undeclared = lines.find((l) => l.includes('PS5001'));
  assert.ok(undeclared, `eglot got: ${lines.join(' | ')}; ${emacs.stderr}`);
  assert.match(undeclared, /Netwrok/);
});
