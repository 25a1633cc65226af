import type { TreeAgentOptions } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { formatFailures } from './format-results.js';
import { readConversationFile } from './parse-conversations.js';
import { runConversationFile } from './run-conversations.js';

/**
 * Declares one vitest test per conversation of each file; a failure shows each failing turn with
 * what was expected and what came.
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
            await options.agent(),
          );
          if (!result!.passed) expect.fail(`\n${formatFailures([result!])}`);
          // Every turn ran and was checked.
          expect(result!.turns).toHaveLength(conversation.turns.length);
        });
      }
    });
  }
}
