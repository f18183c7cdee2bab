// What a command is, for the registry (./commands/index.ts), the CLI's main (./main.ts) and help (./help.ts).
// Types only: a command module imports this, never the registry, so no command depends on the list of commands.

/** What each exit status of a command means. docs/cli.md's table is made of these (scripts/generators/exit-statuses.js). */
export interface ExitStatuses {
  0: string;
  1?: string;
  2: string;
}

/** What the CLI knows of its commands, given to a command that needs it (completion) by main. */
export interface CommandContext {
  /** 'lint', 'fetch', ... 'help'. */
  topLevelCommands(): string[];
  /** A command's subcommands ('quota': usage, calc, ...). */
  subcommandsOf(name: string): string[];
  /** The usage text of `policyset <words>`. */
  usageOf(words: string[]): string | undefined;
}

/** A command's module: `usage` (its --help text), `exitStatus` and `run(args, env, cli)` (the exit status). */
export interface CommandModule {
  usage: string;
  /**
   * Its exit statuses: one set, or one per first word of its arguments for a command that does two things
   * (eventstream get|delete). A group (commandGroup) has none: its subcommands have theirs.
   */
  exitStatus?: ExitStatuses | Record<string, ExitStatuses>;
  run(args: string[], env?: NodeJS.ProcessEnv, cli?: CommandContext): Promise<number>;
  /** A group's subcommands (see commandGroup): help, "did you mean" and completion read them. */
  subcommands?: Record<string, () => CommandModule>;
}

export interface CommandEntry {
  /** One line for the top-level usage. */
  synopsis: string;
  load(): CommandModule;
}
