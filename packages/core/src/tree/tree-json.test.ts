import { describe, expect, it, test } from 'vitest';
import { defineComponent } from './define-component.js';
import { defineTree } from './define-tree.js';
import type { TreeDefinition } from './node-definition.js';
import { definitionFromJSON, definitionToJSON } from './tree-json.js';
import { TreeValidationError } from './tree-validation-error.js';

const after = () => ({ nodeTarget: 4 });
const before = () => undefined;
const prompt = () => ({ prompt: 'Summarise the chunks.' });

function sampleDefinition(): TreeDefinition {
  return {
    name: 'support',
    nodes: [
      { id: 1, type: 'root', conversationGoal: 'help', topics: ['refunds'], beforeRun: () => undefined },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 4 }) },
      {
        id: 3,
        type: 'query',
        parent: 2,
        chunks: ['refunds', { id: 'doc', text: 'policy', forRag: true, extra: { lang: 'en', year: 2024 } }],
        query: { chunkQty: 5, filter: { must: [{ key: 'lang', match: { value: 'en' } }] } },
        before,
        after,
      },
      { id: 4, type: 'llm', parent: 3, prompt, links: { back: 3 }, similarityThreshold: 0.4 },
      {
        id: 5,
        type: 'emit',
        parent: 4,
        emit: { message: { type: 'static', content: 'Done' } },
        isMute: true,
      },
      { id: 6, type: 'guardrail', parent: 2, warning: { type: 'generated', prompt: 'Warn.' } },
    ],
  };
}

describe('definitionToJSON', () => {
  const definition = sampleDefinition();
  const json = definitionToJSON(definition);

  it('drops callbacks and keeps everything else, constant outputs included', () => {
    expect(json.name).toBe('support');
    expect(json.nodes).toEqual([
      { id: 1, type: 'root', conversationGoal: 'help', topics: ['refunds'] },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'query',
        parent: 2,
        chunks: ['refunds', { id: 'doc', text: 'policy', forRag: true, extra: { lang: 'en', year: 2024 } }],
        query: { chunkQty: 5, filter: { must: [{ key: 'lang', match: { value: 'en' } }] } },
      },
      { id: 4, type: 'llm', parent: 3, links: { back: 3 }, similarityThreshold: 0.4 },
      {
        id: 5,
        type: 'emit',
        parent: 4,
        emit: { message: { type: 'static', content: 'Done' } },
        isMute: true,
      },
      { id: 6, type: 'guardrail', parent: 2, warning: { type: 'generated', prompt: 'Warn.' } },
    ]);
  });

  it('is plain JSON that survives stringify and parse', () => {
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('copies values, so changing the JSON leaves the definition alone', () => {
    const copy = definitionToJSON(definition);
    (copy.nodes[2]!.chunks as { text: string }[])[1]!.text = 'changed';
    (copy.nodes[3]!.links as Record<string, number>).back = 99;
    expect(definition.nodes[2]!.chunks![1]).toMatchObject({ text: 'policy' });
    expect(definition.nodes[3]!.links).toEqual({ back: 3 });
  });

  it('leaves out the name when there is none, and undefined values', () => {
    const plain = definitionToJSON({
      nodes: [
        { id: 1, type: 'root', name: undefined },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
      ],
    });
    expect(plain).toEqual({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
      ],
    });
    expect('name' in plain).toBe(false);
    expect('name' in plain.nodes[0]!).toBe(false);
  });
});

describe('definitionFromJSON', () => {
  it('rebuilds the definition without callbacks', () => {
    const json = definitionToJSON(sampleDefinition());
    const definition = definitionFromJSON(json);
    expect(definition).toEqual(json);
    expect(defineTree(definition).node(3).definition).not.toHaveProperty('after');
  });

  it('attaches callbacks by node id', () => {
    const json = JSON.parse(JSON.stringify(definitionToJSON(sampleDefinition())));
    const definition = definitionFromJSON(json, { 3: { before, after }, 4: { prompt } });
    const tree = defineTree(definition);
    expect(tree.node(3).definition).toMatchObject({ before, after, query: { chunkQty: 5 } });
    expect(tree.node(4).definition).toMatchObject({ prompt, links: { back: 3 } });
  });

  it('round trips: the rebuilt tree has the same content hash, nodes and chunks', () => {
    const original = defineTree(sampleDefinition());
    const rebuilt = defineTree(
      definitionFromJSON(JSON.parse(JSON.stringify(definitionToJSON(original.definition))), { 3: { after } }),
    );
    expect(rebuilt.contentHash).toBe(original.contentHash);
    expect(rebuilt.name).toBe('support');
    expect(rebuilt.chunks).toEqual(original.chunks);
    expect([...rebuilt.nodes.keys()]).toEqual([...original.nodes.keys()]);
    for (const node of original.nodes.values()) {
      const copy = rebuilt.node(node.id);
      expect(copy.children).toEqual(node.children);
      expect(copy.links).toEqual(node.links);
      expect(copy.similarityThreshold).toBe(node.similarityThreshold);
    }
  });

  it('round trips a tree that uses a component: the expanded form is stored', () => {
    const greeter = defineComponent({
      name: 'greeter',
      nodes: [
        { id: 1, type: 'head', init: () => undefined },
        { id: 2, type: 'emit', parent: 1, chunks: [{ id: 'hi', text: 'hello' }], links: { self: 2 } },
        { id: 3, type: 'tail', parent: 2 },
      ],
    });
    const original = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 10, type: 'component', parent: 2, use: greeter, idBase: 10 },
        { id: 20, type: 'component', parent: 2, use: greeter, idBase: 20 },
        { id: 30, type: 'emit', parent: 10 },
      ],
    });
    const json = definitionToJSON(original.definition);
    expect(JSON.stringify(json)).not.toContain('"use"');
    expect(JSON.stringify(json)).not.toContain('idBase');
    expect(json.nodes.map((node) => node.id)).toEqual([1, 2, 10, 11, 12, 13, 20, 21, 22, 23, 30]);

    const rebuilt = defineTree(definitionFromJSON(JSON.parse(JSON.stringify(json))));
    expect(rebuilt.contentHash).toBe(original.contentHash);
    expect(rebuilt.chunks.map((chunk) => chunk.id)).toEqual(['10/hi', '20/hi']);
    expect(rebuilt.node(12).links).toEqual({ self: 12 });
    expect(rebuilt.node(22).links).toEqual({ self: 22 });
    expect(rebuilt.node(30).parentId).toBe(12);
    expect(rebuilt.node(22).scopeId).toBe(20);
  });
});

describe('definitionFromJSON on malformed JSON', () => {
  test.each([[{}], [null], [{ nodes: [null] }], [{ nodes: 'x' }]])('%j is a TreeValidationError', (json) => {
    expect(() => definitionFromJSON(json as never)).toThrow(TreeValidationError);
  });
});
