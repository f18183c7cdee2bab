// The rule table of docs/rules/README.md, from the rule registry (between its rules:start and rules:end markers).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';
const FILE = 'docs/rules/README.md';

exports.files = function files(root) {
  const { RULES } = require(path.join(root, 'server/out/service/index.js'));
  const escape = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const table = [
    '| Code | Rule | Default | What it reports |',
    '|---|---|---|---|',
    ...RULES.map(
      (r) => `| ${r.meta.code} | [${r.meta.name}](${r.meta.name}.md) | ${r.meta.defaultSeverity} | ${escape(r.meta.description)} |`,
    ),
  ].join('\n');
  const text = fs.readFileSync(path.join(root, FILE), 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${FILE} has no ${START} ... ${END} section`);
  return [
    {
      path: FILE,
      text: `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`,
      what: `the table of ${RULES.length} rules`,
    },
  ];
};
