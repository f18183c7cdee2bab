// The CLI's main: routes the arguments to a command of the registry (./commands/index.ts) and turns what
// goes wrong into a message and exit status 2. It knows no command's options: lint is a command like the others.
import { UsageError, InputError } from '../node/files';
import { endQuietlyOnClosedPipes } from '../node/pipes';
import { COMMANDS } from './commands';
import type { CommandContext } from './command';
import {
  checkOutputIsNotFormat,
  commandHelpHint,
  subcommandsOf,
  suggestOption,
  topLevelCommands,
  topUsage,
  unknownCommand,
  usageOf,
} from './help';
import { shortMessage } from './messages';
import { cliVersion } from './version';

/** What main tells the commands about the CLI (completion reads it). */
const CONTEXT: CommandContext = { topLevelCommands, subcommandsOf, usageOf };

/** `policyset help [<command> [<subcommand>]]`: the command's own usage. */
function help(words: string[]): number {
  if (!words.length) {
    process.stdout.write(topUsage());
    return 0;
  }
  const usage = usageOf(words);
  if (usage === undefined) throw unknownCommand(words[0]);
  process.stdout.write(usage);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  // One mechanism for every command: output whose reader has gone (| head) ends quietly (node/pipes.ts).
  endQuietlyOnClosedPipes();
  try {
    const [command, ...rest] = argv;
    if (command === '-v' || command === '--version') {
      process.stdout.write(cliVersion() + '\n');
      return 0;
    }
    if (!command || command === '-h' || command === '--help') {
      process.stdout.write(topUsage());
      return command ? 0 : 2;
    }
    if (command === 'help') return help(rest.filter((w) => !w.startsWith('-')));
    checkOutputIsNotFormat(rest);
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!entry) throw unknownCommand(command);
    const module = entry.load();
    if (rest.includes('-h') || rest.includes('--help')) {
      process.stdout.write(usageOf(argv) ?? module.usage);
      return 0;
    }
    return await module.run(negativeValuesJoined(rest), process.env, CONTEXT);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`policyset: ${shortMessage(error.message)}\n${commandHelpHint(argv)}\n`);
      return 2;
    }
    if (error instanceof InputError) {
      process.stderr.write(`policyset: ${shortMessage(error.message)}\n`);
      return 2;
    }
    // parseArgs throws TypeErrors with codes for unknown or malformed options.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`policyset: ${shortMessage(parseArgsMessage(error as Error, argv))}\n${commandHelpHint(argv)}\n`);
      return 2;
    }
    process.stderr.write(`policyset: unexpected failure: ${shortMessage(error instanceof Error ? error.message : String(error))}\n`);
    return 2;
  }
}

/**
 * `--max-warnings -1` as the help writes it: a long option followed by a negative whole number takes it as its
 * value (`--max-warnings=-1`); parseArgs would read `-1` as an option of its own. No command takes a negative
 * number as an argument, so nothing else is read differently.
 */
export function negativeValuesJoined(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') return [...out, ...args.slice(i)];
    if (/^--[A-Za-z][\w-]*$/.test(args[i]) && /^-\d+$/.test(args[i + 1] ?? '')) {
      out.push(`${args[i]}=${args[i + 1]}`);
      i++;
    } else out.push(args[i]);
  }
  return out;
}

/** Node's parseArgs messages, in one clean line ("unknown option '--bogus'"). */
function parseArgsMessage(error: Error, argv: string[]): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown) return `unknown option '${unknown[1]}'${suggestOption(unknown[1], argv)}`;
  const missing = /^Option '([^']+)' argument missing/.exec(error.message);
  if (missing) return `option '${missing[1].replace(/^-\w, /, '')}' needs a value`;
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(error.message);
  if (ambiguous) {
    const flag = ambiguous[1].replace(/^-\w, /, '');
    return `option '${flag}' takes a value that starts with '-': write it as ${flag}=<value> (like ${flag}=-1)`;
  }
  return error.message.split('. ')[0].replace(/\.$/, '');
}
