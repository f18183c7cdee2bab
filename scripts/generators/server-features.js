// The "Features" row of server/README.md's contract, from the language server's feature list
// (server/src/lsp/features.ts: the same list its capabilities are made from).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const FILE = 'server/README.md';
const ROW = /^\| Features \| .* \|$/m;

exports.files = function files(root) {
  const { FEATURES, featuresReadme } = require(path.join(root, 'server/out/lsp/features.js'));
  const text = fs.readFileSync(path.join(root, FILE), 'utf8');
  if (!ROW.test(text)) throw new Error(`${FILE} has no "| Features | ... |" row`);
  return [
    { path: FILE, text: text.replace(ROW, () => `| Features | ${featuresReadme()} |`), what: `the ${FEATURES.length} language features` },
  ];
};
