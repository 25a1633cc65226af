import type { TreeDocument } from '@treeagent/core/document';

/** Shipping (3) and returns (4) under the primary agent (2): the topics of the test trees of the editor. */
export const SHOP_TOPICS: TreeDocument['nodes'] = [
  {
    id: 3,
    parent: 2,
    type: 'emit',
    name: 'shipping',
    chunks: ['how much does shipping cost', 'shipping price and delivery time'],
    emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
  },
  {
    id: 4,
    parent: 2,
    type: 'emit',
    name: 'returns',
    chunks: ['how do I return a product', 'send back an item for a refund'],
    emit: { message: { type: 'static', content: 'You have 30 days.' } },
  },
];

/** The tree the staff pages' tests give the editor (`memoryTreeEditor(EDITED_TREE)`). */
export const EDITED_TREE: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'my-agent',
  nodes: [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.2 },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
    ...SHOP_TOPICS,
  ],
};

/**
 * Conversations for the staff pages to show (analytics, review; with the handoff shop, one waiting
 * for an operator in the console): each list of messages is one new session on the server at `url`.
 */
export async function seedConversations(
  url: string,
  conversations: string[][] = [['hello', 'tell me a story'], ['hello', 'a human please'], ['what is this?']],
): Promise<void> {
  for (const messages of conversations) {
    const created = await fetch(`${url}/api/v1/sessions`, { method: 'POST' });
    const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
    for (const message of messages) {
      const response = await fetch(`${url}/api/v1/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Session-Token': token },
        body: JSON.stringify({ message }),
      });
      if (response.status !== 200)
        throw new Error(`Seeding "${message}" answered ${response.status}: ${await response.text()}`);
    }
  }
}
