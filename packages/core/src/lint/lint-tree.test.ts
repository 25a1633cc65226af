import { describe, expect, test } from 'vitest';
import { defineTree } from '../tree/define-tree.js';
import { lintTree } from './lint-tree.js';

const emit = { message: { type: 'static' as const, content: 'ok' } };
/** A fallback, so that agents of these trees do not get an agent-without-fallback warning. */
const fallback = () => ({ nodeTarget: 3 });

describe('lintTree', () => {
  test('a clean tree has no warnings', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['quanto costa la spedizione'], emit },
        { id: 4, type: 'emit', parent: 2, chunks: ['vorrei fare un reso'], emit },
      ],
    });
    expect(await lintTree(tree)).toEqual([]);
  });

  test('children without chunks and unreachable nodes, unless a link leads there', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 9 }, fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit },
        { id: 5, type: 'empty', parent: 2, name: 'orfano' },
        { id: 6, type: 'emit', parent: 5, emit },
        { id: 9, type: 'emit', parent: 2, name: 'scusa', emit },
      ],
    });
    const warnings = await lintTree(tree);
    const codes = warnings.map((warning) => `${warning.code}:${warning.nodeId}`).sort();
    expect(codes).toEqual(['child-without-chunks:5', 'unreachable-node:5', 'unreachable-node:6']);
    expect(
      warnings.find((warning) => warning.code === 'unreachable-node' && warning.nodeId === 5)!.message,
    ).toContain('node 5 ("orfano") cannot be reached');
  });

  test('a chunkless child among siblings is reported when nothing links to it', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit },
        { id: 4, type: 'emit', parent: 2, emit },
      ],
    });
    expect((await lintTree(tree)).map((warning) => warning.code).sort()).toEqual([
      'child-without-chunks',
      'unreachable-node',
    ]);
  });

  test('sibling subtrees with near-identical chunks are ambiguous, with the pairs named', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, name: 'spedizioni', chunks: ['quanto costa la spedizione'], emit },
        { id: 4, type: 'empty', parent: 2, name: 'ordini', chunks: ['stato ordine'] },
        { id: 5, type: 'emit', parent: 4, chunks: ['quanto costa la spedizione?'], emit },
      ],
    });
    const [warning] = (await lintTree(tree)).filter((item) => item.code === 'ambiguous-siblings');
    expect(warning!.nodeId).toBe(2);
    expect(warning!.message).toContain('"quanto costa la spedizione" ~ "quanto costa la spedizione?"');
  });

  test('deep routing nodes whose failures climb to the agent get a distant-anchor warning', async () => {
    const nodes = [
      { id: 1, type: 'root' as const },
      { id: 2, type: 'agent' as const, parent: 1, isPrimary: true },
      { id: 3, type: 'empty' as const, parent: 2, chunks: ['a'] },
      { id: 4, type: 'empty' as const, parent: 3, chunks: ['b'] },
      { id: 5, type: 'empty' as const, parent: 4, chunks: ['c'] },
      { id: 6, type: 'emit' as const, parent: 5, chunks: ['d'], emit },
    ];
    expect(
      (await lintTree(defineTree({ nodes })))
        .filter((warning) => warning.code === 'distant-anchor')
        .map((warning) => warning.nodeId),
    ).toEqual([4, 5]);
    const anchored = nodes.map((node) => (node.id === 3 ? { ...node, isAnchor: true } : node));
    expect(
      (await lintTree(defineTree({ nodes: anchored }))).filter(
        (warning) => warning.code === 'distant-anchor',
      ),
    ).toEqual([]);
  });

  test('a switch or empty node whose before exploration passes through, unless it is blocking', async () => {
    const before = () => {};
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit },
        { id: 10, type: 'switch', parent: 2, name: 'account', chunks: ['account'], before },
        { id: 11, type: 'emit', parent: 10, chunks: ['password'], emit },
        { id: 20, type: 'empty', parent: 2, chunks: ['orders'], before },
        { id: 21, type: 'emit', parent: 20, chunks: ['tracking'], emit },
        { id: 30, type: 'switch', parent: 2, chunks: ['blocked'], before, isBlocking: true },
        { id: 31, type: 'emit', parent: 30, chunks: ['inside'], emit },
        { id: 40, type: 'empty', parent: 2, chunks: ['leafish'], before },
      ],
    });
    const warnings = (await lintTree(tree)).filter((warning) => warning.code === 'before-passed-through');
    expect(warnings.map((warning) => warning.nodeId)).toEqual([10, 20]);
    expect(warnings[0]!.message).toContain('the switch node 10 ("account") has a "before" callback');
    expect(warnings[0]!.message).toContain('its before runs only when exploration stops on it');
    expect(warnings[0]!.fix).toContain('Set isBlocking: true on node 10');
  });

  test('an agent without fallback', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'assistente', fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit },
        { id: 5, type: 'agent', parent: 1, name: 'operatore' },
        { id: 6, type: 'emit', parent: 5, chunks: ['operatore'], emit },
      ],
    });
    const warnings = (await lintTree(tree)).filter((warning) => warning.code === 'agent-without-fallback');
    expect(warnings).toEqual([
      {
        code: 'agent-without-fallback',
        nodeId: 5,
        message: expect.stringContaining('agent 5 ("operatore") has no fallback'),
        fix: expect.stringContaining('Give agent 5 a fallback'),
      },
    ]);
    // The code it suggests compiles under noUncheckedIndexedAccess (a link may be absent) and says
    // where the link comes from.
    expect(warnings[0]!.fix).toContain(
      'links: { sorry: <its id> }, fallback: (self, context, special, links) => ({ nodeTarget: links.sorry! })',
    );
  });
});
