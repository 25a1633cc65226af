import { describe, expect, it } from 'vitest';
import { defineTree, MessageType, type NodeDefinition, TreeAgent } from '../../index.js';
import { ExactEmbedder, ScriptedLanguageModel } from '../../test/index.js';
import { rejection } from '../../test/rejection.js';
import { say } from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0],
  beta: [0, 1, 0],
  rewritten: [0, 1, 0],
};

/** A callback returning a value the engine must refuse (typed loosely on purpose). */
const returns =
  (value: unknown): any =>
  () =>
    value;

interface Case {
  name: string;
  /** The node (other than root 1 and agent 2) whose callback misbehaves, reached with message "alpha". */
  nodes: NodeDefinition[];
  root?: Partial<NodeDefinition>;
  agent?: Partial<NodeDefinition>;
  nodeId: number;
  callback: string;
  field: string;
  /** Messages to send before the failing one (for callbacks that run on a later interaction). */
  warmUp?: string[];
}

const emitNode = (emit: unknown, extra: object = {}): NodeDefinition =>
  ({ id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: returns(emit), ...extra }) as NodeDefinition;

const afterNode = (after: unknown): NodeDefinition => ({
  id: 3,
  type: 'empty',
  parent: 2,
  chunks: ['alpha'],
  after: returns(after),
});

const cases: Case[] = [
  { name: 'after returns a string', nodes: [afterNode('next')], nodeId: 3, callback: 'after', field: '' },
  {
    name: 'after nodeTarget is not an integer',
    nodes: [afterNode({ nodeTarget: 'four' })],
    nodeId: 3,
    callback: 'after',
    field: 'nodeTarget',
  },
  {
    name: 'after step is unknown',
    nodes: [afterNode({ nodeTarget: 3, step: 'execute' })],
    nodeId: 3,
    callback: 'after',
    field: 'step',
  },
  {
    name: 'after outcome is unknown',
    nodes: [afterNode({ outcome: 'maybe' })],
    nodeId: 3,
    callback: 'after',
    field: 'outcome',
  },
  {
    name: 'after resume is not a boolean',
    nodes: [afterNode({ nodeTarget: 2, resume: 'yes' })],
    nodeId: 3,
    callback: 'after',
    field: 'resume',
  },
  {
    name: 'after has a misspelt field',
    nodes: [afterNode({ nodeTargte: 3 })],
    nodeId: 3,
    callback: 'after',
    field: 'nodeTargte',
  },
  {
    name: 'beforeRun nodeTarget is fractional',
    nodes: [emitNode(say('A'))],
    root: { beforeRun: returns({ nodeTarget: 1.5 }) },
    nodeId: 1,
    callback: 'beforeRun',
    field: 'nodeTarget',
  },
  {
    name: 'beforeRun returns an array',
    nodes: [emitNode(say('A'))],
    root: { beforeRun: returns([3]) },
    nodeId: 1,
    callback: 'beforeRun',
    field: '',
  },
  {
    name: 'emit STATIC without content',
    nodes: [emitNode({ message: { type: MessageType.STATIC } })],
    nodeId: 3,
    callback: 'emit',
    field: 'message.content',
  },
  {
    name: 'emit message type unknown',
    nodes: [emitNode({ message: { type: 'loud', content: 'x' } })],
    nodeId: 3,
    callback: 'emit',
    field: 'message.type',
  },
  {
    name: 'emit without message',
    nodes: [emitNode({ options: ['a'] })],
    nodeId: 3,
    callback: 'emit',
    field: 'message',
  },
  {
    name: 'emit GENERATED with content',
    nodes: [emitNode({ message: { type: MessageType.GENERATED, content: 'no' } })],
    nodeId: 3,
    callback: 'emit',
    field: 'message.content',
  },
  {
    name: 'emit with an empty option',
    nodes: [emitNode({ ...say('A'), options: ['ok', ''] })],
    nodeId: 3,
    callback: 'emit',
    field: 'options[1]',
  },
  {
    name: 'emit source without content',
    nodes: [emitNode({ ...say('A'), sources: [{ title: 'doc' }] })],
    nodeId: 3,
    callback: 'emit',
    field: 'sources[0].content',
  },
  {
    name: 'emit waitInteraction is not a boolean',
    nodes: [emitNode({ ...say('A'), waitInteraction: 'yes' })],
    nodeId: 3,
    callback: 'emit',
    field: 'waitInteraction',
  },
  {
    name: 'prompt text is a number',
    nodes: [emitNode({ message: { type: MessageType.GENERATED } }, { prompt: returns({ prompt: 3 }) })],
    nodeId: 3,
    callback: 'prompt',
    field: 'prompt',
  },
  {
    name: 'prompt segment of unknown type',
    nodes: [
      emitNode(
        { message: { type: MessageType.GENERATED } },
        { prompt: returns({ segments: [{ type: 'image', content: 'x' }] }) },
      ),
    ],
    nodeId: 3,
    callback: 'prompt',
    field: 'segments[0].type',
  },
  {
    name: 'responseFormat schema is not an object',
    nodes: [
      { id: 3, type: 'llm', parent: 2, chunks: ['alpha'], responseFormat: returns({ schema: 'json' }) },
    ],
    nodeId: 3,
    callback: 'responseFormat',
    field: 'schema',
  },
  {
    name: 'responseFormat attemptsLimit is zero',
    nodes: [
      {
        id: 3,
        type: 'llm',
        parent: 2,
        chunks: ['alpha'],
        responseFormat: returns({ schema: { type: 'object' }, attemptsLimit: 0 }),
      },
    ],
    nodeId: 3,
    callback: 'responseFormat',
    field: 'attemptsLimit',
  },
  {
    name: 'query chunkQty is zero',
    nodes: [{ id: 3, type: 'query', parent: 2, chunks: ['alpha'], query: returns({ chunkQty: 0 }) }],
    nodeId: 3,
    callback: 'query',
    field: 'chunkQty',
  },
  {
    name: 'query threshold out of range',
    nodes: [
      { id: 3, type: 'query', parent: 2, chunks: ['alpha'], query: returns({ query: 'x', threshold: 2 }) },
    ],
    nodeId: 3,
    callback: 'query',
    field: 'threshold',
  },
  {
    name: 'query blackList holds an object',
    nodes: [{ id: 3, type: 'query', parent: 2, chunks: ['alpha'], query: returns({ blackList: [{}] }) }],
    nodeId: 3,
    callback: 'query',
    field: 'blackList[0]',
  },
  {
    name: 'fallback without nodeTarget',
    nodes: [
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        before: () => {
          throw new Error('boom');
        },
        emit: say('A'),
      },
    ],
    agent: { fallback: returns({}) },
    nodeId: 2,
    callback: 'fallback',
    field: 'nodeTarget',
  },
  {
    name: 'extendMessage with an empty prompt',
    nodes: [emitNode(say('A'))],
    root: { smartExtendedMessage: true, extendMessage: returns({ prompt: '' }) },
    nodeId: 1,
    callback: 'extendMessage',
    field: 'prompt',
    warmUp: ['alpha'],
  },
];

