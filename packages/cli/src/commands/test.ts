import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { spaceFitter } from '@treeagent/fit';
import {
  type ConversationResult,
  fixtureModel,
  formatFailures,
  formatSummary,
  readConversationFile,
  runConversationFile,
} from '@treeagent/testing';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';

/** `treeagent test <tree> <conversations…>`: plays YAML conversation tests; exit 1 when one fails. */
export async function testCommand(
  treePath: string,
  files: string[],
  options: { config?: string },
  out: Output,
): Promise<number> {
  if (!files.length)
    throw new TreeAgentError(
      'INVALID_INPUT',
      'Give at least one conversation file (.yaml) or a directory of them.',
    );
  const results = await playConversations(treePath, conversationFiles(files), options);
  const failures = formatFailures(results);
  if (failures) out.log(`${failures}\n`);
  out.log(formatSummary(results, { failures: failures ? 'omit' : 'list' }));
  return results.every((result) => result.passed) ? 0 : 1;
}

/**
 * The conversation files of the command line: a directory stands for its `.yaml` and `.yml` files
 * (sorted; `treeagent test src/tree.json tests` plays every file a project keeps in `tests/`).
 */
export function conversationFiles(paths: string[]): string[] {
  return paths.flatMap((path) => {
    let directory = false;
    try {
      directory = statSync(path).isDirectory();
    } catch {
      return [path]; // reading it says that it does not exist
    }
    if (!directory) return [path];
    const found = yamlFilesIn(path);
    if (!found.length)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${path} is a directory with no conversation file (.yaml) in it.`,
      );
    return found;
  });
}

/** The `.yaml` and `.yml` files of a directory, sorted (none when it does not exist). */
export function yamlFilesIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => join(directory, name));
}

/** Plays the conversation files against the tree (what `treeagent test` and the publish gate run). */
export async function playConversations(
  treePath: string,
  files: string[],
  options: { config?: string },
): Promise<ConversationResult[]> {
  const config = options.config ? { config: options.config } : {};
  let plain: Awaited<ReturnType<typeof loadTree>> | undefined;
  const results: ConversationResult[] = [];
  for (const path of files) {
    const file = readConversationFile(path);
    // A file with a fixture model (a mock): the tree factory gets it as models.default, so a tree
    // with a generative variant builds that one; other files share one load of the tree.
    const model = fixtureModel(file.fixtures);
    if (!model) plain ??= await loadTree(treePath, config);
    const loaded = model ? await loadTree(treePath, { ...config, models: { default: model } }) : plain!;
    // The fitter passed explicitly, as every command does (core finds none by itself); uncached, as
    // each conversation file starts its own agent.
    results.push(
      ...(await runConversationFile(file, {
        tree: loaded.tree,
        spaceFitter: spaceFitter(loaded.fitBase ? { base: loaded.fitBase } : {}),
        ...loaded.agentOptions,
      })),
    );
  }
  return results;
}

/** `treeagent test`: its help, arguments and options (the command table, `command-table.ts`). */
export const testDefinition = defineCommand({
  name: 'test',
  description:
    'Play YAML conversation tests against the tree and show what differs; exit code 1 when one fails.',
  arguments: [
    { name: '<tree>', description: 'tree file (.ts, .js or .json)' },
    { name: '<conversations...>', description: 'conversation files (.yaml), or directories of them' },
  ],
  options: [{ flags: '--config <file>', description: 'model configuration' }],
  run: ([tree, files], options, out) => testCommand(tree, files, options, out),
});
