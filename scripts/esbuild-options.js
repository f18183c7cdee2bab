// The esbuild options both bundles share: the CLI's (build-cli.js) and the .vsix's (bundle.js).
'use strict';
module.exports = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  // jsonc-parser and vscode-json-languageservice ship UMD builds whose dynamic requires a bundler cannot follow: take their ES modules.
  mainFields: ['module', 'main'],
};
