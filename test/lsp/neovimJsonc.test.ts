// docs/editor.md's Neovim configuration attaches to .jsonc files too (issue 31): the policy-as-code framework
// keeps its sets in .jsonc, which Neovim gives the filetype 'jsonc', not 'json'. The page's snippet, verbatim,
// with this checkout's server on PATH, gets diagnostics for a .jsonc set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../support/corpus';

function luaSnippet(): string {
  const page = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'editor.md'), 'utf8');
  const block = [...page.matchAll(/```lua\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('policyset-language-server'));
  assert.ok(block, 'docs/editor.md has no lua block that starts policyset-language-server');
  return block;
}

test(
  "docs/editor.md's Neovim configuration attaches to a .jsonc set and gets its diagnostics",
  {
    skip:
      spawnSync('nvim', ['--version']).status !== 0 &&
      'no nvim (scripts/ensure-neovim.sh installs it; test/cli/install.test.ts runs the snippet too)',
  },
  () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-nvim-jsonc-'));
    try {
      const bin = path.join(folder, 'bin');
      fs.mkdirSync(bin);
      const server = path.join(bin, 'policyset-language-server');
      fs.writeFileSync(
        server,
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'bin', 'policyset-language-server.js'))} "$@"\n`,
        { mode: 0o755 },
      );
      const result = path.join(folder, 'diagnostics.json');
      fs.writeFileSync(
        path.join(folder, 'init.lua'),
        luaSnippet() +
          `
local function report()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(found, { code = d.code, message = d.message }) end
  if #found == 0 then return false end
  local f = io.open(${JSON.stringify(result)}, 'w'); f:write(vim.fn.json_encode({ filetype = vim.bo.filetype, diagnostics = found })); f:close()
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
      // A set of the framework's shape, with a comment (JSONC) and a group name that is not declared.
      fs.writeFileSync(
        path.join(folder, 'set.jsonc'),
        `{
  // a comment: this file is JSONC
  "properties": {
    "displayName": "x",
    "policyDefinitionGroups": [{ "name": "Network" }],
    "policyDefinitions": [{ "policyDefinitionId": "/providers/Microsoft.Authorization/policyDefinitions/a", "groupNames": ["Netwrok"] }]
  }
}
`,
      );
      const env = {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        XDG_CONFIG_HOME: folder,
        XDG_DATA_HOME: folder,
        XDG_STATE_HOME: folder,
      };
      const nvim = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', path.join(folder, 'init.lua'), 'set.jsonc'], {
        cwd: folder,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.ok(fs.existsSync(result), `Neovim got no diagnostics for the .jsonc file (status ${nvim.status}): ${nvim.stderr}`);
      const got = JSON.parse(fs.readFileSync(result, 'utf8')) as {
        filetype: string;
        diagnostics: Array<{ code: string; message: string }>;
      };
      assert.equal(got.filetype, 'jsonc');
      const undeclared = got.diagnostics.find((d) => d.code === 'PS5001');
      assert.ok(undeclared, JSON.stringify(got));
      assert.match(undeclared.message, /Netwrok/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  },
);
