import { parseArgs } from 'node:util';
import { RULES } from '../../service';
import { CLOUDS } from '../../service/config';
import { UsageError } from '../../node/files';
import { closestMatch } from '../../service/text';
import type { CommandContext } from '../command';
import type { ExitStatuses } from '../command';

export const usage = `Usage: policyset completion bash|zsh|fish

Prints a shell completion script for policyset: commands, subcommands, options, the values of options
that have a fixed set (formats, severities, clouds, rule codes) and file paths. It is made from the
commands this policyset has, so print it again after an upgrade.

Examples:
  source <(policyset completion bash)                           # this shell
  policyset completion bash > ~/.local/share/bash-completion/completions/policyset
  policyset completion zsh > "\${fpath[1]}/_policyset"           # zsh (uses bashcompinit)
  policyset completion fish > ~/.config/fish/completions/policyset.fish

Exit status: 0 done, 2 usage problems.
`;

/** What each exit status means (the usage's last line says the same; docs/cli.md's table is made of it). */
export const exitStatus: ExitStatuses = { 0: 'done', 2: 'usage problems' };

const SHELLS = ['bash', 'zsh', 'fish'];
const SEVERITIES = ['error', 'warning', 'info', 'hint', 'off'];

/** What completion knows about one command path ('lint', 'quota usage'). */
interface CommandSpec {
  path: string;
  options: string[];
  /** Options followed by a value: the fixed values, 'file' for a path, or [] for free text. */
  values: Record<string, string[] | 'file'>;
}

/** The options a usage text shows, and what each takes. */
export function specOf(path: string, usage: string): CommandSpec {
  const options = new Set<string>();
  const values: CommandSpec['values'] = {};
  for (const match of usage.matchAll(/(?<![\w-])(-[a-z], )?(--[a-z][a-z0-9-]*)(?:[ =]("?<[^>]+>"?(?:=<[^>]+>)?|[a-z]+(?:\|[a-z]+)+))?/g)) {
    const [, short, long, placeholder] = match;
    options.add(long);
    if (short) options.add(short.slice(0, 2));
    if (!placeholder || long === '--help' || long === '--version') continue;
    let taken: string[] | 'file';
    const fixed = /^<?([a-z]+(?:\|[a-z]+)+)>?$/.exec(placeholder);
    if (long === '--rule') taken = RULES.map((r) => `${r.meta.code}=`);
    else if (long === '--cloud') taken = [...CLOUDS];
    else if (long === '--min-severity') taken = SEVERITIES.filter((s) => s !== 'off');
    else if (fixed) taken = fixed[1].split('|');
    else if (/file|path|folder|definitions|json/i.test(placeholder)) taken = 'file';
    else taken = [];
    values[long] = taken;
    if (short) values[short.slice(0, 2)] = taken;
  }
  options.add('--help');
  return { path, options: [...options].sort(), values };
}

/** Every command path with its options, read from the command registry and each usage text. */
export function commandSpecs({ topLevelCommands, subcommandsOf, usageOf }: CommandContext): {
  commands: string[];
  subcommands: Record<string, string[]>;
  specs: CommandSpec[];
} {
  const commands = topLevelCommands();
  const subcommands: Record<string, string[]> = {};
  const specs: CommandSpec[] = [];
  for (const name of commands) {
    if (name === 'help') {
      subcommands.help = commands.filter((c) => c !== 'help');
      continue;
    }
    const subs = subcommandsOf(name);
    if (subs.length) subcommands[name] = subs;
    specs.push(specOf(name, usageOf([name]) ?? ''));
    for (const sub of subs) specs.push(specOf(`${name} ${sub}`, usageOf([name, sub]) ?? ''));
  }
  subcommands.completion = SHELLS;
  return { commands, subcommands, specs };
}

const quote = (words: string[]) => `'${words.join(' ').replace(/'/g, '')}'`;

