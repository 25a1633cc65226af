import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { NODE_TYPES, type NodeType } from '../protocol/constants.js';
import { ALL_CALLBACKS, CALLBACKS_BY_TYPE } from './constants.js';
import { defineComponent } from './define-component.js';
import { defineTree } from './define-tree.js';
import type { TreeDefinition } from './node-definition.js';
import { aNode } from './node-type-article.js';
import { formatProblem, type TreeProblem } from './tree-problem.js';
import { TreeValidationError } from './tree-validation-error.js';

type RawNode = Record<string, unknown>;

const ROOT: RawNode = { id: 1, type: 'root' };
const AGENT: RawNode = { id: 2, type: 'agent', parent: 1, isPrimary: true };
const noop = () => undefined;

/** Runs `defineTree` on a definition that need not type-check and returns the validation error. */
function validationError(definition: unknown): TreeValidationError {
  try {
    defineTree(definition as TreeDefinition);
  } catch (error) {
    if (error instanceof TreeValidationError) return error;
    throw error;
  }
  throw new Error('expected defineTree to throw a TreeValidationError');
}

function problemsOf(nodes: readonly unknown[]): readonly TreeProblem[] {
  return validationError({ nodes }).problems;
}

/** A tree made of the root, the primary agent and `nodes`. */
function withAgent(...nodes: RawNode[]): RawNode[] {
  return [ROOT, AGENT, ...nodes];
}

function expectValid(nodes: readonly unknown[]): void {
  expect(() => defineTree({ nodes } as unknown as TreeDefinition)).not.toThrow();
}

function describeProblems(problems: readonly TreeProblem[]): string {
  return problems.map(formatProblem).join('\n');
}

/** Asserts a problem about `nodeId` whose message matches, with a non-empty fix (matching `fix` if given). */
function expectProblem(
  problems: readonly TreeProblem[],
  nodeId: number | undefined,
  message: RegExp,
  fix?: RegExp,
): TreeProblem {
  const match = problems.find((problem) => problem.nodeId === nodeId && message.test(problem.message));
  expect(
    match,
    `no problem for ${nodeId === undefined ? 'the tree' : `node ${nodeId}`} matching ${message} in:\n${describeProblems(problems)}`,
  ).toBeDefined();
  expect(match!.fix.trim()).not.toBe('');
  if (fix) expect(match!.fix).toMatch(fix);
  return match!;
}

