// What the CLI knows about its own commands, read from the command registry (./commands) and each
// command's usage text, so that a command added there gets help, "did you mean" and shell completion
// without a line here: `policyset help <command>`, the hint after a usage error, the suggestions for a
// mistyped command, subcommand or option, and -o given a format name.
import { COMMANDS, type CommandModule } from './commands';
import { UsageError } from '../node/files';

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment): typed names go
 * wrong by swaps ('qouta', 'usgae') as often as by a wrong letter.
 */
function typoDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidate a mistyped command, subcommand or option most likely meant, if one is near enough. */
export function closestMatch(value: string, candidates: Iterable<string>): string | undefined {
  const lower = value.toLowerCase();
  const max = Math.max(1, Math.floor(value.replace(/^-+/, '').length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    const distance = typoDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** A command as help sees it: `lint` (whose usage lives in cli.ts) and every registered one. */
export interface CommandInfo {
  /** 'lint', 'quota usage', 'eventstream get' ... */
  path: string;
  usage: string;
}

let lintUsage = '';
/** cli.ts gives the lint usage (lint is not in the registry: it is the CLI's own default face). */
export function setLintUsage(usage: string): void {
  lintUsage = usage;
}

export function topLevelCommands(): string[] {
  return ['lint', ...Object.keys(COMMANDS), 'help'];
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
  if (name === 'lint') return lintUsage;
  const module = moduleOf(name);
  if (!module) return undefined;
  const subLoad = sub !== undefined && module.subcommands && Object.hasOwn(module.subcommands, sub) ? module.subcommands[sub] : undefined;
  return subLoad ? subLoad().usage : module.usage;
}

/** The command path a usage error belongs to ('quota usage', 'deploy', 'lint'), from the arguments. */
export function commandPathOf(argv: string[]): string | undefined {
  const [name, sub] = argv;
  if (name === undefined) return undefined;
  if (name === 'lint') return 'lint';
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
  return new UsageError(`unknown command '${name}'${near ? `; did you mean '${near}'?` : ''} (the commands: ${topLevelCommands().join(', ')})`);
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
      throw new UsageError(`-o ${value}: did you mean --format ${value.toLowerCase()}? (-o names the output file; for a file of that name write -o ./${value})`);
    }
  }
}
