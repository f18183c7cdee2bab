#!/usr/bin/env node
// Bundles the extension and the language server with esbuild, for the .vsix (`npm run package`).
// The server is bundled from its compiled output (server/out, after `npm run build`): the schema validators
// generated at build time sit there, and the schemas are inlined from schemas/. It lands in dist/server/ so
// that paths the server resolves from its own folder (`../../docs/rules`) point into the extension.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const esbuild = require('esbuild');
const SHARED = require('./esbuild-options');

const root = path.resolve(__dirname, '..');
const production = !process.argv.includes('--dev');

async function main() {
  const serverEntry = path.join(root, 'server/out/server.js');
  if (!fs.existsSync(serverEntry)) throw new Error('server/out/server.js is missing: run `npm run build` first');
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const common = { ...SHARED, sourcemap: !production, minify: production, metafile: true };
  const results = await Promise.all([
    esbuild.build({ ...common, entryPoints: [path.join(root, 'client/src/extension.ts')], outfile: path.join(root, 'dist/extension.js'), external: ['vscode'] }),
    esbuild.build({ ...common, entryPoints: [serverEntry], outfile: path.join(root, 'dist/server/server.js') }),
  ]);
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
