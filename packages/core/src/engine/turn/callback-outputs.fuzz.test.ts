import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineTree,
  InMemorySessionStore,
  type NodeDefinition,
  TreeAgent,
  TreeAgentError,
} from '../../index.js';
import { ExactEmbedder, ScriptedLanguageModel } from '../../test/index.js';

const VECTORS: Record<string, number[]> = {
  after: [1, 0, 0, 0],
  emit: [0, 1, 0, 0],
  query: [0, 0, 1, 0],
  prompt: [0, 0, 0, 1],
};

/** What a callback returns in one run: anything, or something close to a valid output. */
const outputArb = fc.oneof(
  fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true }),
  fc.record(
    {
      nodeTarget: fc.oneof(fc.integer({ min: -1, max: 12 }), fc.constant(null), fc.string()),
      step: fc.oneof(fc.constantFrom('before', 'explore'), fc.string()),
      outcome: fc.oneof(fc.constantFrom('success', 'failure'), fc.anything()),
      message: fc.oneof(
        fc.record({ type: fc.constantFrom('static', 'generated', 'x'), content: fc.anything() }),
        fc.anything(),
      ),
      options: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything()),
      prompt: fc.oneof(fc.string(), fc.anything()),
      chunkQty: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.anything()),
      filter: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

describe('callback outputs: random values', () => {
  let current: unknown = null;
  const value = () => current;
  const nodes = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      isMute: true,
      chunks: ['after'],
      emit: { message: { type: 'static', content: 'mute' } },
      links: { end: 7 },
      after: value,
    },
    { id: 4, type: 'emit', parent: 2, chunks: ['emit'], emit: value },
    {
      id: 5,
      type: 'query',
      parent: 2,
      chunks: ['query', { text: 'doc', forRag: true }],
      query: value,
      links: { end: 7 },
      after: () => ({ nodeTarget: 7, step: 'before' }),
    },
    {
      id: 6,
      type: 'emit',
      parent: 2,
      chunks: ['prompt'],
      prompt: value,
      emit: { message: { type: 'generated' } },
    },
    { id: 7, type: 'emit', parent: 3, emit: { message: { type: 'static', content: 'end' } } },
  ] as NodeDefinition[];
  const store = new InMemorySessionStore();
  const agent = new TreeAgent({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({ vectors: VECTORS, fallback: [0.5, 0.5, 0.5, 0.5] }),
    models: new ScriptedLanguageModel({ answers: 'generated' }),
    sessionStore: store,
    callbackTimeoutMs: 1000,
  });

  for (const callback of ['after', 'emit', 'query', 'prompt'] as const) {
    it(`${callback}: success or INVALID_CALLBACK_OUTPUT, and the session is never half-written`, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(outputArb, async (output) => {
          current = output;
          const sessionId = `${callback}-${run++}`;
          // A first good turn, so the failing one has something to leave untouched.
          current = callback === 'after' ? { nodeTarget: 7, step: 'before' } : current;
          const first = await agent.send(sessionId, 'emit').catch((error: unknown) => error);
          const before = { record: await store.load(sessionId), history: await store.history(sessionId) };
          current = output;
          try {
            const result = await agent.send(sessionId, callback);
            const history = await store.history(sessionId);
            const added = history.slice(before.history.length);
            expect(added[0]).toMatchObject({ role: 'user', content: callback });
            expect(added.slice(1).map((entry) => entry.content)).toEqual(
              result.messages.map((message) => message.content),
            );
            expect((await store.load(sessionId))?.turn).toBe(result.turn);
          } catch (error) {
            if (!TreeAgentError.isInstance(error)) throw error;
            // Node 3's `after` may target a real node (a valid output) that loops or is refused.
            const allowed = [
              'INVALID_CALLBACK_OUTPUT',
              ...(callback === 'after' ? ['LOOP', 'UNKNOWN_NODE', 'INVALID_STEP', 'UNKNOWN_LINK'] : []),
            ];
            expect(allowed, `${error.code}: ${error.message}`).toContain(error.code);
            expect({ record: await store.load(sessionId), history: await store.history(sessionId) }).toEqual(
              before,
            );
          }
          void first;
        }),
        { numRuns: 150 },
      );
    });
  }
});
