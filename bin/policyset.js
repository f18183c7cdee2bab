#!/usr/bin/env node
'use strict';
// The CLI's bundle (server/out/cli/bundle.js, made by scripts/build-cli.js) run with V8's code cache
// (server/out/node/compileCache.js). The compiled modules (server/out/cli/main.js) when there is no bundle, when
// the bundle is older than the last `tsc -b` (a developer's compile that did not bundle), or with
// POLICYSET_NO_BUNDLE=1.
const path = require('node:path');

const out = path.join(__dirname, '..', 'server', 'out');
const { bundleIsCurrent, requireWithCompileCache } = require(path.join(out, 'node', 'compileCache.js'));
const bundle = path.join(out, 'cli', 'bundle.js');

let cached;
let cli;
if (bundleIsCurrent(bundle, path.join(out, '..', 'tsconfig.tsbuildinfo'))) {
  cached = requireWithCompileCache(bundle);
  cli = cached.exports;
} else {
  cli = require(path.join(out, 'cli', 'main.js'));
}
cli.main(process.argv.slice(2)).then((code) => {
  // A failed write of the output (not a closed pipe: see server/src/node/pipes.ts) has already set 2.
  if (!process.exitCode) process.exitCode = code;
  if (cached) cached.save();
});
