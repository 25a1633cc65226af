import { defineComponent, defineTree } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import { describeTree } from '../../../src/tree/tree-view';
import { componentName, TreeIndex } from './tree-index';

const faq = defineComponent({
  name: 'faq',
  nodes: [
    { id: 1, type: 'head', name: 'faq: search' },
    {
      id: 2,
      type: 'emit',
      parent: 1,
      name: 'faq: answer',
      chunks: ['faq'],
      emit: { message: { type: 'static', content: 'A' } },
    },
    { id: 3, type: 'tail', parent: 2 },
  ],
});

const tree = defineTree({
  name: 'index',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'main' },
    { id: 20, type: 'component', parent: 2, use: faq, idBase: 200 },
  ],
});

describe('TreeIndex', () => {
  it('labels nodes and component scopes, and finds ancestors', () => {
    const index = new TreeIndex(describeTree(tree, { chunks: false }));
    const answer = index.tree.nodes.find((node) => node.name === 'faq: answer')!;
    expect(index.nodeLabel(answer.id)).toBe(`faq: answer #${answer.id}`);
    expect(index.nodeLabel(999)).toBe('#999');
    expect(index.scopeLabel(answer.scope)).toBe(`component ${answer.scope.id} · faq`);
    expect(index.ancestors(answer.id).at(-1)).toBe(1);
    expect(index.debug).toBe(false);
    expect(new TreeIndex(describeTree(tree, { chunks: true })).debug).toBe(true);
  });

  it('guesses a component name only from a prefix all its nodes share', () => {
    const node = (name: string | null) => ({ name }) as Parameters<typeof componentName>[0][number];
    expect(componentName([node('a: x'), node('a: y')])).toBe('a');
    expect(componentName([node('a: x'), node('b: y')])).toBeNull();
    expect(componentName([node('plain')])).toBeNull();
    expect(componentName([node('form'), node('form: ask')])).toBe('form');
    expect(componentName([node('other'), node('form: ask')])).toBeNull();
    expect(componentName([node(null), node('form: ask')])).toBeNull();
  });
});
