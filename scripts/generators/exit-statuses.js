// The exit-status table of docs/cli.md (between its exit-statuses:start and exit-statuses:end markers), from
// the command registry: each command's `exitStatus`, exported beside its usage (server/src/cli/commands/).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const START = '<!-- exit-statuses:start -->';
const END = '<!-- exit-statuses:end -->';
const FILE = 'docs/cli.md';

exports.files = function files(root) {
  const { exitStatusTable } = require(path.join(root, 'server/out/cli/help.js'));
  const rows = exitStatusTable();
  const cell = (text) => (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const table = [
    '| Command | 0 | 1 | 2 |',
    '|---|---|---|---|',
    ...rows.map(({ command, statuses }) => `| \`${command}\` | ${cell(statuses[0])} | ${cell(statuses[1])} | ${cell(statuses[2])} |`),
  ].join('\n');
  const text = fs.readFileSync(path.join(root, FILE), 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${FILE} has no ${START} ... ${END} section`);
  return [
    {
      path: FILE,
      text: `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`,
      what: `the exit-status table of ${rows.length} commands`,
    },
  ];
};
