import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exportTexts, loadTree } from '@treeagent/cli';
import { type Tree, TreeAgent } from '@treeagent/core';
import { describeConversations } from '@treeagent/testing/vitest';
import { describe, expect, it } from 'vitest';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const TS_TREE = here('../bike-shop/tree.ts');
const JSON_TREE = here('tree.json');

/** Everything routing and execution read from a node, callbacks by the key they sit under. */
function effective(tree: Tree) {
  return [...tree.nodes.values()].map((node) => ({
    id: node.id,
    type: node.type,
    name: node.name,
    parentId: node.parentId,
    children: node.children,
    chunks: node.chunks,
    links: node.links,
    flags: [node.isBlocking, node.isAnchor, node.isMute],
    threshold: [node.similarityThreshold, node.thresholdSource],
    scope: [node.scopeId, node.agentId, node.anchorId],
    range: [node.chunkStart, node.ownChunkEnd, node.chunkEnd],
    callbacks: Object.entries(node.definition)
      .filter(([, value]) => typeof value === 'function')
      .map(([key]) => key)
      .sort(),
    constants: Object.fromEntries(
      Object.entries(node.definition).filter(([, value]) => typeof value !== 'function'),
    ),
  }));
}

describe('the bike shop as a JSON tree (treeagent export --json)', () => {
  it('the committed files are what export writes today', async () => {
    const result = await exportTexts(TS_TREE, { out: JSON_TREE });
    expect(readFileSync(JSON_TREE, 'utf8')).toBe(result.documentText);
    expect(readFileSync(here('tree.callbacks.ts'), 'utf8')).toBe(result.moduleText);
  });

  it('TypeScript → JSON → tree gives the same effective tree', async () => {
    const [fromCode, fromJson] = await Promise.all([loadTree(TS_TREE), loadTree(JSON_TREE)]);
    expect(fromJson.tree.contentHash).toBe(fromCode.tree.contentHash);
    expect(effective(fromJson.tree)).toEqual(effective(fromCode.tree));
    expect(fromJson.files).toContain(here('tree.callbacks.ts'));
  });

  it('answers as the TypeScript tree does, callbacks included', async () => {
    const [fromCode, fromJson] = await Promise.all([loadTree(TS_TREE), loadTree(JSON_TREE)]);
    const messages = ['ciao', 'dove è il mio ordine?', 'A1234', 'vorrei parlare con un operatore'];
    const play = async (tree: Tree) => {
      const agent = new TreeAgent({ tree });
      const answers: unknown[] = [];
      for (const message of messages) {
        const output = await agent.send('s', message);
        answers.push([output.status, output.messages.map((item) => [item.nodeId, item.content])]);
      }
      return answers;
    };
    expect(await play(fromJson.tree)).toEqual(await play(fromCode.tree));
  });
});

describeConversations({
  files: ['orders.yaml', 'knowledge.yaml'].map((name) => here(`../bike-shop/conversations/${name}`)),
  agent: async () => ({ tree: (await loadTree(JSON_TREE)).tree }),
});