describe('defineTree reports every problem at once', () => {
  const nodes: RawNode[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1 },
    { id: 3, type: 'emit', parent: 1 },
    { id: 4, type: 'empty', parent: 99 },
    { id: 5, type: 'empty', parent: 2 },
    { id: 5, type: 'llm', parent: 2 },
    { id: 6, type: 'empty', parent: 7 },
    { id: 7, type: 'empty', parent: 6 },
    { id: 8, type: 'switch', parent: 2, after: noop },
    { id: 9, type: 'empty', parent: 2, isAnchr: true },
    { id: 10, type: 'llm', parent: 2, chunks: [{ text: 'refunds', forRag: true }] },
    { id: 11, type: 'empty', parent: 2, links: { gone: 404, group: 12 } },
    { id: 12, type: 'component', parent: 2 },
    { id: 13, type: 'tail', parent: 2 },
    { id: 14, type: 'empty', parent: 2, similarityThreshold: 1.5 },
    { id: 15, type: 'guardrail', parent: 2 },
    { id: 16, type: 'emit', parent: 2, emit: { message: { type: 'generated', content: 'Hi' } } },
  ];
  const error = validationError({ nodes });
  const expected: [number | undefined, RegExp][] = [
    [1, /0 primary agents/],
    [3, /emit node is a child of the root/],
    [4, /parent 99 does not exist/],
    [5, /duplicate id 5 \(types empty and llm\)/],
    [6, /cycle: 6 → 7 → 6/],
    [8, /switch node does not support the "after" callback/],
    [9, /unknown property "isAnchr"/],
    [10, /forRag: true on an llm node/],
    [11, /link "gone" points to node 404, which does not exist/],
    [11, /link "group" points to the component node 12/],
    [12, /0 head nodes/],
    [13, /tail is not inside a component/],
    [14, /similarityThreshold is 1.5, outside \[-1, 1\]/],
    [15, /guardrail needs a "warning"/],
    [16, /GENERATED message cannot have "content"/],
  ];

  it.each(expected)('includes the problem of node %s matching %s', (nodeId, message) => {
    expectProblem(error.problems, nodeId, message);
  });

  it('is one TreeValidationError with code TREE_VALIDATION', () => {
    expect(error).toBeInstanceOf(TreeValidationError);
    expect(error).toBeInstanceOf(TreeAgentError);
    expect(TreeAgentError.hasCode(error, 'TREE_VALIDATION')).toBe(true);
    expect(error.name).toBe('TreeValidationError');
    expect(error.problems.length).toBeGreaterThanOrEqual(expected.length);
    expect(error.details.problems).toEqual(error.problems);
  });

  it('gives every problem a message and a fix', () => {
    for (const problem of error.problems) {
      expect(problem.message.trim()).not.toBe('');
      expect(problem.fix.trim()).not.toBe('');
    }
  });

  it('lists every problem in its message, one line each, naming the node', () => {
    expect(error.message).toContain(`The tree definition has ${error.problems.length} problems:`);
    for (const problem of error.problems) expect(error.message).toContain(formatProblem(problem));
    expect(error.message).toContain('node 8: a switch node does not support the "after" callback.');
    expect(error.message.split('\n')).toHaveLength(error.problems.length + 1);
  });

  it('reports a cycle once, however many nodes lead into it', () => {
    const problems = problemsOf(
      withAgent(
        { id: 6, type: 'empty', parent: 7 },
        { id: 7, type: 'empty', parent: 8 },
        { id: 8, type: 'empty', parent: 6 },
        { id: 9, type: 'empty', parent: 8 },
        { id: 10, type: 'empty', parent: 10 },
      ),
    );
    expect(problems.filter((problem) => /cycle/.test(problem.message))).toHaveLength(2);
    expectProblem(problems, 6, /cycle: 6 → 7 → 8 → 6/, /Break the cycle/);
    expectProblem(problems, 10, /cycle: 10 → 10/);
  });

  it('says "1 problem" in the singular', () => {
    const single = validationError({ nodes: withAgent({ id: 3, type: 'guardrail', parent: 2 }) });
    expect(single.problems).toHaveLength(1);
    expect(single.message).toMatch(/^The tree definition has 1 problem:\n {2}- node 3: /);
  });

  it('reports duplicate chunk ids together with the structural problems', () => {
    const problems = problemsOf(
      withAgent(
        { id: 3, type: 'emit', parent: 2, chunks: [{ id: 'faq', text: 'questions' }] },
        { id: 4, type: 'emit', parent: 2, chunks: [{ id: 'faq', text: 'answers' }] },
        { id: 5, type: 'empty', parent: 99 },
      ),
    );
    expectProblem(problems, 5, /parent 99 does not exist/);
    expectProblem(problems, 4, /chunk id "faq" is used twice/);
  });
});

describe('defineTree: the definition and its nodes', () => {
  it.each([null, 42, {}, { nodes: 'x' }])('rejects a definition without a nodes array (%j)', (definition) => {
    const error = validationError(definition);
    expect(error.problems).toHaveLength(1);
    expectProblem(error.problems, undefined, /no "nodes" array/, /\{ nodes: \[\.\.\.\] \}/);
  });

  it('reports a node that is not an object by its index', () => {
    const problems = problemsOf([ROOT, AGENT, 42, 'emit']);
    expectProblem(problems, undefined, /node at index 2 is not an object/);
    expectProblem(problems, undefined, /node at index 3 is not an object/);
  });

  it('reports a null node by its index instead of crashing', () => {
    const problems = problemsOf([ROOT, AGENT, null]);
    expectProblem(problems, undefined, /node at index 2 is not an object/);
  });

  it('reports an unknown type and lists the types', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'banana', parent: 2 }));
    expectProblem(
      problems,
      3,
      /unknown type "banana"/,
      /root, agent, empty, query, llm, emit, switch, guardrail/,
    );
  });

  it.each([undefined, '3', 3.5])('reports a node whose id is %j', (id) => {
    const problems = problemsOf(withAgent({ id, type: 'empty', parent: 2 }));
    expectProblem(problems, undefined, /node at index 2 has id/, /integer "id"/);
  });
});

