#!/usr/bin/env node
// Bundles the CLI into one file (server/out/cli/bundle.js) after `tsc -b` and build-validators: a lint
// then loads one file instead of some 150 modules, and bin/policyset.js runs it with V8's code cache
// (server/out/node/compileCache.js). bin/policyset.js falls back to server/out/cli.js when the bundle is
// missing or older than the last compile. The options scripts/bundle.js uses too (esbuild-options.js),
// without minifying, so that stack traces keep their names.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'server/out/cli.js');
const outfile = path.join(root, 'server/out/cli/bundle.js');

esbuild
  .build({
    ...require('./esbuild-options'),
    entryPoints: [entry],
    outfile,
  })
  .then(() => console.log(`wrote ${path.relative(process.cwd(), outfile)} (${Math.round(fs.statSync(outfile).size / 1024)} KiB)`))
  .catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
