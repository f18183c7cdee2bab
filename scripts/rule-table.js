#!/usr/bin/env node
// The rule table of docs/rules/README.md is generated from the rule registry. `--check` fails when it is stale
// (npm test runs it); without it, the table is rewritten.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { RULES } = require('../server/out/service/index.js');

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';
const readme = path.join(__dirname, '..', 'docs', 'rules', 'README.md');
const NAME = 'docs/rules/README.md';

const escape = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  '| Code | Rule | Default | What it reports |',
  '|---|---|---|---|',
  ...RULES.map((r) => `| ${r.meta.code} | [${r.meta.name}](${r.meta.name}.md) | ${r.meta.defaultSeverity} | ${escape(r.meta.description)} |`),
].join('\n');

const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < 0) {
  console.error(`${NAME} has no ${START} ... ${END} section`);
  process.exit(1);
}
const updated = `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`;
if (process.argv.includes('--check')) {
  if (updated !== text) {
    console.error(`${NAME}: the rule table is out of date. Run node scripts/rule-table.js and commit the result.`);
    process.exit(1);
  }
  console.log(`${NAME}: the rule table lists all ${RULES.length} rules.`);
} else {
  fs.writeFileSync(readme, updated);
  console.log(`${NAME}: wrote the table of ${RULES.length} rules.`);
}