describe('defineTree: roots and agents', () => {
  it('reports a tree without a root', () => {
    const problems = problemsOf([{ id: 2, type: 'agent', parent: 1, isPrimary: true }]);
    expectProblem(problems, undefined, /the tree has 0 root nodes\./, /exactly one node of type "root"/);
  });

  it('reports two roots, naming them', () => {
    const problems = problemsOf([ROOT, AGENT, { id: 50, type: 'root' }]);
    expectProblem(problems, undefined, /the tree has 2 root nodes \(1, 50\)/);
  });

  it('reports a root with a parent', () => {
    const problems = problemsOf([{ ...ROOT, parent: 2 }, AGENT]);
    expectProblem(problems, 1, /the root has a parent/, /Remove "parent"/);
  });

  it('reports a root without agents as having 0 primary agents', () => {
    const problems = problemsOf([ROOT]);
    expectProblem(problems, 1, /the root has 0 primary agents\./, /isPrimary: true on exactly one agent/);
  });

  it('reports agents none of which is primary', () => {
    const problems = problemsOf([
      ROOT,
      { id: 2, type: 'agent', parent: 1 },
      { id: 3, type: 'agent', parent: 1, isPrimary: false },
    ]);
    expectProblem(problems, 1, /0 primary agents/);
  });

  it('reports two primary agents, naming them', () => {
    const problems = problemsOf([ROOT, AGENT, { id: 3, type: 'agent', parent: 1, isPrimary: true }]);
    expectProblem(problems, 1, /the root has 2 primary agents \(2, 3\)/);
  });

  it('accepts one primary agent among several', () => {
    expectValid([
      ROOT,
      { id: 2, type: 'agent', parent: 1 },
      { id: 3, type: 'agent', parent: 1, isPrimary: true },
    ]);
  });

  it('reports a non-boolean isPrimary', () => {
    const problems = problemsOf([ROOT, AGENT, { id: 3, type: 'agent', parent: 1, isPrimary: 'yes' }]);
    expectProblem(problems, 3, /"isPrimary" must be a boolean/);
  });

  it.each(['empty', 'query', 'llm', 'emit', 'switch'] as const)(
    'reports a %s node as a child of the root',
    (type) => {
      const problems = problemsOf(withAgent({ id: 3, type, parent: 1 }));
      expectProblem(problems, 3, new RegExp(`${aNode(type)} node is a child of the root`), /under an agent/);
    },
  );

  it('reports a guardrail as a child of the root', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'guardrail', parent: 1, warning: 'No.' }));
    expectProblem(problems, 3, /a guardrail node is a child of the root/);
  });

  it('reports a component as a child of the root', () => {
    const problems = problemsOf(
      withAgent(
        { id: 10, type: 'component', parent: 1 },
        { id: 11, type: 'head', parent: 10 },
        { id: 12, type: 'emit', parent: 11 },
      ),
    );
    expectProblem(problems, 10, /a component node is a child of the root/);
  });

  it('reports an agent that is not a child of the root', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'agent', parent: 2 }));
    expectProblem(problems, 3, /agent node is not a child of the root/, /directly to the root/);
  });
});

