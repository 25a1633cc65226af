import { TreeAgentError } from '@treeagent/core';
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/command-table.js';
import { registerCommand } from './commands/register-command.js';
import { consoleOutput, type Output } from './output.js';
import { errorStack } from './user-errors.js';

/**
 * Runs the `treeagent` command line and returns its exit code:
 * 0 success, 1 a check failed (e.g. accuracy below --min-accuracy), 2 bad usage or bad input.
 */
export async function main(argv: string[], out: Output = consoleOutput): Promise<number> {
  let code = 0;
  const program = new Command('treeagent')
    .description(
      'Tree Agent: evaluate, inspect and chat with trees of typed nodes routed by semantic similarity.',
    )
    .option('--verbose', 'show the stack trace of an error')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.log(text.trimEnd()),
      writeErr: (text) => out.error(text.trimEnd()),
    });
  for (const definition of COMMANDS)
    registerCommand(program, definition, out, (exitCode) => {
      code = exitCode;
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const verbose = argv.includes('--verbose');
    if (TreeAgentError.isInstance(error)) {
      out.error(verbose ? `${error.message}\n\n${errorStack(error)}` : error.message);
      return 2;
    }
    // Not a mistake we recognise: one line, the stack with --verbose.
    const message = error instanceof Error ? error.message : String(error);
    out.error(
      verbose
        ? errorStack(error)
        : `treeagent: ${message}\n(run again with --verbose for the stack trace; if it is not caused by your files, please report it)`,
    );
    return 1;
  }
}
