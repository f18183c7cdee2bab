// What the CLI knows about its own commands, read from the command registry (./commands) and each
// command's usage text, so that a command added there gets help, "did you mean" and shell completion
// without a line here: `policyset help <command>`, the hint after a usage error, the suggestions for a
// mistyped command, subcommand or option, and -o given a format name.
import { COMMANDS, MAIN_COMMAND } from './commands';
import type { CommandModule, ExitStatuses } from './command';
import { UsageError } from '../node/files';
import { closestMatch } from '../service/text';

/** The CLI's own usage (`policyset --help`, and `policyset lint --help`): the commands, then lint's usage. */
export function topUsage(): string {
  const others = Object.entries(COMMANDS).filter(([name]) => name !== MAIN_COMMAND);
  return `Usage: ${COMMANDS[MAIN_COMMAND].synopsis}
${others.map(([name, c]) => `       ${c.synopsis.padEnd(45)} (policyset ${name} --help)`).join('\n')}
       policyset help <command>                      (a command's options and examples)

${COMMANDS[MAIN_COMMAND].load().usage}`;
}

/** `policyset help`'s exit statuses (main answers it, and --help and --version, without a command module). */
export const HELP_EXIT_STATUS: ExitStatuses = { 0: 'done', 2: 'usage problems (an unknown command)' };

/**
 * Every command path with what its exit statuses mean, in the registry's order: a group's subcommands, and
 * a command that does two things (eventstream get|delete) once per thing. docs/cli.md's table is made of it.
 */
export function exitStatusTable(): Array<{ command: string; statuses: ExitStatuses }> {
  const rows: Array<{ command: string; statuses: ExitStatuses }> = [];
  const add = (command: string, module: CommandModule) => {
    const statuses = module.exitStatus;
    if (!statuses) throw new Error(`policyset ${command} says nothing of its exit statuses (export exitStatus beside its usage)`);
    if (isExitStatuses(statuses)) rows.push({ command, statuses });
    else for (const [word, each] of Object.entries(statuses)) rows.push({ command: `${command} ${word}`, statuses: each });
  };
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const module = entry.load();
    if (module.subcommands) for (const [sub, load] of Object.entries(module.subcommands)) add(`${name} ${sub}`, load());
    else add(name, module);
  }
  rows.push({ command: 'help', statuses: HELP_EXIT_STATUS });
  return rows;
}

function isExitStatuses(value: ExitStatuses | Record<string, ExitStatuses>): value is ExitStatuses {
  return typeof (value as ExitStatuses)[0] === 'string';
}

export function topLevelCommands(): string[] {
  return [...Object.keys(COMMANDS), 'help'];
}

function moduleOf(name: string): CommandModule | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name].load() : undefined;
}

/** The subcommands of a command: a group's (quota usage|calc|...) or the words its usage names after it (eventstream get|delete). */
export function subcommandsOf(name: string): string[] {
  const module = moduleOf(name);
  if (!module) return [];
  if (module.subcommands) return Object.keys(module.subcommands);
  const found = new Set<string>();
  const line = new RegExp(`^\\s*(?:Usage:)?\\s*policyset ${name} ([a-z][a-z-]*(?:\\|[a-z][a-z-]*)*)(?=\\s|$)`, 'gm');
  for (const match of module.usage.matchAll(line)) for (const word of match[1].split('|')) found.add(word);
  return [...found];
}

/** The usage text of `policyset <words>`: a subcommand's own when it has one, else the command's. */
export function usageOf(words: string[]): string | undefined {
  const [name, sub] = words;
  if (name === MAIN_COMMAND) return topUsage();
  const module = moduleOf(name);
  if (!module) return undefined;
  const subLoad = sub !== undefined && module.subcommands && Object.hasOwn(module.subcommands, sub) ? module.subcommands[sub] : undefined;
  return subLoad ? subLoad().usage : module.usage;
}

/** The command path a usage error belongs to ('quota usage', 'deploy', 'lint'), from the arguments. */
export function commandPathOf(argv: string[]): string | undefined {
  const [name, sub] = argv;
  if (name === undefined) return undefined;
  if (name === MAIN_COMMAND) return name;
  const module = moduleOf(name);
  if (!module) return undefined;
  if (sub !== undefined && module.subcommands && Object.hasOwn(module.subcommands, sub)) return `${name} ${sub}`;
  return name;
}

/** "Run 'policyset quota usage --help' for usage." for the command that went wrong. */
export function commandHelpHint(argv: string[]): string {
  const path = commandPathOf(argv);
  return `Run 'policyset ${path ? `${path} ` : ''}--help' for usage.`;
}

/** A usage error for an unknown command, with the nearest one. */
export function unknownCommand(name: string): UsageError {
  const near = closestMatch(name, topLevelCommands());
  return new UsageError(
    `unknown command '${name}'${near ? `; did you mean '${near}'?` : ''} (the commands: ${topLevelCommands().join(', ')})`,
  );
}

/** The options a usage text names (long ones, with their dashes). */
export function optionsIn(usage: string): string[] {
  return [...new Set([...usage.matchAll(/(?<![\w-])--(?:no-)?[a-z][a-z0-9-]*/g)].map((m) => m[0]))];
}

/** "; did you mean '--format'?" for an unknown option of the command the arguments name. */
export function suggestOption(option: string, argv: string[]): string {
  const path = commandPathOf(argv);
  const usage = path ? usageOf(path.split(' ')) : undefined;
  if (!usage || !option.startsWith('--')) return '';
  const near = closestMatch(option, optionsIn(usage));
  return near ? `; did you mean '${near}'?` : '';
}

/** Format names that -o (the output file) is often given by mistake, as in the az CLI's -o json. */
const FORMAT_NAMES = ['json', 'text', 'sarif', 'table', 'markdown', 'tsv', 'yaml', 'jsonc'];

/**
 * `-o json`: the user meant the format (az's habit), not a file named 'json'. Refused before anything
 * runs, so nothing is written; `-o ./json` still names a file.
 */
export function checkOutputIsNotFormat(argv: string[]): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return;
    let value: string | undefined;
    if (arg === '-o' || arg === '--output') value = argv[i + 1];
    else if (arg.startsWith('--output=')) value = arg.slice('--output='.length);
    else if (/^-o.+/.test(arg)) value = arg.slice(2).replace(/^=/, '');
    if (value !== undefined && FORMAT_NAMES.includes(value.toLowerCase())) {
      throw new UsageError(
        `-o ${value}: did you mean --format ${value.toLowerCase()}? (-o names the output file; for a file of that name write -o ./${value})`,
      );
    }
  }
}