describe('defineTree: parents and ids', () => {
  it('reports an unknown parent', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 30 }));
    expectProblem(problems, 3, /parent 30 does not exist/, /existing node/);
  });

  it.each([undefined, null])('reports a non-root node whose parent is %j', (parent) => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent }));
    expectProblem(problems, 3, /the emit node has no parent/, /Set "parent"/);
  });

  it('reports a duplicate id with both types', () => {
    const problems = problemsOf(
      withAgent({ id: 3, type: 'emit', parent: 2 }, { id: 3, type: 'query', parent: 2 }),
    );
    expectProblem(problems, 3, /duplicate id 3 \(types emit and query\)/, /its own id/);
  });

  it('reports a node that reuses the root id', () => {
    const problems = problemsOf(withAgent({ id: 1, type: 'emit', parent: 2 }));
    expectProblem(problems, 1, /duplicate id 1 \(types root and emit\)/);
  });

  it('reports a two-node cycle', () => {
    const problems = problemsOf(
      withAgent({ id: 3, type: 'empty', parent: 4 }, { id: 4, type: 'empty', parent: 3 }),
    );
    expectProblem(problems, 3, /the parents form a cycle: 3 → 4 → 3/);
  });
});

/**
 * A tree where one node of `type` sits in a valid position. Returns the nodes and the id of
 * that node; `extra` is merged into it.
 */
function placed(type: NodeType, extra: RawNode = {}): { nodes: RawNode[]; target: number } {
  const component = (head: RawNode = {}, tail: RawNode | null = null, self: RawNode = {}) => [
    ROOT,
    AGENT,
    { id: 10, type: 'component', parent: 2, ...self },
    { id: 11, type: 'head', parent: 10, ...head },
    { id: 12, type: 'empty', parent: 11 },
    ...(tail ? [{ id: 13, type: 'tail', parent: 12, ...tail }] : []),
  ];
  switch (type) {
    case 'root':
      return { nodes: [{ ...ROOT, ...extra }, AGENT], target: 1 };
    case 'agent':
      return { nodes: [ROOT, { ...AGENT, ...extra }], target: 2 };
    case 'guardrail':
      return { nodes: withAgent({ id: 3, type, parent: 2, warning: 'Be nice.', ...extra }), target: 3 };
    case 'component':
      return { nodes: component({}, null, extra), target: 10 };
    case 'head':
      return { nodes: component(extra), target: 11 };
    case 'tail':
      return { nodes: component({}, extra), target: 13 };
    default:
      return { nodes: withAgent({ id: 3, type, parent: 2, ...extra }), target: 3 };
  }
}

describe('defineTree: callbacks by node type (CALLBACKS_BY_TYPE)', () => {
  it('covers every node type', () => {
    expect(Object.keys(CALLBACKS_BY_TYPE).sort()).toEqual([...NODE_TYPES].sort());
  });

  it.each(NODE_TYPES)('accepts every callback a %s node supports', (type) => {
    const callbacks = Object.fromEntries(CALLBACKS_BY_TYPE[type].map((name) => [name, noop]));
    expectValid(placed(type, callbacks).nodes);
  });

  const unsupported = NODE_TYPES.flatMap((type) =>
    ALL_CALLBACKS.filter((name) => !CALLBACKS_BY_TYPE[type].includes(name)).map(
      (name) => [type, name] as const,
    ),
  );

  it.each(unsupported)('reports a %s node with the "%s" callback', (type, name) => {
    const { nodes, target } = placed(type, { [name]: noop });
    const problems = problemsOf(nodes);
    expect(problems, describeProblems(problems)).toHaveLength(1);
    const supported = CALLBACKS_BY_TYPE[type];
    expectProblem(
      problems,
      target,
      new RegExp(`^${aNode(type)} node does not support the "${name}" callback\\.$`),
      supported.length
        ? new RegExp(`supports only: ${supported.join(', ')}\\.`)
        : new RegExp(`${aNode(type)} node has no callbacks`),
    );
  });

  it('reports every unsupported callback of a node, not just the first', () => {
    const problems = problemsOf(
      withAgent({
        id: 3,
        type: 'guardrail',
        parent: 2,
        warning: 'No.',
        before: noop,
        after: noop,
        emit: noop,
      }),
    );
    for (const name of ['before', 'after', 'emit']) {
      expectProblem(problems, 3, new RegExp(`does not support the "${name}" callback`));
    }
  });

  it.each([
    ['empty', 'before'],
    ['switch', 'before'],
    ['emit', 'after'],
    ['agent', 'fallback'],
  ] as const)('reports a %s node whose "%s" is not a function', (type, name) => {
    const { nodes, target } = placed(type, { [name]: 'later' });
    expectProblem(problemsOf(nodes), target, new RegExp(`^"${name}" must be a function\\.$`));
  });

  it('reports a prompt that is neither a function nor an object', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'llm', parent: 2, prompt: 'Summarise.' }));
    expectProblem(problems, 3, /"prompt" must be a function or a constant output object/);
  });

  it('accepts constant outputs for prompt, emit, query and responseFormat', () => {
    expectValid(
      withAgent(
        { id: 3, type: 'query', parent: 2, query: { chunkQty: 5 } },
        { id: 4, type: 'llm', parent: 3, prompt: { prompt: 'Sum up' }, responseFormat: { schema: {} } },
        { id: 5, type: 'emit', parent: 4, emit: { message: { type: 'static', content: 'Hi' } } },
      ),
    );
  });
});