describe('wrong callback outputs', () => {
  it.each(cases)('$name → INVALID_CALLBACK_OUTPUT naming node, callback and field', async (testCase) => {
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root', ...(testCase.root as object) },
          { id: 2, type: 'agent', parent: 1, isPrimary: true, ...(testCase.agent as object) },
          ...testCase.nodes,
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
      models: new ScriptedLanguageModel({ answers: 'rewritten' }),
    });
    for (const message of testCase.warmUp ?? []) await agent.send('s', message);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.nodeId).toBe(testCase.nodeId);
    expect(error.callback).toBe(testCase.callback);
    expect(error.details.field).toBe(testCase.field);
    expect(error.message).toContain(`"${testCase.callback}" callback of node ${testCase.nodeId}`);
    expect(error.message).toContain(testCase.field ? `field "${testCase.field}"` : 'the output');
  });

  it('an emit node with neither emit nor prompt has nothing to send', async () => {
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          { id: 3, type: 'emit', parent: 2, chunks: ['alpha'] },
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
    });
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.nodeId).toBe(3);
  });

  it('a wrong output goes to the agent fallback like any callback error', async () => {
    const codes: string[] = [];
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root' },
          {
            id: 2,
            type: 'agent',
            parent: 1,
            isPrimary: true,
            fallback: (_self, _context, special) => {
              codes.push(special.error.code);
              return { nodeTarget: 9 };
            },
          },
          afterNode({ nodeTarget: 'nine' }),
          { id: 9, type: 'emit', parent: 2, emit: say('sorry') },
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
    });
    const output = await agent.send('s', 'alpha');
    expect(codes).toEqual(['INVALID_CALLBACK_OUTPUT']);
    expect(output.messages[0]!.content).toBe('sorry');
  });
});