function bashScript(cli: CommandContext, zsh: boolean): string {
  const { commands, subcommands, specs } = commandSpecs(cli);
  const lines: string[] = [];
  lines.push(`# policyset completion for ${zsh ? 'zsh' : 'bash'}: made by 'policyset completion ${zsh ? 'zsh' : 'bash'}'`);
  // zsh runs the bash function through bashcompinit (as the az CLI's zsh completion does); compinit first when the user's .zshrc did not.
  if (zsh)
    lines.push('(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }', 'autoload -U +X bashcompinit && bashcompinit');
  lines.push('_policyset_subcommands() {', '  case "$1" in');
  for (const [name, subs] of Object.entries(subcommands)) lines.push(`    ${name}) echo ${quote(subs)} ;;`);
  lines.push('  esac', '}');
  lines.push('_policyset_options() {', '  case "$1" in');
  for (const spec of specs) lines.push(`    ${quote([spec.path])}) echo ${quote(spec.options)} ;;`);
  lines.push('  esac', '}');
  // Per command path and option: 'file', the fixed values, or nothing (free text).
  lines.push('_policyset_values() {', '  case "$1|$2" in');
  const seen = new Set<string>();
  for (const spec of specs) {
    for (const [option, taken] of Object.entries(spec.values)) {
      const key = `${spec.path}|${option}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(`    ${quote([key])}) echo ${taken === 'file' ? 'file' : quote(['values', ...taken])} ;;`);
    }
  }
  lines.push('  esac', '}');
  lines.push(
    '_policyset() {',
    '  local cur prev cmd="" sub="" i w o=0',
    '  # zsh (bashcompinit) counts COMP_CWORD from 0 but its arrays from 1.',
    '  [[ -n "${ZSH_VERSION-}" ]] && o=1',
    '  cur="${COMP_WORDS[COMP_CWORD+o]}"',
    '  prev="${COMP_WORDS[COMP_CWORD-1+o]}"',
    '  COMPREPLY=()',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i+o]}"',
    '    case "$w" in -*) continue ;; esac',
    '    if [[ -z "$cmd" ]]; then cmd="$w"',
    '    elif [[ -z "$sub" ]]; then sub="$w"; break',
    '    fi',
    '  done',
    `  if [[ -z "$cmd" ]]; then COMPREPLY=($(compgen -W ${quote(commands)} -- "$cur")); return 0; fi`,
    '  local subs cmdpath',
    '  subs="$(_policyset_subcommands "$cmd")"',
    '  if [[ -n "$subs" && -z "$sub" ]]; then',
    '    if [[ "$cur" != -* ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return 0; fi',
    '  fi',
    '  cmdpath="$cmd"',
    '  if [[ -n "$sub" && " $subs " == *" $sub "* ]]; then cmdpath="$cmd $sub"; fi',
    '  # --rule <code>=<level>: bash splits the word at "=", zsh does not.',
    '  if [[ "$prev" == "=" && "${COMP_WORDS[COMP_CWORD-3+o]}" == "--rule" ]] || [[ "$cur" == "=" && "${COMP_WORDS[COMP_CWORD-2+o]}" == "--rule" ]]; then',
    '    [[ "$cur" == "=" ]] && cur=""',
    `    COMPREPLY=($(compgen -W ${quote(SEVERITIES)} -- "$cur")); return 0`,
    '  fi',
    '  if [[ "$prev" == "--rule" && "$cur" == *=* ]]; then',
    `    COMPREPLY=($(compgen -P "\${cur%%=*}=" -W ${quote(SEVERITIES)} -- "\${cur#*=}")); return 0`,
    '  fi',
    '  local taken',
    '  taken="$(_policyset_values "$cmdpath" "$prev")"',
    '  if [[ "$prev" == -* && -n "$taken" ]]; then',
    '    if [[ "$taken" == file ]]; then',
    '      compopt -o filenames 2>/dev/null',
    '      COMPREPLY=($(compgen -f -- "$cur"))',
    '    else',
    '      COMPREPLY=($(compgen -W "${taken#values}" -- "$cur"))',
    '      [[ "$prev" == "--rule" ]] && compopt -o nospace 2>/dev/null',
    '    fi',
    '    return 0',
    '  fi',
    '  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$(_policyset_options "$cmdpath")" -- "$cur")); return 0; fi',
    '  compopt -o filenames 2>/dev/null',
    '  COMPREPLY=($(compgen -f -- "$cur"))',
    '}',
    'complete -F _policyset policyset',
  );
  return lines.join('\n') + '\n';
}

function fishScript(cli: CommandContext): string {
  const { commands, subcommands, specs } = commandSpecs(cli);
  const lines = ["# policyset completion for fish: made by 'policyset completion fish'", 'complete -c policyset -f'];
  lines.push(`complete -c policyset -n __fish_use_subcommand -a ${quote(commands)}`);
  for (const [name, subs] of Object.entries(subcommands)) {
    lines.push(
      `complete -c policyset -n "__fish_seen_subcommand_from ${name}; and not __fish_seen_subcommand_from ${subs.join(' ')}" -a ${quote(subs)}`,
    );
  }
  for (const spec of specs) {
    const [name, sub] = spec.path.split(' ');
    const condition = sub
      ? `__fish_seen_subcommand_from ${name}; and __fish_seen_subcommand_from ${sub}`
      : `__fish_seen_subcommand_from ${name}`;
    for (const option of spec.options) {
      const taken = spec.values[option];
      const flag = option.startsWith('--') ? `-l ${option.slice(2)}` : `-s ${option.slice(1)}`;
      const value = taken === undefined ? '' : taken === 'file' ? ' -r -F' : taken.length ? ` -x -a ${quote(taken)}` : ' -x';
      lines.push(`complete -c policyset -n "${condition}" ${flag}${value}`);
    }
  }
  lines.push('complete -c policyset -n "__fish_seen_subcommand_from lint" -F');
  return lines.join('\n') + '\n';
}

export async function run(args: string[], _env?: NodeJS.ProcessEnv, cli?: CommandContext): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [shell, ...extra] = positionals;
  if (!shell || extra.length) throw new UsageError('completion takes one shell: bash, zsh or fish');
  if (!SHELLS.includes(shell)) {
    const near = closestMatch(shell, SHELLS);
    throw new UsageError(`completion: no script for '${shell}'${near ? `; did you mean '${near}'?` : ''} (bash, zsh or fish)`);
  }
  // main gives what the CLI knows of its commands: this module never imports the registry that loads it.
  if (!cli) throw new Error('completion: run it through the CLI (main gives it the commands)');
  process.stdout.write(shell === 'fish' ? fishScript(cli) : bashScript(cli, shell === 'zsh'));
  return 0;
}