describe('defineTree: unknown properties', () => {
  it.each([
    ['empty', 'isAnchr', 'isAnchor'],
    ['emit', 'chunk', 'chunks'],
    ['llm', 'promt', 'prompt'],
    ['query', 'similarityTreshold', 'similarityThreshold'],
    ['guardrail', 'warnings', 'warning'],
    ['root', 'conversationGoals', 'conversationGoal'],
    ['emit', 'ismute', 'isMute'],
    ['emit', 'mute', 'isMute'],
    ['llm', 'mute', 'isMute'],
  ] as const)('on a %s node, "%s" suggests "%s"', (type, key, suggestion) => {
    const { nodes, target } = placed(type, { [key]: 1 });
    const problem = expectProblem(problemsOf(nodes), target, new RegExp(`^unknown property "${key}"\\.$`));
    expect(problem.fix).toBe(`Did you mean "${suggestion}"?`);
  });

  it('suggests a property of the agent type on an agent', () => {
    const problems = problemsOf([ROOT, AGENT, { id: 3, type: 'agent', parent: 1, isPrimari: false }]);
    expect(expectProblem(problems, 3, /unknown property "isPrimari"/).fix).toBe('Did you mean "isPrimary"?');
  });

  it('says to remove a property that resembles nothing', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 2, zzzzzzzz: true }));
    expect(expectProblem(problems, 3, /unknown property "zzzzzzzz"/).fix).toBe('Remove it.');
  });

  it('ignores properties set to undefined', () => {
    expectValid(withAgent({ id: 3, type: 'emit', parent: 2, mystery: undefined, before: undefined }));
  });
});

