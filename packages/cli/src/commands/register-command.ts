import type { Command } from 'commander';
import type { Output } from '../output.js';
import type { CommandDefinition } from './command-definition.js';

/**
 * Adds `definition` (and its subcommands) to `parent`; when it runs, `done` gets its exit code.
 * Commander calls an action with the positional arguments, then the options, then the command.
 */
export function registerCommand(
  parent: Command,
  definition: CommandDefinition,
  out: Output,
  done: (code: number) => void,
): Command {
  const command = parent.command(definition.name).description(definition.description);
  for (const argument of definition.arguments ?? []) command.argument(argument.name, argument.description);
  for (const option of definition.options ?? []) {
    if (option.parse) command.option(option.flags, option.description, option.parse, option.default);
    else command.option(option.flags, option.description, option.default as string | boolean | string[]);
  }
  for (const subcommand of definition.subcommands ?? []) registerCommand(command, subcommand, out, done);
  const run = definition.run;
  if (run) {
    command.action(async (...values: unknown[]) => {
      done(await run(values.slice(0, -2), values.at(-2), out));
    });
  }
  return command;
}
