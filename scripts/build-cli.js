#!/usr/bin/env node
// Bundles the CLI into one file (server/out/cli/bundle.js) after `tsc -b` and build-validators: a lint
// then loads one file instead of some 150 modules, and bin/policyset.js runs it with V8's code cache
// (server/out/node/compileCache.js). bin/policyset.js falls back to server/out/cli/main.js when the bundle is
// missing or older than the last compile. The language server the same way: server/out/server.bundle.js,
// run by bin/policyset-language-server.js (beside server.js, so that the paths it resolves from its own
// folder are the same). The options scripts/bundle.js uses too (esbuild-options.js),
// without minifying, so that stack traces keep their names.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const bundles = [
  { entry: path.join(root, 'server/out/cli/main.js'), outfile: path.join(root, 'server/out/cli/bundle.js') },
  // A long-lived process holds its source: whitespace and syntax minified (half the size), names kept for stack traces.
  {
    entry: path.join(root, 'server/out/server.js'),
    outfile: path.join(root, 'server/out/server.bundle.js'),
    minifyWhitespace: true,
    minifySyntax: true,
  },
];

Promise.all(
  bundles.map(({ entry, outfile, ...options }) =>
    esbuild
      .build({ ...require('./esbuild-options'), entryPoints: [entry], outfile, ...options })
      .then(() => console.log(`wrote ${path.relative(process.cwd(), outfile)} (${Math.round(fs.statSync(outfile).size / 1024)} KiB)`)),
  ),
).catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
