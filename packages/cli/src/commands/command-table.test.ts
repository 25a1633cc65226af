import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import type { CommandDefinition } from './command-definition.js';
import { COMMANDS } from './command-table.js';

/** The help `treeagent <path…> --help` prints. */
async function help(path: string[]): Promise<string> {
  const output = capture();
  expect(await main([...path, '--help'], output)).toBe(0);
  return output.lines.join('\n');
}

/** Every command of the table with the words that call it (`['sources', 'add']`). */
function everyCommand(
  definitions: readonly CommandDefinition[],
  parent: string[] = [],
): [string[], CommandDefinition][] {
  return definitions.flatMap((definition): [string[], CommandDefinition][] => [
    [[...parent, definition.name], definition],
    ...everyCommand(definition.subcommands ?? [], [...parent, definition.name]),
  ]);
}

/** The flags as the help shows them: `--port <port>`, `-h, --help`. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the command table', () => {
  it('treeagent --help lists every command of the table, in its order, with its arguments', async () => {
    const text = (await help([])).split('\nCommands:\n')[1] ?? '';
    const listed = [...text.matchAll(/^ {2}([a-z-]+)(?: \[options\])?/gm)].map((match) => match[1]);
    expect(listed).toEqual([...COMMANDS.map((command) => command.name), 'help']);
    for (const command of COMMANDS) {
      const usage = (command.arguments ?? []).map((argument) => argument.name).join(' ');
      expect(text).toMatch(new RegExp(`^ {2}${escapeRegExp(command.name)}\\b.*${escapeRegExp(usage)}`, 'm'));
    }
  });

  it.each(everyCommand(COMMANDS).map(([path, definition]) => [path.join(' '), path, definition] as const))(
    'treeagent %s --help shows its description, every argument and every option',
    async (_name, path, definition) => {
      const text = await help(path);
      expect(text.replace(/\s+/g, ' ')).toContain(definition.description.replace(/\s+/g, ' ').slice(0, 60));
      for (const argument of definition.arguments ?? [])
        expect(text).toMatch(
          new RegExp(`^ {2}${escapeRegExp(argument.name.replace(/[<>[\]]|\.\.\./g, ''))} `, 'm'),
        );
      for (const option of definition.options ?? []) {
        expect(text).toMatch(new RegExp(`^ {2}${escapeRegExp(option.flags)} `, 'm'));
        if (option.default !== undefined)
          expect(text.replace(/\s+/g, ' ')).toContain(`(default: ${JSON.stringify(option.default)})`);
      }
      for (const subcommand of definition.subcommands ?? [])
        expect(text).toMatch(new RegExp(`^ {2}${subcommand.name}\\b`, 'm'));
    },
  );
});
