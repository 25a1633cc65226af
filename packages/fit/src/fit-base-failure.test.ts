import { HashedEmbedder, TreeAgent } from '@treeagent/core';
import { describe, expect, test, vi } from 'vitest';
import { spaceFitter } from './space-fitter.js';
import { englishIntentTree } from './test-support/intent-trees.js';

// Test double: an installed @treeagent/embedder-use whose model cannot run.
vi.mock('@treeagent/embedder-use', () => ({
  UseEmbedder: class {
    readonly id = 'broken-use';
    readonly dimensions = 8;
    async embed(): Promise<number[][]> {
      throw new Error('the WebAssembly backend failed to start');
    }
  },
}));

describe("a base 'auto' chose that fails", () => {
  test('the English tree is fitted over the hashed n-grams instead, and agent.space() says why', async () => {
    const agent = new TreeAgent({ tree: englishIntentTree(), spaceFitter: spaceFitter() });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', baseId: new HashedEmbedder().id });
    expect(status.state === 'fitted' && status.base).toMatch(
      /^hashed n-grams \(USE-lite \+ hashed n-grams 2:1 \(English tree: .*\) failed: .*the WebAssembly backend failed to start/,
    );
    expect(status.embedderId).toMatch(/^fitted\(hashed-v1:/);
    // It routes in that fitted space.
    expect((await agent.send('s1', 'can you tell me the weather for tomorrow')).messages[0]?.content).toBe(
      'weather',
    );
  });
});
