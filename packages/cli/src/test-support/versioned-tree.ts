import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a version of the test tree changes: the shipping answer, the returns node's examples. */
export interface ShopTreeChange {
  shippingAnswer?: string;
  returnsChunks?: string[];
}

/**
 * A small JSON tree (shipping, returns) with a callbacks module, a conversation test and labelled
 * utterances beside it, in `directory`: what the publish gate runs. `writeShopTree(directory, change)`
 * rewrites the tree as another version.
 */
export function writeShopTree(directory: string, change: ShopTreeChange = {}): string {
  mkdirSync(join(directory, 'conversations'), { recursive: true });
  const tree = join(directory, 'shop.json');
  writeFileSync(
    tree,
    `${JSON.stringify(
      {
        format: 'treeagent-tree',
        version: 1,
        name: 'shop',
        module: './shop.callbacks.ts',
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, parent: 1, type: 'agent', name: 'assistant', isPrimary: true },
          {
            id: 10,
            parent: 2,
            type: 'emit',
            name: 'shipping',
            chunks: [
              'shipping costs',
              'delivery time',
              'how long does shipping take',
              'when will my parcel arrive',
            ],
            emit: { message: { type: 'static', content: change.shippingAnswer ?? 'Shipping takes 2 days.' } },
          },
          {
            id: 11,
            parent: 2,
            type: 'emit',
            name: 'returns',
            chunks: change.returnsChunks ?? [
              'return a bike',
              'refund my order',
              'send the bike back',
              'money back',
            ],
            emit: { message: { type: 'static', content: 'Returns are free for 30 days.' } },
          },
        ],
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(directory, 'shop.callbacks.ts'), 'export const unused = () => undefined;\n');
  writeFileSync(
    join(directory, 'conversations', 'shipping.yaml'),
    `name: shipping time
turns:
  - say: how long does shipping take
    expect:
      node: shipping
      message: { contains: "2 days" }
`,
  );
  writeFileSync(
    join(directory, 'utterances.tsv'),
    [
      'how long does shipping take\tshipping',
      'what are the shipping costs\tshipping',
      'when will my parcel arrive\tshipping',
      'delivery time please\tshipping',
      'I want to return a bike\treturns',
      'can I get a refund for my order\treturns',
      'how do I send the bike back\treturns',
      'I want my money back\treturns',
    ].join('\n'),
  );
  return tree;
}
