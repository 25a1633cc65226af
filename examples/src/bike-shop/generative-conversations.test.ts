import { fileURLToPath } from 'node:url';
import { main } from '@treeagent/cli';
import { parseConversations, readConversationFile } from '@treeagent/testing';
import { describeConversations } from '@treeagent/testing/vitest';
import { expect, test } from 'vitest';
import { markdownExample } from '../../../scripts/readme-example.js';
import { bikeShopTree } from './tree.js';

/**
 * A YAML conversation test of a generative node: the order status of the bike shop with a language
 * model, whose answers are the file's `fixtures.model` (a ScriptedLanguageModel: a mock, for tests).
 */
const file = fileURLToPath(new URL('conversations/order-status-generative.yaml', import.meta.url));

// In vitest: the generative tree; the fixture model replaces the agent's models.
describeConversations({ files: [file], agent: () => ({ tree: bikeShopTree({ generative: true }) }) });

test('treeagent test gives the fixture model to the tree module, which builds its generative variant', async () => {
  const tree = fileURLToPath(new URL('tree.ts', import.meta.url));
  const lines: string[] = [];
  const output = {
    log: (line: string) => lines.push(line),
    write: () => {},
    error: (line: string) => lines.push(line),
  };
  expect(await main(['test', tree, file], output), lines.join('\n')).toBe(0);
  // A file without fixtures still gets the tree as configured: here no model, the static variant.
  const staticOrders = fileURLToPath(new URL('conversations/orders.yaml', import.meta.url));
  expect(await main(['test', tree, staticOrders], output), lines.join('\n')).toBe(0);
});

test("the testing README shows this file's fixtures and turns", () => {
  const shown = parseConversations(
    markdownExample('packages/testing/README.md', { lang: 'yaml', index: 1 }).code,
    'README.md',
  );
  const tested = readConversationFile(file);
  expect(shown.fixtures).toEqual(tested.fixtures);
  expect(shown.conversations[0]!.turns.map((turn) => turn.say)).toEqual(
    tested.conversations[0]!.turns.map((turn) => turn.say),
  );
});
