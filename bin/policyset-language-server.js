#!/usr/bin/env node
'use strict';
// Usage: policyset-language-server --stdio
// The server's bundle (server/out/server.bundle.js, made by scripts/build-cli.js) run with V8's code cache
// (server/out/node/compileCache.js), as the CLI runs its own; the compiled modules (server/out/server.js)
// when there is no bundle, when it is older than the last `tsc -b`, or with POLICYSET_NO_BUNDLE=1.
const path = require('node:path');

const out = path.join(__dirname, '..', 'server', 'out');
const { bundleIsCurrent, requireWithCompileCache } = require(path.join(out, 'node', 'compileCache.js'));
const bundle = path.join(out, 'server.bundle.js');
/** The code compiled by then (start-up, the first documents' checks, the first requests) is stored for the next start. */
const SAVE_CACHE_AFTER_MS = 10000;

if (bundleIsCurrent(bundle, path.join(out, '..', 'tsconfig.tsbuildinfo'))) {
  const cached = requireWithCompileCache(bundle);
  let saved = false;
  const save = () => {
    if (!saved) cached.save();
    saved = true;
  };
  // After a while, or at exit if that comes first (the editor's `exit`; writing is synchronous).
  setTimeout(save, SAVE_CACHE_AFTER_MS).unref();
  process.on('exit', save);
} else {
  require(path.join(out, 'server.js'));
}
