import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineTree } from './define-tree.js';
import { formatTreeDocument } from './format-tree-document.js';
import { definitionToDocument, documentToDefinition } from './tree-document.js';
import { TREE_DOCUMENT_SCHEMA } from './tree-document-schema.js';
import type { TreeDocument } from './tree-document-types.js';
import { TreeValidationError } from './tree-validation-error.js';
import { parseTreeDocument, validateTreeDocument } from './validate-tree-document.js';

const SCHEMA_FILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../schema/tree-document.schema.json',
);

const document: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'shop',
  module: './callbacks.ts',
  components: {
    greeting: {
      nodes: [
        { id: 1, type: 'head' },
        {
          id: 2,
          type: 'emit',
          parent: 1,
          chunks: ['ciao', 'buongiorno'],
          emit: { message: { type: 'static', content: 'Ciao!' } },
        },
      ],
    },
  },
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, callbacks: { fallback: 'apologise' } },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'shipping',
      chunks: ['quanto costa la spedizione', { text: 'tempi di consegna', extra: { lang: 'it' } }],
      callbacks: { emit: 'shippingMessage' },
    },
    { id: 4, type: 'component', parent: 2, use: 'greeting', idBase: 100 },
  ],
};
const exports = {
  apologise: () => ({ nodeTarget: 2 }),
  shippingMessage: () => ({ message: { type: 'static', content: '7,90 €' } }),
  notACallback: 3,
};

describe('tree documents', () => {
  it('the published schema file is the schema the library checks with', () => {
    const text = `${JSON.stringify(TREE_DOCUMENT_SCHEMA, null, 2)}\n`;
    if (process.env.UPDATE_TREE_SCHEMA) writeFileSync(SCHEMA_FILE, text);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(text);
  });

  it('builds the tree: callbacks by export name, components by name', () => {
    expect(validateTreeDocument(document)).toEqual([]);
    const tree = defineTree(documentToDefinition(document, exports));
    expect((tree.node(2).definition as { fallback?: unknown }).fallback).toBe(exports.apologise);
    expect((tree.node(3).definition as { emit?: unknown }).emit).toBe(exports.shippingMessage);
    expect(tree.node(102).parentId).toBe(2);
    expect(tree.chunks.map((chunk) => chunk.text)).toContain('buongiorno');
  });

  it('names each missing or misplaced callback with the fix', () => {
    const broken: TreeDocument = {
      ...document,
      nodes: [
        ...document.nodes.slice(0, 2),
        { id: 3, type: 'emit', parent: 2, chunks: ['x'], callbacks: { emit: 'nope', fallback: 'apologise' } },
        {
          id: 5,
          type: 'emit',
          parent: 2,
          chunks: ['y'],
          emit: { message: { type: 'static', content: 'a' } },
          callbacks: { emit: 'shippingMessage' },
        },
        { id: 4, type: 'component', parent: 2, use: 'missing', idBase: 100 },
      ],
    };
    const error = (() => {
      try {
        documentToDefinition(broken, exports);
      } catch (caught) {
        return caught as TreeValidationError;
      }
      throw new Error('no error');
    })();
    expect(TreeValidationError.isInstance(error)).toBe(true);
    const text = error.problems.map((problem) => `${problem.nodeId}: ${problem.message} ${problem.fix}`);
    expect(text).toEqual([
      expect.stringMatching(
        /^3: callbacks.emit is "nope", which the module "\.\/callbacks\.ts" does not export.*it exports: apologise, shippingMessage/,
      ),
      expect.stringMatching(
        /^3: an emit node has no "fallback" callback.*supports: before, prompt, emit, after/,
      ),
      expect.stringMatching(/^5: "emit" is both a constant and the callback "shippingMessage"/),
      expect.stringMatching(/^4: "use" is "missing".*use one of: greeting/),
    ]);
  });

  it('the schema names the node and the path of a wrong shape', () => {
    const problems = validateTreeDocument({
      version: 1,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: 'yes' },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          similarityThreshold: 2,
          chunks: [''],
          isPrimary: true,
          colour: 'red',
        },
        { id: 4, type: 'guardrail', parent: 2, callbacks: { after: 'x' } },
      ],
    });
    const lines = problems.map((problem) => `${problem.nodeId} ${problem.message}`);
    expect(lines).toContain('2 at /nodes/1/isPrimary: must be boolean.');
    expect(lines).toContain(
      '3 at /nodes/2/similarityThreshold (node 3): similarityThreshold must be from -1 to 1; it is 2.',
    );
    expect(lines).toContain('3 at /nodes/2: unknown property "colour".');
    expect(lines).toContain('3 at /nodes/2: "isPrimary" is not a property of an emit node.');
    expect(lines).toContain('4 at /nodes/3/callbacks: this node type has no callbacks.');
    // A range names the node by its id and name (not its place in the file) and gives the bounds.
    const [range] = validateTreeDocument({
      version: 1,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 7, type: 'llm', parent: 2, name: 'advisor', chunks: ['x'], maxToolSteps: 0 },
      ],
    });
    expect(range).toEqual({
      nodeId: 7,
      message: 'at /nodes/2/maxToolSteps (node 7 "advisor"): maxToolSteps must be 1 or more; it is 0.',
      fix: 'Set maxToolSteps to a value of 1 or more.',
    });
    expect(validateTreeDocument({ version: 2, nodes: [] })[0]?.message).toMatch(
      /version: must be equal to constant/,
    );
  });

  it('a problem inside a component names the component and its node after the path', () => {
    const problems = validateTreeDocument({
      version: 1,
      components: {
        'address/form': {
          nodes: [
            { id: 1, type: 'form', name: 'address', isPrimary: 'yes' },
            { id: 2, type: 'llm', parent: 1, name: 'street', chunks: ['x'], maxToolSteps: 0, mute: true },
          ],
        },
      },
      nodes: [{ id: 1, type: 'root' }],
    });
    const lines = problems.map((problem) => `${problem.nodeId} ${problem.message} ${problem.fix}`);
    // A component's nodes have local ids: no tree node id, the component and the node in the message.
    expect(lines).toContain(
      'undefined at /components/address~1form/nodes/0/isPrimary (component "address/form", node 1 "address"): must be boolean. Correct the value (docs/tree-format.md gives the shape of every property).',
    );
    expect(lines).toContain(
      'undefined at /components/address~1form/nodes/1/maxToolSteps (component "address/form", node 2 "street"): maxToolSteps must be 1 or more; it is 0. Set maxToolSteps to a value of 1 or more.',
    );
    expect(lines).toContain(
      'undefined at /components/address~1form/nodes/1 (component "address/form", node 2 "street"): unknown property "mute". Did you mean "isMute"?',
    );
  });

  it('an unknown key is one problem with "Did you mean …?", as in defineTree', () => {
    const problems = validateTreeDocument({
      version: 1,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: ['x'], mute: true, callbacks: { afer: 'next' } },
      ],
    });
    expect(problems.map((problem) => `${problem.nodeId} ${problem.message} ${problem.fix}`)).toEqual([
      '3 at /nodes/2: unknown property "mute". Did you mean "isMute"?',
      '3 at /nodes/2/callbacks: an emit node has no "afer" callback. Did you mean "after"?',
    ]);
  });

  it('a JSON syntax error says where', () => {
    expect(() => parseTreeDocument('{\n  "nodes": [,]\n}', 'tree.json')).toThrow(
      /tree.json is not valid JSON at line 2, column 13/,
    );
  });

  it('formats stably: the same document gives the same bytes whatever its key order', () => {
    const shuffled = JSON.parse(JSON.stringify(document), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as TreeDocument;
    const text = formatTreeDocument(document);
    expect(formatTreeDocument(shuffled)).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('"format"')).toBeLessThan(text.indexOf('"nodes"'));
    const node3 = text.slice(text.indexOf('"id": 3'));
    expect(node3.indexOf('"parent"')).toBeLessThan(node3.indexOf('"chunks"'));
    expect(node3.indexOf('"chunks"')).toBeLessThan(node3.indexOf('"callbacks"'));
  });

  it('a definition becomes a document whose callbacks are named, and back to the same tree', () => {
    const apologise = () => ({ nodeTarget: 2 });
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root', defaultSimilarityThreshold: 0.3 },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: apologise },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['a'],
          emit: { message: { type: 'static', content: 'b' } },
        },
      ],
    });
    const names = new Map<unknown, string>();
    const written = definitionToDocument(tree.definition, {
      nameOf: (callback, nodeId, key) => {
        const name = `node${nodeId}${key}`;
        names.set(name, callback as never);
        return name;
      },
    });
    expect(written.nodes[1]).toEqual({
      id: 2,
      type: 'agent',
      parent: 1,
      isPrimary: true,
      callbacks: { fallback: 'node2fallback' },
    });
    expect(validateTreeDocument(written)).toEqual([]);
    const again = defineTree(documentToDefinition(written, Object.fromEntries(names)));
    expect(again.contentHash).toBe(tree.contentHash);
    expect((again.node(2).definition as { fallback?: unknown }).fallback).toBe(apologise);
  });
});

