// Each command's exit statuses are data beside its usage (server/src/cli/commands/*.ts `exitStatus`):
// docs/cli.md's table is generated from them (scripts/generators/exit-statuses.js), and here they are held
// to what each command's --help says, and to the commands the CLI has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exitStatusTable, subcommandsOf, topLevelCommands, usageOf } from '#server/cli/help';

const root = path.join(__dirname, '..', '..', '..');
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The "Exit status: ..." paragraph of a usage text, on one line. */
function exitParagraph(usage: string): string {
  const match = /(?:^|\n)(Exit status:[\s\S]*?)(?=\n\n|\n*$)/.exec(usage);
  assert.ok(match, 'the usage has an "Exit status:" paragraph');
  return fold(match[1]);
}

test('every command path has exit statuses, and its --help says each of them in the same words', () => {
  const rows = exitStatusTable();
  const paths = rows.map((r) => r.command);
  for (const name of topLevelCommands()) {
    const subs = subcommandsOf(name);
    // A row for the command, or one for each of its subcommands (a shell's name is no subcommand of completion).
    const each = subs.length > 0 && subs.every((sub) => paths.includes(`${name} ${sub}`));
    assert.ok(each || paths.includes(name), `${name} is in the table`);
  }
  for (const { command, statuses } of rows) {
    if (command === 'help') continue;
    const paragraph = exitParagraph(usageOf(command.split(' ')) ?? '');
    for (const code of [0, 1, 2] as const) {
      const meaning = statuses[code];
      // eventstream get has no 1 of its own, but its usage is the one of get and delete.
      if (meaning === undefined) {
        if (command !== 'eventstream get')
          assert.doesNotMatch(paragraph, new RegExp(`[:,;] ${code} `), `${command}: --help names no exit status ${code}`);
        continue;
      }
      assert.ok(paragraph.includes(`${code} ${meaning}`), `${command}: '${code} ${meaning}' in: ${paragraph}`);
    }
  }
});

test("docs/cli.md's table is the generated one, a row per command", () => {
  const text = fs.readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
  const section = text.slice(text.indexOf('<!-- exit-statuses:start -->'), text.indexOf('<!-- exit-statuses:end -->'));
  for (const { command, statuses } of exitStatusTable()) {
    assert.ok(section.includes(`| \`${command}\` | ${statuses[0]} | ${statuses[1] ?? ''} | ${statuses[2]} |`), `the row of ${command}`);
  }
  for (const missing of ['diff', 'quota where', 'model apply', 'lint', 'eventstream delete'])
    assert.match(section, new RegExp(`\\| \`${missing}\` \\|`));
});
