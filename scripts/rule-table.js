#!/usr/bin/env node
// The README's rule table is generated from the rule registry. `--check` fails when the README is stale
// (npm test runs it); without it, the table in README.md is rewritten.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { RULES } = require('../server/out/service/index.js');

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';
const readme = path.join(__dirname, '..', 'README.md');

const escape = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  '| Code | Rule | Default | What it reports |',
  '|---|---|---|---|',
  ...RULES.map((r) => `| ${r.meta.code} | [${r.meta.name}](docs/rules/${r.meta.name}.md) | ${r.meta.defaultSeverity} | ${escape(r.meta.description)} |`),
].join('\n');

const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < 0) {
  console.error(`README.md has no ${START} ... ${END} section`);
  process.exit(1);
}
const updated = `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`;
if (process.argv.includes('--check')) {
  if (updated !== text) {
    console.error('README.md: the rule table is out of date. Run `node scripts/rule-table.js` and commit the result.');
    process.exit(1);
  }
  console.log(`README.md: the rule table lists all ${RULES.length} rules.`);
} else {
  fs.writeFileSync(readme, updated);
  console.log(`README.md: wrote the table of ${RULES.length} rules.`);
}
