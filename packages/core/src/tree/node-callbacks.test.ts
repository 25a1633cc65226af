import { describe, expect, it } from 'vitest';
import { defineTree } from './define-tree.js';
import {
  afterOf,
  beforeOf,
  fallbackOf,
  promptOf,
  queryOf,
  rootDefinitionOf,
  toolsOf,
} from './node-callbacks.js';
import { defineTool } from './tool-definition.js';

const before = () => {};
const after = () => ({ outcome: 'success' as const });
const fallback = () => ({ nodeTarget: 3 });
const prompt = () => ({ prompt: 'hi' });
const query = () => ({ query: 'q' });
const lookUp = defineTool({ description: 'looks up', parameters: { type: 'object' }, execute: () => 'x' });

const tree = defineTree({
  nodes: [
    { id: 1, type: 'root', afterRun: () => {} },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
    { id: 3, type: 'empty', parent: 2, chunks: ['a'], before, after },
    { id: 4, type: 'query', parent: 2, chunks: ['b'], query },
    {
      id: 5,
      type: 'llm',
      parent: 2,
      chunks: ['c'],
      prompt,
      tools: { lookUp },
      maxToolSteps: 2,
    },
    { id: 6, type: 'guardrail', parent: 2, chunks: ['d'], warning: 'no' },
  ],
});
const node = (id: number) => tree.node(id);

describe('typed reads of node callbacks (no casts of node.definition)', () => {
  it('return what the node type declares and the node sets', () => {
    expect(beforeOf(node(3))).toBe(before);
    expect(afterOf(node(3))).toBe(after);
    expect(fallbackOf(node(2))).toBe(fallback);
    expect(queryOf(node(4))).toBe(query);
    expect(promptOf(node(5))).toBe(prompt);
    expect(toolsOf(node(5))).toEqual({ tools: { lookUp }, maxToolSteps: 2 });
    expect(rootDefinitionOf(node(1))?.afterRun).toBeTypeOf('function');
  });

  it('return undefined for a type without the property, or a node that does not set it', () => {
    expect(beforeOf(node(6))).toBeUndefined();
    expect(beforeOf(node(4))).toBeUndefined();
    expect(afterOf(node(2))).toBeUndefined();
    expect(fallbackOf(node(3))).toBeUndefined();
    expect(queryOf(node(5))).toBeUndefined();
    expect(promptOf(node(4))).toBeUndefined();
    expect(toolsOf(node(6))).toEqual({ tools: undefined, maxToolSteps: undefined });
    expect(rootDefinitionOf(node(2))).toBeUndefined();
  });
});
