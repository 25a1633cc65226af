import type { Output } from '../output.js';

/** A positional argument: `<name>` required, `[name]` optional, `<name...>` several. */
export interface ArgumentDefinition {
  name: string;
  /** Its line in the command's help. */
  description: string;
}

/** An option: commander's `flags` (`--port <port>`, `--no-watch`), its help, a parser, a default. */
export interface OptionDefinition {
  flags: string;
  /** Its line in the command's help. */
  description: string;
  /** Turns the text given into the option's value (called once per occurrence with the previous value). */
  parse?: (value: string, previous: any) => unknown;
  /** The value when the option is not given (shown in the help as `(default: …)`). */
  default?: unknown;
}

/**
 * A `treeagent` command, as its module declares it: name, help, arguments, options, and what runs.
 * `main` registers every definition of the command table (`command-table.ts`) with commander.
 */
export interface CommandDefinition {
  name: string;
  /** The command's help text (one paragraph). */
  description: string;
  arguments?: readonly ArgumentDefinition[];
  options?: readonly OptionDefinition[];
  /**
   * Runs the command with its positional arguments in order and its options; resolves to the exit
   * code (0 success, 1 a check failed, 2 bad usage or input). Absent for a group of `subcommands`.
   */
  run?: (args: any[], options: any, out: Output) => Promise<number>;
  /** The commands under this one (`treeagent sources add`). */
  subcommands?: readonly CommandDefinition[];
}

/** Declares a command (typed, unchanged). */
export function defineCommand(definition: CommandDefinition): CommandDefinition {
  return definition;
}
