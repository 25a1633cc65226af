import { defineTool, defineTree, InMemorySessionStore, TreeAgentError } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { checkTurn } from './check-turn.js';
import { formatFailures, formatSummary } from './format-results.js';
import { parseConversations } from './parse-conversations.js';
import { runConversationFile } from './run-conversations.js';

const tree = defineTree({
  name: 'mini',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'menu',
      chunks: ['pizza'],
      emit: { message: { type: 'static', content: 'Quale pizza?' }, options: ['Margherita', 'Diavola'] },
      after: (_self, context, special) => {
        context.sessionState.set('pizza', special.selectedOption);
        return { nodeTarget: 4, step: 'before' };
      },
    },
    { id: 4, type: 'emit', parent: 3, name: 'ok', emit: { message: { type: 'generated' } } },
    {
      id: 5,
      type: 'empty',
      parent: 2,
      name: 'rompi',
      chunks: ['errore'],
      before: () => {
        throw new Error('boom');
      },
    },
  ],
});

const fixtures = `
fixtures:
  model: { answers: ["Ottima scelta!"] }
  embedder: { vectors: { pizza: [1, 0], "vorrei una pizza": [1, 0], errore: [0, 1], "un errore": [0, 1] }, fallback: [0.1, 0.1] }
`;

describe('conversation tests', () => {
  test('restart: true makes a new agent from the factory, closes the old store, and the session goes on', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: riavvio
    session: s-restart
    turns:
      - say: vorrei una pizza
      - option: Margherita
        restart: true
        expect: { node: 4, state: { pizza: Margherita } }
`);
    // One store's data, reopened by each call of the factory as a file store would be.
    const shared = new InMemorySessionStore();
    const opened: { closed: boolean }[] = [];
    const factory = () => {
      const handle = { closed: false };
      opened.push(handle);
      const close = async () => {
        handle.closed = true;
      };
      const sessionStore = new Proxy(shared, {
        get: (target, key) => {
          if (key === 'close') return close;
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { tree, sessionStore };
    };
    const results = await runConversationFile(file, factory);
    expect(results[0]!.passed, formatFailures(results)).toBe(true);
    expect(opened.map((handle) => handle.closed)).toEqual([true, false]);
  });

  test('restart must be a boolean', () => {
    expect(() =>
      parseConversations(`conversations:
  - name: riavvio
    turns:
      - say: ciao
        restart: "yes"
`),
    ).toThrow(/turn 1 "restart" must be true or false/);
  });

  test('a passing conversation: options, state, generated text from the scripted model, expected errors', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: ordina
    turns:
      - say: vorrei una pizza
        expect: { node: menu, options: [Margherita, Diavola], path: [menu] }
      - option: Diavola
        expect: { node: 4, message: { equals: "Ottima scelta!" }, state: { pizza: Diavola } }
      - say: un errore
        expect: { error: CALLBACK_ERROR }
`);
    const results = await runConversationFile(file, { tree });
    expect(results.map((result) => result.passed)).toEqual([true]);
    expect(formatSummary(results)).toMatch(/1 passed, 0 failed$/);
  });

  test('every expectation that does not hold is reported with expected and actual values', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: sbagliata
    turns:
      - say: vorrei una pizza
        expect: { node: ok, message: "Margherita?", options: [Capricciosa], messages: 2, status: no-match, path: [ok] }
  - name: errore inatteso
    turns:
      - say: un errore
`);
    const [result, unexpected] = await runConversationFile(file, { tree });
    expect(result!.passed).toBe(false);
    expect(result!.turns[0]!.mismatches.map((mismatch) => mismatch.field).sort()).toEqual([
      'message',
      'messages',
      'node',
      'options',
      'path',
      'status',
    ]);
    expect(unexpected!.turns[0]!.mismatches).toEqual([
      { field: 'error', expected: 'no error', actual: expect.stringContaining('CALLBACK_ERROR') },
    ]);
    const report = formatFailures([result!]);
    expect(report).toContain('turn 1 ("vorrei una pizza"):');
    expect(report).toContain('- expected "ok"');
    expect(report).toContain('+ actual   "menu"');
  });

  test('a node name or id the tree does not have is reported as a typo, not as a routing failure', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: refuso
    turns:
      - say: vorrei una pizza
        expect: { node: menuu, path: [menu, 99], message: Margherita? }
`);
    const [result] = await runConversationFile(file, { tree });
    expect(result!.passed).toBe(false);
    expect(result!.turns[0]!.mismatches).toEqual([
      {
        field: 'node',
        expected: 'a node of the tree "mini"',
        actual: `"menuu", which names none: check its spelling (the names are the nodes' "name", or their ids)`,
      },
      {
        field: 'node',
        expected: 'a node of the tree "mini"',
        actual: `99, which names none: check its spelling (the names are the nodes' "name", or their ids)`,
      },
      // The rest of the turn is still checked.
      { field: 'message', expected: 'Margherita?', actual: 'Quale pizza?' },
    ]);
    // A real name and a real id that did not answer stay an ordinary mismatch.
    const wrong = parseConversations(`${fixtures}
conversations:
  - name: sbagliata
    turns:
      - say: vorrei una pizza
        expect: { node: 5 }
`);
    const [routed] = await runConversationFile(wrong, { tree });
    expect(routed!.turns[0]!.mismatches).toEqual([{ field: 'node', expected: 5, actual: 'menu' }]);
  });

  test('malformed files are refused with the place and the field', () => {
    const message = (text: string) => {
      try {
        parseConversations(text, 'x.yaml');
      } catch (error) {
        expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    expect(message('turns: []')).toMatch(/x\.yaml, conversation 1 needs a non-empty "turns" list/);
    expect(message('name: a\nturns:\n  - hello: x')).toMatch(/turn 1 has an unknown field "hello"/);
    expect(message('name: a\nturns:\n  - say: x\n    expect: { nodo: 3 }')).toMatch(
      /expects an unknown field "nodo"/,
    );
    expect(message(': : :')).toMatch(/not valid YAML|must be a mapping/);
    expect(message('fixtures: { model: { answers: [] } }\nturns:\n  - say: x')).toMatch(
      /x\.yaml, fixtures\.model must be a mapping with a non-empty "answers" list/,
    );
    expect(
      message(
        'fixtures: { model: { answers: [ok, { toolCalls: [{ tool: orderStatus }] }] } }\nturns:\n  - say: x',
      ),
    ).toMatch(/fixtures\.model, answer 2 must be a text or \{ toolCalls: \[\{ toolName, input/);
  });

  test('a fixture model answer may call tools: the engine runs them and the model answers from the result', async () => {
    const file = parseConversations(
      `fixtures:
  model:
    answers:
      - toolCalls: [{ toolName: double, input: { n: 21 } }]
      - It is 42.
turns:
  - say: double 21
    expect: { message: { equals: It is 42. } }
`,
      'tools.yaml',
    );
    let ran: unknown;
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['double 21'],
          tools: {
            double: defineTool({
              description: 'Doubles n.',
              parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
              execute: async (_self, _context, { input }) => {
                ran = input;
                return { result: (input.n as number) * 2 };
              },
            }),
          },
          prompt: () => ({ prompt: 'double it' }),
          emit: { message: { type: 'generated' } },
        },
      ],
    });
    const [result] = await runConversationFile(file, { tree });
    expect(result!.passed).toBe(true);
    expect(ran).toEqual({ n: 21 });
  });

  test('a file with several unknown fields reports all of them at once', () => {
    let caught: unknown;
    try {
      parseConversations(
        'conversations:\n  - name: a\n    turns:\n      - say: x\n        sai: y\n        expect: { nodo: 3, mesage: z }\n  - name: b\n    turns:\n      - opton: Diavola\n',
        'x.yaml',
      );
    } catch (error) {
      caught = error;
    }
    const message = (caught as Error).message;
    expect(message).toMatch(/has 5 problems/);
    expect(message).toMatch(/conversation 1 \("a"\), turn 1 has an unknown field "sai"/);
    expect(message).toMatch(/expects an unknown field "nodo"/);
    expect(message).toMatch(/expects an unknown field "mesage"/);
    expect(message).toMatch(/conversation 2 \("b"\), turn 1 has an unknown field "opton"/);
    expect(message).toMatch(/conversation 2 \("b"\), turn 1 needs "say"/);
    expect((caught as TreeAgentError).details.problems).toHaveLength(5);
  });

  test('an option the previous answer did not offer is an error, and is not sent', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: opzioni
    turns:
      - option: Diavola
      - say: vorrei una pizza
        expect: { node: menu }
      - option: Capricciosa
      - option: Diavola
        expect: { node: 4, state: { pizza: Diavola } }
`);
    const [result] = await runConversationFile(file, { tree });
    expect(result!.turns.map((turn) => turn.mismatches.map((mismatch) => mismatch.field))).toEqual([
      ['option'],
      [],
      ['option'],
      [],
    ]);
    expect(result!.turns[0]!.mismatches[0]!.expected).toMatch(/the previous answer offered none/);
    expect(result!.turns[2]!.mismatches[0]!.expected).toBe(
      'one of the options offered: "Margherita", "Diavola"',
    );
    expect(formatFailures([result!])).toContain('option:');
  });

  test('a failing conversation is printed once: in the failures, not again in the summary', async () => {
    const file = parseConversations(`${fixtures}
conversations:
  - name: sbagliata
    turns:
      - say: vorrei una pizza
        expect: { node: ok }
  - name: giusta
    turns:
      - say: vorrei una pizza
        expect: { node: menu }
`);
    const results = await runConversationFile(file, { tree });
    const printed = `${formatFailures(results)}\n${formatSummary(results, { failures: 'omit' })}`;
    expect(printed.match(/sbagliata/g)).toHaveLength(1);
    expect(printed).toMatch(/✓ conversations\.yaml › giusta/);
    expect(printed).toMatch(/1 passed, 1 failed$/);
  });

  test('a failing turn shows the error the fallback handled: code, node, callback and frame', async () => {
    const withFallback = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        {
          id: 2,
          type: 'agent',
          parent: 1,
          isPrimary: true,
          links: { sorry: 9 },
          fallback: (_self, _context, _special, links) => ({ nodeTarget: links.sorry }),
        },
        {
          id: 5,
          type: 'empty',
          parent: 2,
          name: 'rompi',
          chunks: ['errore'],
          before: () => {
            throw new Error('boom');
          },
        },
        {
          id: 9,
          type: 'emit',
          parent: 2,
          name: 'scusa',
          emit: { message: { type: 'static', content: 'Scusa' } },
        },
      ],
    });
    const file = parseConversations(`${fixtures}
conversations:
  - name: rotta
    turns:
      - say: un errore
        expect: { node: rompi }
`);
    const [result] = await runConversationFile(file, { tree: withFallback });
    expect(result!.turns[0]!.errors).toEqual([
      expect.objectContaining({ code: 'CALLBACK_ERROR', nodeId: 5, callback: 'before' }),
    ]);
    const report = formatFailures([result!]);
    expect(report).toMatch(
      /error in the turn: CALLBACK_ERROR in the "before" callback of node 5: .*boom \(at before \(.*run-conversations\.test\.ts:\d+:\d+\)\)/,
    );
  });
});

describe('state expectations', () => {
  const output = {
    sessionId: 's',
    turn: 1,
    status: 'answered' as const,
    failCounter: 0,
    messages: [],
    serverMetadata: {},
    nodeId: 3,
    trace: [],
  };
  const outcome = {
    output,
    error: null,
    state: { 'form:x': { values: { date: '2026-12-02', time: '20:00' }, log: [1, 2] } },
  };
  test('a mapping checks only the keys it gives, recursively; null means absent', () => {
    expect(
      checkTurn(tree, outcome, { state: { 'form:x': { values: { date: '2026-12-02' } }, gone: null } }),
    ).toEqual([]);
  });
  test('a different nested value, or a missing key, is a mismatch', () => {
    const mismatches = checkTurn(tree, outcome, {
      state: { 'form:x': { values: { date: '2026-12-03' } }, other: 1 },
    });
    expect(mismatches.map((mismatch) => mismatch.field)).toEqual(['state.form:x', 'state.other']);
  });
});
