// The service commands of the CLI, one file each. A command module exports `usage` (its --help text)
// and `run(args, env)` (the exit status). Each is loaded only when it runs: linting never loads the
// service client. To add a command: one file here and one line in COMMANDS.
export interface CommandModule {
  usage: string;
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<number>;
  /** A group's subcommands (see commandGroup): help, "did you mean" and completion read them. */
  subcommands?: Record<string, () => CommandModule>;
}

interface CommandEntry {
  /** One line for the top-level usage. */
  synopsis: string;
  load(): CommandModule;
}

/* eslint-disable @typescript-eslint/no-require-imports */
export const COMMANDS: Record<string, CommandEntry> = {
  fetch: { synopsis: 'policyset fetch <name> [options]', load: () => require('./fetch') as CommandModule },
  diff: { synopsis: 'policyset diff <old> <new> | --against <rev>', load: () => require('./diff') as CommandModule },
  deploy: { synopsis: 'policyset deploy <file> [options]', load: () => require('./deploy') as CommandModule },
  advisor: { synopsis: 'policyset advisor metadata [options]', load: () => require('./advisor') as CommandModule },
  eventstream: { synopsis: 'policyset eventstream get|delete <ws> <id>', load: () => require('./eventstream') as CommandModule },
  quota: { synopsis: 'policyset quota usage|calc|simulate|plan|where ...', load: () => (require('../commandGroup') as typeof import('../commandGroup')).commandGroup('quota', { usage: () => require('./quotaUsage') as CommandModule, calc: () => require('./quotaCalc') as CommandModule, simulate: () => require('./quotaSimulate') as CommandModule, plan: () => require('./quotaPlan') as CommandModule, where: () => require('./quotaWhere') as CommandModule }) },
  rules: { synopsis: 'policyset rules [--format text|json]', load: () => require('./rules') as CommandModule },
  completion: { synopsis: 'policyset completion bash|zsh|fish', load: () => require('./completion') as CommandModule },
  model: { synopsis: 'policyset model deploy|apply [options]', load: () => (require('../commandGroup') as typeof import('../commandGroup')).commandGroup('model', { deploy: () => require('./modelDeploy') as CommandModule, apply: () => require('./modelApply') as CommandModule }) },
};
/* eslint-enable @typescript-eslint/no-require-imports */
