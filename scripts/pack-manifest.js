#!/usr/bin/env node
'use strict';
// The package.json that `npm pack` puts in the tarball carries no install-time scripts: the tarball ships
// built files (npm pack builds first, in prepack), so nothing has to run when it is installed, and npm says
// nothing about the package's own scripts on `npm install -g ./policy-set-tools-*.tgz`. The checkout keeps
// its `prepare` (npm ci builds).
//
//   node scripts/pack-manifest.js strip     (prepack)  keeps package.json byte for byte in
//                                                       package.json.before-pack and writes it without them
//   node scripts/pack-manifest.js restore   (postpack) puts the kept one back
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const manifest = path.join(root, 'package.json');
const kept = path.join(root, 'package.json.before-pack');
/** The scripts npm runs when a package is installed (npm's allowScripts advisory lists these). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

function strip() {
  // A kept copy from a pack that stopped halfway is the true one: restore it before stripping again.
  if (fs.existsSync(kept)) restore();
  const text = fs.readFileSync(manifest, 'utf8');
  const json = JSON.parse(text);
  const removed = INSTALL_SCRIPTS.filter((name) => json.scripts && name in json.scripts);
  for (const name of removed) delete json.scripts[name];
  fs.writeFileSync(kept, text);
  fs.writeFileSync(manifest, JSON.stringify(json, null, 2) + '\n');
  if (removed.length)
    console.error(`pack-manifest: the packed package.json leaves out ${removed.join(', ')} (the tarball holds the build)`);
}

function restore() {
  if (!fs.existsSync(kept)) return;
  fs.copyFileSync(kept, manifest);
  fs.rmSync(kept);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  console.error('usage: node scripts/pack-manifest.js strip|restore');
  process.exitCode = 2;
}
