import { fileURLToPath } from 'node:url';
import { describeConversations } from '@treeagent/testing/vitest';
import { bikeShopTree } from './tree.js';

describeConversations({
  files: ['orders.yaml', 'knowledge.yaml'].map((name) =>
    fileURLToPath(new URL(`conversations/${name}`, import.meta.url)),
  ),
  agent: () => ({ tree: bikeShopTree() }),
});
