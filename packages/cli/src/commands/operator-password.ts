import { TreeAgentError } from '@treeagent/core';
import { hashOperatorPassword } from '@treeagent/server';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';

/** Reads all of standard input as text. */
async function readStdin(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `treeagent operator-password`: reads a password from standard input (never from the command line,
 * where it would be seen in the process list and the shell history) and prints its hash, the
 * `passwordHash` of an entry of the operators file.
 */
export async function operatorPasswordCommand(
  out: Output,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const password = (await readStdin(input)).replace(/\r?\n$/, '');
  if (password.length < 12) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      'Give the operator password (at least 12 characters) on standard input, e.g. `read -rs PW; printf %s "$PW" | treeagent operator-password`.',
    );
  }
  out.log(await hashOperatorPassword(password));
  return 0;
}

/** `treeagent operator-password`: its help, arguments and options (the command table, `command-table.ts`). */
export const operatorPasswordDefinition = defineCommand({
  name: 'operator-password',
  description:
    'Print the hash of an operator password read from standard input: the passwordHash of an entry of the operators file.',
  run: (_arguments, _options, out) => operatorPasswordCommand(out),
});