describe('defineTree: chunks', () => {
  it.each(['empty', 'llm', 'emit', 'switch'] as const)('reports forRag chunks on a %s node', (type) => {
    const problems = problemsOf(
      withAgent({ id: 3, type, parent: 2, chunks: ['signpost', { text: 'doc', forRag: true }] }),
    );
    expectProblem(problems, 3, new RegExp(`chunk 1 has forRag: true on ${aNode(type)} node`), /query node/);
  });

  it('reports forRag chunks on an agent', () => {
    const problems = problemsOf([ROOT, { ...AGENT, chunks: [{ text: 'doc', forRag: true }] }]);
    expectProblem(problems, 2, /chunk 0 has forRag: true on an agent node/);
  });

  it('accepts forRag chunks on a query node', () => {
    expectValid(
      withAgent({ id: 3, type: 'query', parent: 2, chunks: [{ text: 'doc', forRag: true }, 'sign'] }),
    );
  });

  it.each(['root', 'component', 'head', 'tail'] as const)('reports chunks on a %s node', (type) => {
    const { nodes, target } = placed(type, { chunks: ['hello'] });
    expectProblem(problemsOf(nodes), target, new RegExp(`${aNode(type)} node cannot hold chunks`));
  });

  it('tells to move head chunks to its child', () => {
    const { nodes } = placed('head', { chunks: ['hello'] });
    expectProblem(problemsOf(nodes), 11, /cannot hold chunks/, /head's child/);
  });

  it('reports malformed chunks', () => {
    const problems = problemsOf(
      withAgent(
        { id: 3, type: 'emit', parent: 2, chunks: ' not a list ' },
        {
          id: 4,
          type: 'emit',
          parent: 2,
          chunks: ['  ', { text: '' }, 7, { text: 'ok', id: 1.5 }, { text: 'ok', extra: [1] }],
        },
      ),
    );
    expectProblem(problems, 3, /"chunks" must be an array/);
    expectProblem(problems, 4, /chunk 0 is empty/);
    expectProblem(problems, 4, /chunk 1 has no text/);
    expectProblem(problems, 4, /chunk 2 has no text/);
    expectProblem(problems, 4, /chunk 3 has id 1.5/);
    expectProblem(problems, 4, /chunk 4 has an "extra" that is not an object/);
  });

  it('reports a chunk id used by two nodes', () => {
    const problems = problemsOf(
      withAgent(
        { id: 3, type: 'emit', parent: 2, chunks: [{ id: 'faq', text: 'questions' }] },
        { id: 4, type: 'emit', parent: 2, chunks: [{ id: 'faq', text: 'answers' }] },
      ),
    );
    expect(problems).toHaveLength(1);
    expectProblem(problems, 4, /chunk id "faq" is used twice/, /its own id/);
  });

  it('reports a chunk id used twice in one node', () => {
    const problems = problemsOf(
      withAgent({
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: [
          { id: 7, text: 'a' },
          { id: 7, text: 'b' },
        ],
      }),
    );
    expectProblem(problems, 3, /chunk id 7 is used twice/);
  });

  it('reports an explicit chunk id equal to a default one', () => {
    const problems = problemsOf(
      withAgent(
        { id: 3, type: 'emit', parent: 2, chunks: ['hello'] },
        { id: 4, type: 'emit', parent: 2, chunks: [{ id: '3:0', text: 'bye' }] },
      ),
    );
    expectProblem(problems, 4, /chunk id "3:0" is used twice/);
  });
});

describe('defineTree: similarity thresholds', () => {
  it.each([1.5, -1.01, Number.NaN, Number.POSITIVE_INFINITY])('reports similarityThreshold %s', (value) => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 2, similarityThreshold: value }));
    expectProblem(problems, 3, /^similarityThreshold is .*, outside \[-1, 1\]\.$/, /between -1 and 1/);
  });

  it("says a similarityThreshold of '0.3' must be a number, without quotes", () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 2, similarityThreshold: '0.3' }));
    expectProblem(
      problems,
      3,
      /^similarityThreshold is "0\.3": it must be a number, not a string\.$/,
      /^Write similarityThreshold: 0\.3 without quotes\.$/,
    );
  });

  it.each([null, 'high', true])('says a similarityThreshold of %s must be a number', (value) => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 2, similarityThreshold: value }));
    expectProblem(problems, 3, /^similarityThreshold is .*: it must be a number/, /between -1 and 1/);
  });

  it.each([-1, 0, 0.5, 1])('accepts similarityThreshold %s', (value) => {
    expectValid(withAgent({ id: 3, type: 'emit', parent: 2, similarityThreshold: value }));
  });

  it('reports a root defaultSimilarityThreshold outside [-1, 1]', () => {
    const problems = problemsOf([{ ...ROOT, defaultSimilarityThreshold: 2 }, AGENT]);
    expectProblem(problems, 1, /defaultSimilarityThreshold is 2, outside \[-1, 1\]/);
  });

  it('reports a root boolean option that is not a boolean', () => {
    const problems = problemsOf([{ ...ROOT, exploreForRagChunks: 'yes' }, AGENT]);
    expectProblem(
      problems,
      1,
      /"exploreForRagChunks" must be a boolean, not "yes"/,
      /exploreForRagChunks: true/,
    );
  });

  it('reports defaultSimilarityThreshold on a node that is not the root', () => {
    const problems = problemsOf(
      withAgent({ id: 3, type: 'emit', parent: 2, defaultSimilarityThreshold: 0.3 }),
    );
    expectProblem(problems, 3, /unknown property "defaultSimilarityThreshold"/);
  });
});

