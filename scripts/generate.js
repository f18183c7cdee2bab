#!/usr/bin/env node
// Every generated file of the repository, from the built code (run `npm run build` first): each module in
// scripts/generators/ exports `files(root)`, the files it owns as { path, text, what }. `npm run generate`
// rewrites what changed; `--check` (run by `npm test`) fails, naming the file, when one is stale.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const check = process.argv.includes('--check');
const dir = path.join(__dirname, 'generators');
let stale = 0;
for (const name of fs
  .readdirSync(dir)
  .filter((n) => n.endsWith('.js'))
  .sort()) {
  for (const file of require(path.join(dir, name)).files(root)) {
    const target = path.join(root, file.path);
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
    if (current === file.text) {
      console.log(`${file.path}: up to date (${file.what}).`);
    } else if (check) {
      console.error(`${file.path}: out of date (${file.what}). Run npm run generate and commit the result.`);
      stale++;
    } else {
      fs.writeFileSync(target, file.text);
      console.log(`${file.path}: written (${file.what}).`);
    }
  }
}
if (stale) process.exitCode = 1;