describe('tools in tree documents', () => {
  const withTools = (callbacks: Record<string, string>): TreeDocument => ({
    format: 'treeagent-tree',
    module: './callbacks.ts',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['ordine'],
        emit: { message: { type: 'generated' } },
        tools: {
          orderStatus: {
            description: 'Lo stato di un ordine',
            parameters: { type: 'object', properties: { orderNumber: { type: 'string' } } },
            timeoutMs: 5000,
          },
        },
        maxToolSteps: 2,
        callbacks,
      },
    ],
  });
  const lookUpOrder = () => ({ status: 'spedito' });

  it('describes a tool as data and names its function in callbacks["tools.<name>"]', () => {
    const doc = withTools({ 'tools.orderStatus': 'lookUpOrder' });
    expect(validateTreeDocument(doc)).toEqual([]);
    const tree = defineTree(documentToDefinition(doc, { lookUpOrder }));
    const tool = (
      tree.node(3).definition as { tools: Record<string, { execute: unknown; timeoutMs: number }> }
    ).tools.orderStatus!;
    expect(tool.execute).toBe(lookUpOrder);
    expect(tool.timeoutMs).toBe(5000);
    // And back: the same document.
    const written = definitionToDocument(tree.definition, { nameOf: () => 'lookUpOrder' });
    expect(written.nodes[2]).toMatchObject({
      tools: doc.nodes[2]!.tools,
      maxToolSteps: 2,
      callbacks: { 'tools.orderStatus': 'lookUpOrder' },
    });
  });

  it('a tool without its function, or a function for no tool, is a problem naming the node and the fix', () => {
    expect(() => documentToDefinition(withTools({}), { lookUpOrder })).toThrow(
      /tool "orderStatus" has no function: callbacks has no "tools.orderStatus"/,
    );
    expect(() =>
      documentToDefinition(withTools({ 'tools.orderStatus': 'lookUpOrder', 'tools.refund': 'lookUpOrder' }), {
        lookUpOrder,
      }),
    ).toThrow(/the node has no tool "refund"/);
    expect(() =>
      documentToDefinition(withTools({ 'tools.orderStatus': 'missing' }), { lookUpOrder }),
    ).toThrow(/"missing", which the module "\.\/callbacks\.ts" does not export as a function/);
  });
});
