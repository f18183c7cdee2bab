#!/usr/bin/env node
// Bundles the extension, the language server and the CLI (for `policyset mcp`) with esbuild, for the .vsix (`npm run package`).
// The server is bundled from its compiled output (server/out, after `npm run build`): the schema validators
// generated at build time sit there, and the schemas are inlined from schemas/. It lands in dist/server/ so
// that paths the server resolves from its own folder (`../../docs/rules`) point into the extension.
// The web build (package.json `browser`: VS Code for the Web) lands in dist/browser/: the extension for the
// web worker extension host and the language server for a Web Worker, type-checked with a browser's types
// first. `--web` builds only those (`npm run build` does, for the web tests).
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const esbuild = require('esbuild');
const SHARED = require('./esbuild-options');

const root = path.resolve(__dirname, '..');
const production = !process.argv.includes('--dev');
const webOnly = process.argv.includes('--web');

/**
 * Builds in memory and writes each output by a rename: tests that load the bundles (the web suite, the e2e
 * tests' packaging) may run beside a build, and never see a file half written or missing.
 */
async function build(options) {
  const result = await esbuild.build({ ...options, write: false });
  for (const file of result.outputFiles) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  return result;
}

/** The web bundles: browser platform, no Node built-in (esbuild fails on one), the server one self-contained script. */
async function bundleWeb(common) {
  const serverEntry = path.join(root, 'server/out/lsp/browser/server.js');
  if (!fs.existsSync(serverEntry)) throw new Error('server/out/lsp/browser/server.js is missing: run `npx tsc -b` first');
  // esbuild does not type-check: tsc does, with a browser's types and no Node types.
  const tsc = require.resolve('typescript/bin/tsc');
  for (const project of ['client/tsconfig.web.json', 'server/tsconfig.web.json']) {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, project)], { stdio: 'inherit' });
  }
  const web = { ...common, platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'] };
  // The extension's service commands share the api layer with the desktop and the CLI: its Node transport and
  // loopback sign-in import Node's http, https and crypto, which the browser never reaches (calls go over fetch,
  // sign-in through VS Code): they are replaced by a module that says so. Any other Node module fails the build.
  const unavailable = path.join(root, 'client/src/browser/nodeUnavailable.ts');
  const nodeUnavailable = {
    name: 'node-unavailable',
    setup(build) {
      build.onResolve({ filter: /^node:(http|https|crypto)$/ }, () => ({ path: unavailable }));
    },
  };
  return Promise.all([
    // The web worker extension host loads the extension as a CommonJS module (`exports.activate`).
    build({
      ...web,
      format: 'cjs',
      entryPoints: [path.join(root, 'client/src/browser/extension.ts')],
      outfile: path.join(root, 'dist/browser/extension.js'),
      external: ['vscode'],
      plugins: [nodeUnavailable],
      // The settings' environment fallbacks (POLICYSET_BASE_URL, ...) have no environment in a browser.
      define: { 'process.env': '{}' },
    }),
    build({ ...web, format: 'iife', entryPoints: [serverEntry], outfile: path.join(root, 'dist/browser/server.js') }),
  ]);
}

/** The entry of dist/server/cli/mcp.js: the mcp command run as the CLI's main runs it (a usage or input problem: one line, exit 2). */
const MCP_ENTRY = `
const { run } = require('./server/out/cli/commands/mcp.js');
run(process.argv.slice(2)).then(
  (code) => { if (!process.exitCode) process.exitCode = code; },
  (error) => { process.stderr.write('policyset mcp: ' + (error && error.message) + '\\n'); process.exitCode = 2; },
);
`;

async function main() {
  const common = { ...SHARED, sourcemap: !production, minify: production, metafile: true };
  const results = [];
  if (!webOnly) {
    const serverEntry = path.join(root, 'server/out/server.js');
    if (!fs.existsSync(serverEntry)) throw new Error('server/out/server.js is missing: run `npm run build` first');
    results.push(
      ...(await Promise.all([
        build({
          ...common,
          entryPoints: [path.join(root, 'client/src/extension.ts')],
          outfile: path.join(root, 'dist/extension.js'),
          external: ['vscode'],
        }),
        build({ ...common, entryPoints: [serverEntry], outfile: path.join(root, 'dist/server/server.js') }),
        // `policyset mcp` alone (not the whole CLI: 0.3 MB instead of 0.8), for the MCP server the extension offers
        // VS Code (client/src/languageModelTools.ts): in dist/server/cli/ so that the rule pages it reads from its
        // folder (`../../../docs/rules`) are the extension's.
        build({
          ...common,
          stdin: { contents: MCP_ENTRY, resolveDir: root, sourcefile: 'mcp.js' },
          outfile: path.join(root, 'dist/server/cli/mcp.js'),
        }),
      ])),
    );
  }
  results.push(...(await bundleWeb(common)));
  for (const result of results) {
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (!file.endsWith('.map')) console.log(`${file}  ${Math.round(output.bytes / 1024)} KiB`);
    }
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
