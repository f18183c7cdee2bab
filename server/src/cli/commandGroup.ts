import { UsageError } from '../node/files';
import { closestMatch } from '../service/text';
import type { CommandModule } from './command';

/**
 * A command of two words (`policyset quota calc`): the group dispatches to one module per subcommand, each
 * a file of its own under ./commands, loaded only when it runs. `--help` after the group prints every
 * subcommand's usage; after a subcommand, its own.
 */
export function commandGroup(group: string, subcommands: Record<string, () => CommandModule>): CommandModule {
  const names = Object.keys(subcommands);
  return {
    subcommands,
    get usage() {
      return names.map((name) => subcommands[name]().usage).join('\n');
    },
    async run(args, env, cli) {
      const [sub, ...rest] = args;
      const load = sub !== undefined && Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
      if (!load) {
        if (sub === undefined || sub.startsWith('-')) throw new UsageError(`${group} needs one of: ${names.join(', ')}`);
        const near = closestMatch(sub, names);
        throw new UsageError(
          `unknown command '${group} ${sub}'${near ? `; did you mean '${group} ${near}'?` : ''} (use one of ${names.join(', ')})`,
        );
      }
      return load().run(rest, env, cli);
    },
  };
}