describe('defineTree: guardrails and emit constants', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['generated without prompt', { type: 'generated' }],
    ['of another type', { type: 'static', prompt: 'Warn them.' }],
    ['a number', 3],
  ])('reports a guardrail whose warning is %s', (_label, warning) => {
    const problems = problemsOf(withAgent({ id: 3, type: 'guardrail', parent: 2, warning }));
    expectProblem(problems, 3, /a guardrail needs a "warning"/, /\{ type: "generated", prompt \}/);
  });

  it.each([
    ['a text', 'Please stay polite.'],
    ['generated', { type: 'generated', prompt: 'Ask them to stay polite.' }],
    ['generated with a system prompt', { type: 'generated', prompt: 'p', systemPrompt: 's' }],
  ])('accepts a guardrail warning that is %s', (_label, warning) => {
    expectValid(withAgent({ id: 3, type: 'guardrail', parent: 2, warning }));
  });

  it.each(['Hello', ''])('reports a constant GENERATED emit with content %j', (content) => {
    const problems = problemsOf(
      withAgent({ id: 3, type: 'emit', parent: 2, emit: { message: { type: 'generated', content } } }),
    );
    expectProblem(problems, 3, /a GENERATED message cannot have "content"/, /type STATIC/);
  });

  it('accepts GENERATED without content, STATIC with content, NONE, and an emit callback', () => {
    expectValid(
      withAgent(
        { id: 3, type: 'emit', parent: 2, emit: { message: { type: 'generated' } } },
        { id: 4, type: 'emit', parent: 2, emit: { message: { type: 'generated', content: null } } },
        { id: 5, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'Hello' } } },
        { id: 6, type: 'emit', parent: 2, emit: { message: { type: 'none' }, options: ['a', 'b'] } },
        { id: 7, type: 'emit', parent: 2, emit: () => ({ message: { type: 'generated', content: 'x' } }) },
      ),
    );
  });
});

