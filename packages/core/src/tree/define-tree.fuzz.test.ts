import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTree, Tree, TreeAgentError, TreeValidationError } from '../index.js';
import { definitionFromJSON } from './tree-json.js';

const TYPES = ['root', 'agent', 'emit', 'llm', 'query', 'guardrail', 'component', 'mystery'];

/** A node that is often almost valid: small ids, known types, random extras. */
const nodeArb = fc.record(
  {
    id: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant('3'), fc.double(), fc.constant(null)),
    type: fc.oneof(fc.constantFrom(...TYPES), fc.string()),
    parent: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant(null), fc.string()),
    name: fc.oneof(fc.string(), fc.integer()),
    isPrimary: fc.oneof(fc.boolean(), fc.constant('yes')),
    isMute: fc.boolean(),
    chunks: fc.oneof(
      fc.array(fc.string(), { maxLength: 3 }),
      fc.array(fc.record({ text: fc.string(), forRag: fc.boolean() }), { maxLength: 2 }),
      fc.anything(),
    ),
    links: fc.oneof(fc.dictionary(fc.string(), fc.integer({ min: -1, max: 9 })), fc.anything()),
    emit: fc.oneof(
      fc.record({
        message: fc.record({ type: fc.constantFrom('static', 'generated', 'x'), content: fc.string() }),
      }),
      fc.anything(),
    ),
    warning: fc.oneof(fc.string(), fc.anything()),
    threshold: fc.oneof(fc.double(), fc.string()),
    model: fc.string(),
  },
  { requiredKeys: [] },
);

const definitionArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ name: fc.option(fc.string()), nodes: fc.array(nodeArb, { maxLength: 9 }) }),
  },
  { weight: 1, arbitrary: fc.record({ nodes: fc.array(fc.anything(), { maxLength: 5 }) }) },
  { weight: 1, arbitrary: fc.anything() },
);

/** `defineTree` either returns a Tree or throws a TreeValidationError listing problems; nothing else. */
function checkDefine(definition: unknown): void {
  let tree: unknown;
  try {
    tree = defineTree(definition as never);
  } catch (error) {
    if (!(error instanceof TreeValidationError)) throw error;
    expect(TreeAgentError.hasCode(error, 'TREE_VALIDATION')).toBe(true);
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) expect(typeof problem.message).toBe('string');
    return;
  }
  expect(tree).toBeInstanceOf(Tree);
}

describe('defineTree on arbitrary input', () => {
  it('returns a Tree or throws a TreeValidationError with problems, never anything else', () => {
    fc.assert(fc.property(definitionArb, checkDefine), { numRuns: 300 });
  });

  it('accepts valid trees built from random shapes', () => {
    const shape = fc.array(fc.nat(), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(shape, (parents) => {
        const nodes: Record<string, unknown>[] = [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
        ];
        parents.forEach((pick, index) => {
          const id = index + 3;
          nodes.push({
            id,
            type: 'emit',
            parent: 2 + (pick % (id - 2)),
            chunks: [`chunk ${id}`],
            emit: { message: { type: 'static', content: `m${id}` } },
          });
        });
        const tree = defineTree({ nodes } as never);
        expect(tree.nodes.size).toBe(nodes.length);
      }),
      { numRuns: 150 },
    );
  });

  // Known gap (docs/reliability.md): `definitionFromJSON` throws a TypeError on JSON without a
  // `nodes` array of objects (`{}`, `null`, `{ nodes: [null] }`), so only that shape is fuzzed here.
  it('JSON import: the same guarantee for a nodes array of arbitrary objects', () => {
    const jsonArb = fc.record({ name: fc.option(fc.string()), nodes: fc.array(nodeArb, { maxLength: 9 }) });
    fc.assert(
      fc.property(jsonArb, (json) => {
        let definition: unknown;
        try {
          definition = definitionFromJSON(json as never);
        } catch (error) {
          // Import may refuse malformed JSON, but only with a Tree Agent error.
          expect(TreeAgentError.isInstance(error)).toBe(true);
          return;
        }
        checkDefine(definition);
      }),
      { numRuns: 200 },
    );
  });
});
