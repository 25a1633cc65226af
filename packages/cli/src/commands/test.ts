import { TreeAgentError } from '@treeagent/core';
import { formatFailures, formatSummary, readConversationFile, runConversationFile } from '@treeagent/testing';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';

/** `treeagent test <tree> <conversations…>`: plays YAML conversation tests; exit 1 when one fails. */
export async function testCommand(
  treePath: string,
  files: string[],
  options: { config?: string },
  out: Output,
): Promise<number> {
  if (!files.length)
    throw new TreeAgentError('INVALID_INPUT', 'Give at least one conversation file (.yaml).');
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const results = [];
  for (const path of files) {
    results.push(
      ...(await runConversationFile(readConversationFile(path), {
        tree: loaded.tree,
        ...loaded.agentOptions,
      })),
    );
  }
  const failures = formatFailures(results);
  if (failures) out.log(`${failures}\n`);
  out.log(formatSummary(results, { failures: failures ? 'omit' : 'list' }));
  return results.every((result) => result.passed) ? 0 : 1;
}
