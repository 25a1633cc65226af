import { compileFilter } from '@treeagent/core/adapter';
import type { Condition, Filter, PointId } from '@treeagent/core/filter';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { filterToSql } from './filter-to-sql.js';
import { requireDatabase, TEST_DATABASE_URL } from './test-support/database.js';
import { filterArbitrary, pointArbitrary } from './test-support/filter-arbitraries.js';

/**
 * The translator against the shared evaluator, on the real database: random filters over random
 * points, and the SQL must select exactly the points the evaluator accepts.
 */

let client: pg.Client | undefined;
beforeAll(async () => {
  // When the server is unreachable, beforeEach fails every test with the message saying what to run.
  await requireDatabase().catch(() => {});
  const connecting = new pg.Client({ connectionString: TEST_DATABASE_URL });
  connecting.on('error', () => {});
  client = await connecting.connect().then(
    () => connecting,
    () => undefined,
  );
});
beforeEach(requireDatabase);
afterAll(async () => {
  await client?.end();
});

interface Point {
  id: PointId;
  payload: Record<string, unknown>;
}

/** Indexes of the points the SQL selects. The points travel as one jsonb parameter. */
async function selectedBySql(filter: Filter | null, points: readonly Point[]): Promise<number[]> {
  const params: unknown[] = [
    JSON.stringify(
      points.map((p) => ({ id: String(p.id), kind: typeof p.id === 'number' ? 0 : 1, payload: p.payload })),
    ),
  ];
  const { sql } = filterToSql(filter, {
    payload: `(t.p -> 'payload')`,
    id: { text: `(t.p ->> 'id')`, kind: `((t.p ->> 'kind')::int)` },
    params,
  });
  const { rows } = await client!.query<{ i: number }>(
    `SELECT (t.ord - 1)::int AS i FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(p, ord) WHERE ${sql} ORDER BY t.ord`,
    params,
  );
  return rows.map((row) => row.i);
}

function selectedByEvaluator(filter: Filter | null, points: readonly Point[]): number[] {
  const accepts = compileFilter(filter);
  return points.flatMap((point, i) => (accepts(point) ? [i] : []));
}

/** The store keeps JSON: evaluate on what it holds. */
const asStored = (points: Point[]): Point[] =>
  points.map((p) => ({ id: p.id, payload: JSON.parse(JSON.stringify(p.payload)) }));

describe('filterToSql selects exactly what the shared evaluator selects', () => {
  it('on random filters over random points', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArbitrary,
        fc.array(pointArbitrary, { minLength: 1, maxLength: 12 }),
        async (filter, raw) => {
          const points = asStored(raw);
          expect(await selectedBySql(filter, points)).toEqual(selectedByEvaluator(filter, points));
        },
      ),
      { numRuns: Number(process.env.TREEAGENT_FILTER_RUNS ?? 400) },
    );
  });

  it('on many filters over one larger data set', async () => {
    const points = asStored(fc.sample(pointArbitrary, { numRuns: 300, seed: 42 }));
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(filterArbitrary, async (filter) => {
        const expected = selectedByEvaluator(filter, points);
        if (expected.length > 0 && expected.length < points.length) nonTrivial++;
        expect(await selectedBySql(filter, points)).toEqual(expected);
      }),
      { numRuns: Number(process.env.TREEAGENT_FILTER_RUNS ?? 300) },
    );
    // The generators must produce filters that discriminate, or the property says little.
    expect(nonTrivial).toBeGreaterThan(75);
  });

  it('on hand-written edge cases', async () => {
    const points = asStored([
      { id: 1, payload: { s: 'Straße İstanbul ΟΔΟΣ', n: 0.30000000000000004, big: 1e21, d: '0000-02-29' } },
      { id: 2, payload: { s: 'strasse istanbul οδος', n: 0.3, big: 1e21 + 1e6, d: '0000-03-01T00:00:00Z' } },
      { id: '0B9C6D3E-8F2A-4C1B-9D7E-5A4B3C2D1E0F', payload: { s: 'e\u0301cole', arr: [[null]], one: 5 } },
      { id: 'x', payload: { s: 'école', arr: [null], one: [5], nested: [{ a: 1 }, 2, [{ a: 1 }]] } },
    ]);
    const filters: Filter[] = [
      { must: [{ key: 's', match: { text: 'straße' } }] },
      { must: [{ key: 's', match: { text: 'İstanbul' } }] },
      { must: [{ key: 's', match: { text: 'οδος' } }] },
      { must: [{ key: 's', match: { text: 'école' } }] },
      { must: [{ key: 's', match: { text: 'e' } }] },
      { must: [{ key: 's', match: { text: '' } }] },
      { must: [{ key: 's', match: { phrase: 'e\u0301c' } }] },
      { must: [{ key: 's', match: { prefix: 'Stra' } }] },
      { must: [{ key: 's', match: { prefix: '' } }] },
      { must: [{ key: 's', match: { text_any: 'nope\u3000ΟΔΟΣ' } }] },
      { must: [{ key: 's', match: { text_any: ' \u00a0 ' } }] },
      { must: [{ key: 's', match: { text_any: 'straße%_' } }] },
      { must: [{ key: 'n', range: { gt: 0.3 } }] },
      { must: [{ key: 'n', range: { lte: 0.3 } }] },
      { must: [{ key: 'big', range: { gt: 1e21 } }] },
      { must: [{ key: 'd', range: { gte: '0000-03-01' } }] },
      { must: [{ key: 'd', range: { lt: '0000-03-01T00:00:00.000000001Z' } }] },
      { must: [{ has_id: ['0b9c6d3e8f2a4c1b9d7e5a4b3c2d1e0f'] }] },
      { must: [{ has_id: ['{0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f}'] }] },
      { must: [{ is_null: { key: 'arr' } }] },
      { must: [{ key: 'one[0]', match: { value: 5 } }] },
      { must: [{ key: 'one', match: { value: 5 } }] },
      { must: [{ nested: { key: 'nested', filter: { must: [{ key: 'a', match: { value: 1 } }] } } }] },
      { must: [{ nested: { key: 'nested', filter: { must: [{ has_id: [1, 'x'] }] } } }] },
      { must: [{ nested: { key: 'nested', filter: {} } }] },
      { min_should: { conditions: [], min_count: 1 } },
      { should: [] },
      {},
    ];
    for (const filter of filters) {
      expect({ filter, selected: await selectedBySql(filter, points) }).toEqual({
        filter,
        selected: selectedByEvaluator(filter, points),
      });
    }
  });

  it('never puts user values in the SQL text: hostile keys and values are inert', async () => {
    const hostile = `x'); DROP TABLE pg_class; --`;
    const points = asStored([{ id: hostile, payload: { [hostile]: hostile, 'a"b': 1 } }]);
    const byKey: Condition = { key: `"${hostile}"`, match: { value: hostile } };
    const filter: Filter = {
      must: [byKey, { key: '"a"', match: { any: [hostile] } }, { has_id: [hostile] }],
    };
    const { sql, params } = filterToSql(filter, { payload: 'payload', id: { text: 'id', kind: 'kind' } });
    expect(sql).not.toContain('DROP');
    expect(params).toContain(hostile);
    expect(await selectedBySql({ must: [byKey, { has_id: [hostile] }] }, points)).toEqual([0]);
  });
});
