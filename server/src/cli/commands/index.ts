// The commands of the CLI, one file each (a group's subcommands too), lint among them. A command module
// exports `usage` (its --help text), `exitStatus` (what each status means: docs/cli.md's table is generated
// from it) and `run(args, env, cli)` (the exit status); see ../command.ts. Each is loaded only when it runs:
// linting never loads the service client. To add a command: one file here and one line in COMMANDS.
import type { CommandEntry, CommandModule } from '../command';

/** The command whose usage is the CLI's own (`policyset --help`), after the list of the others. */
export const MAIN_COMMAND = 'lint';

/* eslint-disable @typescript-eslint/no-require-imports */
const group = (name: string, subcommands: Record<string, () => CommandModule>): CommandModule =>
  (require('../commandGroup') as typeof import('../commandGroup')).commandGroup(name, subcommands);

export const COMMANDS: Record<string, CommandEntry> = {
  lint: { synopsis: 'policyset lint <files or folders...> [options]', load: () => require('./lint') as CommandModule },
  fetch: { synopsis: 'policyset fetch <name> [options]', load: () => require('./fetch') as CommandModule },
  diff: { synopsis: 'policyset diff <old> <new> | --against <rev>', load: () => require('./diff') as CommandModule },
  deploy: { synopsis: 'policyset deploy <file> [options]', load: () => require('./deploy') as CommandModule },
  advisor: { synopsis: 'policyset advisor metadata [options]', load: () => require('./advisor') as CommandModule },
  eventstream: { synopsis: 'policyset eventstream get|delete <ws> <id>', load: () => require('./eventstream') as CommandModule },
  quota: {
    synopsis: 'policyset quota usage|calc|simulate|plan|where ...',
    load: () =>
      group('quota', {
        usage: () => require('./quotaUsage') as CommandModule,
        calc: () => require('./quotaCalc') as CommandModule,
        simulate: () => require('./quotaSimulate') as CommandModule,
        plan: () => require('./quotaPlan') as CommandModule,
        where: () => require('./quotaWhere') as CommandModule,
      }),
  },
  evaluate: {
    synopsis: 'policyset evaluate <set or definition> --resource <file> [options]',
    load: () => require('./evaluate') as CommandModule,
  },
  test: { synopsis: 'policyset test [paths...] [--format text|json|sarif|junit]', load: () => require('./test') as CommandModule },
  rules: { synopsis: 'policyset rules [--format text|json]', load: () => require('./rules') as CommandModule },
  mcp: { synopsis: 'policyset mcp [--folder <folder>]', load: () => require('./mcp') as CommandModule },
  completion: { synopsis: 'policyset completion bash|zsh|fish', load: () => require('./completion') as CommandModule },
  model: {
    synopsis: 'policyset model deploy|apply [options]',
    load: () =>
      group('model', { deploy: () => require('./modelDeploy') as CommandModule, apply: () => require('./modelApply') as CommandModule }),
  },
  definitions: {
    synopsis: 'policyset definitions index <folder> [-o index.json]',
    load: () => group('definitions', { index: () => require('./definitionsIndex') as CommandModule }),
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */
