import type { TreeAgentOptions } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { formatFailures } from './format-results.js';
import { readConversationFile } from './parse-conversations.js';
import { runConversationFile } from './run-conversations.js';

/**
 * Declares one vitest test per conversation of each file; a failure shows each failing turn with
 * what was expected and what came. `agent` is called for each conversation, and again at a turn
 * with `restart: true` (so a store it opens on a file is re-opened, as after a process restart).
 *
 * @example
 * describeConversations({ files: ['tests/orders.yaml'], agent: () => ({ tree: bikeShopTree() }) });
 */
export function describeConversations(options: {
  files: string[];
  agent: () => TreeAgentOptions | Promise<TreeAgentOptions>;
}): void {
  for (const path of options.files) {
    const file = readConversationFile(path);
    describe(path, () => {
      for (const conversation of file.conversations) {
        test(conversation.name, async () => {
          const [result] = await runConversationFile(
            { ...file, conversations: [conversation] },
            options.agent,
          );
          if (!result!.passed) expect.fail(`\n${formatFailures([result!])}`);
          // Every turn ran and was checked.
          expect(result!.turns).toHaveLength(conversation.turns.length);
        });
      }
    });
  }
}
