import { describe, expect, test } from 'vitest';
import { lintTree } from '../lint/lint-tree.js';
import { ScriptedLanguageModel } from '../test/index.js';
import { rejection } from '../test/rejection.js';
import { testAgent } from '../test-support/engine-fixtures.js';
import { defineTree } from './define-tree.js';
import type { NodeDefinition } from './node-definition.js';

const SILENT: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 40, type: 'llm', parent: 2, name: 'advice', chunks: ['alpha'], prompt: { prompt: 'Advise.' } },
];

describe('an llm node that can show nothing', () => {
  test('is a lint error that says what to add', async () => {
    const findings = await lintTree(defineTree({ nodes: SILENT }));
    const finding = findings.find((item) => item.code === 'llm-shows-nothing');
    expect(finding).toMatchObject({ severity: 'error', nodeId: 40 });
    expect(finding!.message).toContain('llm node 40 ("advice") can show nothing');
    expect(finding!.fix).toMatch(/Add an emit child to node 40 .* or give node 40 an "after"/);
  });

  test('an llm node with an after, or with children, is not', async () => {
    for (const node of [
      { ...SILENT[2]!, after: () => ({ nodeTarget: 41 }) },
      { ...SILENT[2]!, id: 42 },
    ] as NodeDefinition[]) {
      const nodes = [
        ...SILENT.slice(0, 2),
        node,
        { id: 41, type: 'emit', parent: node.id, emit: { message: { type: 'static', content: 'ok' } } },
      ] as NodeDefinition[];
      const findings = await lintTree(
        defineTree({
          nodes: [
            ...nodes,
            { id: 5, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'x' } } },
          ],
        }),
      );
      expect(findings.filter((item) => item.code === 'llm-shows-nothing')).toEqual([]);
    }
  });

  test('the LOOP it ends in at run time says the same', async () => {
    const agent = testAgent(SILENT, {
      vectors: { alpha: [1, 0, 0] },
      models: new ScriptedLanguageModel({ answers: 'some advice' }),
      calibrateThresholds: false,
    });
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('LOOP');
    expect(error.message).toContain('Node 40 failed and reached its anchor twice in one turn.');
    expect(error.message).toContain('llm node 40 ("advice") can show nothing');
    expect(error.message).toContain('Fix: Add an emit child to node 40');
  });
});