describe('defineTree: links', () => {
  it('reports a link to a missing node', () => {
    const problems = problemsOf(withAgent({ id: 3, type: 'emit', parent: 2, links: { confirm: 404 } }));
    expectProblem(problems, 3, /link "confirm" points to node 404, which does not exist/, /existing node/);
  });

  it.each([
    ['component', 10, /^Point the link to node 12, the entry of the component \(the child of its head\)\.$/],
    ['head', 11, /^Point the link to node 12, the entry of the component/],
    ['tail', 13, /^Point the link to node 12, the tail's parent/],
  ] as const)('reports a link to a %s node, naming the node to link instead', (type, target, fix) => {
    const problems = problemsOf([
      ...placed('tail').nodes,
      { id: 20, type: 'emit', parent: 2, links: { into: target } },
    ]);
    expect(problems).toHaveLength(1);
    expectProblem(
      problems,
      20,
      new RegExp(`link "into" points to the ${type} node ${target}, which disappears`),
      fix,
    );
  });

  it('accepts links to the nodes inside a component', () => {
    expectValid([
      ...placed('tail').nodes,
      { id: 20, type: 'emit', parent: 2, links: { into: 12, agent: 2 } },
    ]);
  });

  it('reports links that are not integer ids', () => {
    const problems = problemsOf(
      withAgent(
        { id: 3, type: 'emit', parent: 2, links: { next: 'four' } },
        { id: 4, type: 'emit', parent: 2, links: [3] },
      ),
    );
    expectProblem(problems, 3, /link "next" is "four"/, /integer id/);
    expectProblem(problems, 4, /"links" must be an object of name → node id/);
  });
});

describe('defineTree: components, heads and tails', () => {
  const component = (...nodes: RawNode[]) => withAgent({ id: 10, type: 'component', parent: 2 }, ...nodes);

  it('accepts a component with a head and a tail, and one without a tail nor children', () => {
    expectValid(placed('tail').nodes);
    expectValid(placed('head').nodes);
  });

  it('reports a component without a head', () => {
    const problems = problemsOf(component({ id: 12, type: 'emit', parent: 10 }));
    expectProblem(problems, 10, /the component has 0 head nodes/, /exactly one child of type "head"/);
  });

  it('reports a component with two heads', () => {
    const problems = problemsOf(
      component(
        { id: 11, type: 'head', parent: 10 },
        { id: 12, type: 'emit', parent: 11 },
        { id: 13, type: 'head', parent: 10 },
        { id: 14, type: 'emit', parent: 13 },
      ),
    );
    expectProblem(problems, 10, /the component has 2 head nodes/);
  });

  it('reports a head that is not the child of a component', () => {
    const problems = problemsOf(
      withAgent({ id: 11, type: 'head', parent: 2 }, { id: 12, type: 'emit', parent: 11 }),
    );
    expectProblem(problems, 11, /head node is not the child of a component/);
  });

  it('reports a head without a child', () => {
    const problems = problemsOf(component({ id: 11, type: 'head', parent: 10 }));
    expectProblem(problems, 11, /the head has 0 children/);
  });

  it('reports a head with two children', () => {
    const problems = problemsOf(
      component(
        { id: 11, type: 'head', parent: 10 },
        { id: 12, type: 'emit', parent: 11 },
        { id: 13, type: 'emit', parent: 11 },
      ),
    );
    expectProblem(problems, 11, /the head has 2 children/);
  });

  it('reports a tail with children', () => {
    const problems = problemsOf([...placed('tail').nodes, { id: 14, type: 'emit', parent: 13 }]);
    expectProblem(problems, 13, /the tail has children \(14\)/, /attach them to the component node/);
  });

  it('reports a tail outside any component', () => {
    const problems = problemsOf(
      withAgent({ id: 3, type: 'emit', parent: 2 }, { id: 4, type: 'tail', parent: 3 }),
    );
    expectProblem(problems, 4, /the tail is not inside a component/);
  });

  it('reports two tails in one component', () => {
    const problems = problemsOf(
      component(
        { id: 11, type: 'head', parent: 10 },
        { id: 12, type: 'emit', parent: 11 },
        { id: 13, type: 'tail', parent: 12 },
        { id: 14, type: 'tail', parent: 12 },
      ),
    );
    expectProblem(problems, 14, /component 10 has more than one tail \(13 and 14\)/);
  });

  it('reports a tail that is the direct child of a head', () => {
    const problems = problemsOf(
      component(
        { id: 11, type: 'head', parent: 10 },
        { id: 12, type: 'emit', parent: 11 },
        { id: 13, type: 'tail', parent: 11 },
      ),
    );
    expectProblem(problems, 13, /the tail is the direct child of a head/);
  });

  it('reports a component with children but no tail', () => {
    const problems = problemsOf([...placed('head').nodes, { id: 20, type: 'emit', parent: 10 }]);
    expectProblem(problems, 10, /the component has children \(20\) but no tail/, /Add a tail/);
  });

  it('reports a component used without an integer idBase', () => {
    const use = defineComponent({
      name: 'greeter',
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, type: 'emit', parent: 1 },
      ],
    });
    const problems = problemsOf(withAgent({ id: 10, type: 'component', parent: 2, use }));
    expectProblem(
      problems,
      10,
      /component "greeter" is used without an integer "idBase"/,
      /idBase \+ localId/,
    );
  });

  it('reports a component used twice with the same idBase', () => {
    const use = defineComponent({
      name: 'greeter',
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, type: 'emit', parent: 1 },
      ],
    });
    const problems = problemsOf(
      withAgent(
        { id: 10, type: 'component', parent: 2, use, idBase: 100 },
        { id: 20, type: 'component', parent: 2, use, idBase: 100 },
      ),
    );
    expectProblem(problems, 101, /duplicate id 101 \(types head and head\)/, /different idBase/);
    expectProblem(problems, 102, /duplicate id 102 \(types emit and emit\)/);
  });

  it('reports a link inside a component to a node outside it', () => {
    const use = defineComponent({
      name: 'greeter',
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, type: 'emit', parent: 1, links: { out: 7 } },
      ],
    });
    const problems = problemsOf(withAgent({ id: 10, type: 'component', parent: 2, use, idBase: 100 }));
    expectProblem(problems, 102, /link "out" of node 2 in component "greeter" points to 7/, /same component/);
  });
});
