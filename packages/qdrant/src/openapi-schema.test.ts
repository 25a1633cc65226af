import { readdirSync } from 'node:fs';
import { CORPUS_CASES, corpusOutcome } from '@treeagent/core/conformance';
import { type Filter, validateFilter } from '@treeagent/core/filter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The differential fuzzing's generators (evaluator vs SQL) serve here too: one source of random filters.
import { filterArbitrary } from '../../postgres/src/test-support/filter-arbitraries.js';
import { toQdrantFilter } from './qdrant-filter.js';
import {
  QDRANT_SCHEMA_ORIGIN,
  qdrantSchemaErrors,
  schemaOfRequest,
} from './test-support/openapi/qdrant-schema.js';
import { loadRecording } from './test-support/replay-server.js';

/**
 * Requests checked against Qdrant's own OpenAPI schema (`test-support/openapi/qdrant-openapi-subset.json`,
 * cut from Qdrant's document at the commit in its `x-origin`), so that a request Qdrant would refuse
 * never passes Tree Agent's validation.
 */
describe(`Qdrant's OpenAPI schema (Qdrant ${QDRANT_SCHEMA_ORIGIN.version}, ${QDRANT_SCHEMA_ORIGIN.commit.slice(0, 10)})`, () => {
  const recordings = ['', 'conformance/', 'corpus/'].flatMap((dir) =>
    readdirSync(new URL(`./test-support/recordings/${dir}`, import.meta.url))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${dir}${file}`),
  );
  // Recordings whose every request has no body schema (GET, DELETE…) have nothing to check here.
  const checked = recordings.filter((name) =>
    loadRecording(name).exchanges.some((exchange) =>
      schemaOfRequest(exchange.request.method, exchange.request.path),
    ),
  );

  it.each(checked)('every recorded request body of %s is valid', (name) => {
    for (const exchange of loadRecording(name).exchanges) {
      const schema = schemaOfRequest(exchange.request.method, exchange.request.path);
      if (!schema) continue;
      expect({ note: exchange.note, errors: qdrantSchemaErrors(schema, exchange.request.body) }).toEqual({
        note: exchange.note,
        errors: [],
      });
    }
  });

  it('every corpus filter Tree Agent accepts is valid; every one Qdrant refuses, Tree Agent refuses', () => {
    for (const c of CORPUS_CASES) {
      const filter = c.request.filter ?? {};
      if ('rejected' in corpusOutcome(c)) {
        expect(() => validateFilter(filter), c.name).toThrow(expect.objectContaining({ code: 'FILTER' }));
      } else {
        expect({ case: c.name, errors: qdrantSchemaErrors('Filter', filter) }).toEqual({
          case: c.name,
          errors: [],
        });
      }
    }
  });

  it('every random filter Tree Agent accepts is valid once mapped for Qdrant', () => {
    fc.assert(
      fc.property(
        filterArbitrary,
        fc.array(fc.constantFrom(1, 'a', '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f')),
        (filter, exclude) => {
          const sent = toQdrantFilter(filter, exclude) ?? {};
          expect(qdrantSchemaErrors('Filter', sent)).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });

  const refusedByQdrant: [string, unknown][] = [
    ['min_should without min_count', { min_should: { conditions: [] } }],
    ['match with an unknown kind', { must: [{ key: 'a', match: { values: ['x'] } }] }],
    ['match value a float', { must: [{ key: 'a', match: { value: 1.5 } }] }],
    ['match any mixing strings and integers', { must: [{ key: 'a', match: { any: ['x', 1] } }] }],
    ['match text a number', { must: [{ key: 'a', match: { text: 5 } }] }],
    ['range bound a boolean', { must: [{ key: 'a', range: { gt: true } }] }],
    ['values_count negative', { must: [{ key: 'a', values_count: { gt: -1 } }] }],
    ['values_count a decimal', { must: [{ key: 'a', values_count: { gte: 1.5 } }] }],
    ['has_id a negative integer', { must: [{ has_id: [-1] }] }],
    ['has_id not a list', { must: [{ has_id: 1 }] }],
    ['is_empty without an object', { must: [{ is_empty: 'tags' }] }],
    ['nested without a filter', { must: [{ nested: { key: 'a' } }] }],
    ['a key that is not a string', { must: [{ key: 1, match: { value: 'x' } }] }],
    ['a clause that is a string', { must: 'city' }],
    ['min_count a string', { min_should: { conditions: [], min_count: 'two' } }],
  ];
  it("a field condition with only a key passes Qdrant's schema, but Qdrant's validation (HTTP 422) and Tree Agent's refuse it", () => {
    expect(qdrantSchemaErrors('Filter', { must: [{ key: 'city' }] })).toEqual([]);
    expect(() => validateFilter({ must: [{ key: 'city' } as never] })).toThrow(
      expect.objectContaining({ code: 'FILTER' }),
    );
  });

  it('repeated any / except / has_id values are sent once (the schema declares sets)', () => {
    const sent = toQdrantFilter(
      {
        must: [
          { key: 'a', match: { any: ['x', 'x'] } },
          { key: 'b', match: { except: [1, 1] } },
          { has_id: [2, 2] },
        ],
      },
      [2],
    );
    expect(sent).toEqual({
      must: [{ key: 'a', match: { any: ['x'] } }, { key: 'b', match: { except: [1] } }, { has_id: [2] }],
      must_not: [{ has_id: [2] }],
    });
    expect(qdrantSchemaErrors('Filter', sent)).toEqual([]);
  });

  it.each(refusedByQdrant)('%s: refused by both', (_what, filter) => {
    expect(qdrantSchemaErrors('Filter', filter)).not.toEqual([]);
    expect(() => validateFilter(filter as Filter)).toThrow(expect.objectContaining({ code: 'FILTER' }));
  });
});
