import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Filter } from '../protocol/filter.js';
import { validateFilter } from './validate-filter.js';

function failure(value: unknown): TreeAgentError {
  try {
    validateFilter(value);
  } catch (error) {
    if (TreeAgentError.hasCode(error, 'FILTER')) return error;
    throw error;
  }
  throw new Error('expected validateFilter to throw');
}

/** Asserts the error names `path` both in its message and in `details.path`. */
function expectError(value: unknown, path: string, message: RegExp): void {
  const error = failure(value);
  expect(error.details.path).toBe(path);
  expect(error.message.startsWith(`${path}: `)).toBe(true);
  expect(error.message).toMatch(message);
}

describe('validateFilter accepts Qdrant REST filters', () => {
  const valid: Filter[] = [
    {},
    { must: null, should: [], must_not: [] },
    {
      must: [
        { key: 'lang', match: { value: 'en' } },
        { key: 'n', match: { value: 3 } },
        { key: 'ok', match: { value: false } },
        { key: 'tags[]', match: { any: ['a', 'b'] } },
        { key: 'n', match: { except: [1, 2] } },
        { key: 'body', match: { text: 'hello world' } },
        { key: 'a.b[0]."c.d"', range: { gte: 1.5, lt: 10 } },
        { key: 'at', range: { gte: '2024-01-01T00:00:00Z', lt: '2024-02-01' } },
        { key: 'v', values_count: { gt: 0, lte: 5 } },
        { is_empty: { key: 'x' } },
        { is_null: { key: 'x' } },
        { has_id: [1, 'chunk-7', '550e8400-e29b-41d4-a716-446655440000'] },
        { nested: { key: 'items', filter: { must: [{ key: 'sku', match: { value: 'x' } }] } } },
        { should: [{ must: [{ has_id: [1] }] }] },
      ],
      must_not: { key: 'draft', match: { value: true } },
      min_should: { conditions: [{ has_id: [1] }], min_count: 1 },
    },
  ];
  it.each(valid.map((f, i) => [i, f]))('filter #%i', (_i, filter) => {
    expect(validateFilter(filter)).toBe(filter);
  });
});

describe('validateFilter errors name the JSON path and the fix', () => {
  it('rejects non-objects at the root', () => {
    expectError(null, 'filter', /expected a filter object .*got null/);
    expectError([], 'filter', /got an array/);
  });
  it('rejects unknown keys at every level', () => {
    expectError(
      { mustnt: [] },
      'filter.mustnt',
      /unknown key "mustnt" in a filter; allowed keys: must, should, must_not, min_should/,
    );
    expectError(
      { must: [{ key: 'a', match: { value: 1 }, boost: 2 }] },
      'filter.must[0].boost',
      /unknown key "boost"/,
    );
    expectError(
      { must: [{ key: 'a', match: { value: 1, extra: 1 } }] },
      'filter.must[0].match.extra',
      /allowed keys: value, any, except, text/,
    );
    expectError(
      { must: [{ key: 'a', range: { gt: 1, above: 2 } }] },
      'filter.must[0].range.above',
      /allowed keys: gt, gte, lt, lte/,
    );
    expectError(
      { must: [{ is_empty: { key: 'a', strict: true } }] },
      'filter.must[0].is_empty.strict',
      /unknown key/,
    );
  });
  it('explains that Qdrant nests filters without a wrapper', () => {
    expectError({ should: [{ filter: { must: [] } }] }, 'filter.should[0].filter', /nests filters directly/);
  });
  it("accepts Qdrant's field form of is_empty / is_null with a boolean, and nothing else", () => {
    expect(
      validateFilter({
        must: [
          { key: 'a', is_null: true },
          { key: 'b', is_empty: false },
        ],
      }),
    ).toBeTruthy();
    expectError(
      { must: [{ key: 'a', is_null: 'yes' }] },
      'filter.must[0].is_null',
      /expected true or false, .*write \{ is_null: \{ key \} \}/,
    );
    expectError(
      { must: [{ key: 'a', is_null: true, is_empty: true }] },
      'filter.must[0]',
      /exactly one of .* \(found is_empty and is_null\)/,
    );
  });
  it('rejects unrecognised conditions', () => {
    expectError(
      { must: [{ unknown: 'v' }] },
      'filter.must[0]',
      /unrecognised condition with keys unknown; expected one of: a field condition/,
    );
    expectError(
      { must: [{ has_vector: 'v' }] },
      'filter.must[0].has_vector',
      /not supported; .*geo, has_vector and slice/,
    );
    expectError({ must: [{ slice: { total: 2, index: 0 } }] }, 'filter.must[0].slice', /not supported/);
    expectError(
      { must: [{ key: 'at', geo_radius: { center: { lon: 0, lat: 95 }, radius: 1 } }] },
      'filter.must[0].geo_radius.center',
      /lat in \[-90, 90\]/,
    );
    const ring = (n: number, closed = true) => ({
      points: [
        ...Array.from({ length: n - 1 }, (_, i) => ({ lon: i, lat: i * i })),
        closed ? { lon: 0, lat: 0 } : { lon: 9, lat: 9 },
      ],
    });
    expectError(
      { must: [{ key: 'at', geo_polygon: { exterior: ring(3) } }] },
      'filter.must[0].geo_polygon.exterior.points',
      /at least 4 points, got 3/,
    );
    expectError(
      { must: [{ key: 'at', geo_polygon: { exterior: ring(4, false) } }] },
      'filter.must[0].geo_polygon.exterior.points',
      /must be closed/,
    );
    expectError(
      { must: [{ key: 'at', geo_polygon: { exterior: ring(4), interiors: [ring(2)] } }] },
      'filter.must[0].geo_polygon.interiors[0].points',
      /at least 4/,
    );
    expect(
      validateFilter({
        must: [
          {
            key: 'at',
            geo_bounding_box: { top_left: { lon: 170, lat: 10 }, bottom_right: { lon: -170, lat: -10 } },
          },
        ],
      }),
    ).toBeTruthy();
    expectError(
      { must: ['lang'] },
      'filter.must[0]',
      /expected a condition, one of: .*, got the string "lang"/,
    );
  });
  it('checks match', () => {
    expectError(
      { must: [{ key: 'a', match: {} }] },
      'filter.must[0].match',
      /expected exactly one of value, any, except, text/,
    );
    expectError(
      { must: [{ key: 'a', match: { value: 'x', text: 'x' } }] },
      'filter.must[0].match',
      /exactly one/,
    );
    expectError(
      { must: [{ key: 'a', match: { value: 1.5 } }] },
      'filter.must[0].match.value',
      /use range for decimals/,
    );
    expectError({ must: [{ key: 'a', match: { value: null } }] }, 'filter.must[0].match.value', /got null/);
    expectError(
      { must: [{ key: 'a', match: { any: 'x' } }] },
      'filter.must[0].match.any',
      /expected an array/,
    );
    expectError(
      { must: [{ key: 'a', match: { any: ['x', 1] } }] },
      'filter.must[0].match.any[1]',
      /expected a string like the first element, got number 1/,
    );
    expectError(
      { must: [{ key: 'a', match: { except: [1, 'x'] } }] },
      'filter.must[0].match.except[1]',
      /expected an integer/,
    );
    expectError(
      { must: [{ key: 'a', match: { text: 5 } }] },
      'filter.must[0].match.text',
      /expected a string/,
    );
  });
  it('checks field conditions and keys', () => {
    expectError(
      { must: [{ key: 'a' }] },
      'filter.must[0]',
      /exactly one of match, range, values_count, is_empty, is_null, geo_bounding_box, geo_radius, geo_polygon \(found none\)/,
    );
    expectError(
      { must: [{ key: 'a', match: { value: 1 }, range: { gt: 1 } }] },
      'filter.must[0]',
      /found match and range/,
    );
    expectError(
      { must: [{ key: 7, match: { value: 1 } }] },
      'filter.must[0].key',
      /expected a payload key string/,
    );
    expectError(
      { must: [{ key: 'a..b', match: { value: 1 } }] },
      'filter.must[0].key',
      /invalid key: .*use a.b for nested objects/,
    );
    expectError({ must: [{ key: '', match: { value: 1 } }] }, 'filter.must[0].key', /the key is empty/);
    expectError({ must: [{ key: 'a[x]', match: { value: 1 } }] }, 'filter.must[0].key', /invalid key/);
    expectError({ must: [{ is_null: { key: 'a.' } }] }, 'filter.must[0].is_null.key', /invalid key/);
  });
  it('checks ranges', () => {
    expectError(
      { must: [{ key: 'a', range: { gt: '1' } }] },
      'filter.must[0].range.gt',
      /invalid datetime "1"; use RFC 3339/,
    );
    expectError(
      { must: [{ key: 'a', range: { gt: 1, lt: '2024-01-01' } }] },
      'filter.must[0].range.lt',
      /finite number like the other bounds/,
    );
    expectError(
      { must: [{ key: 'a', range: { gt: '2024-01-01', lt: 5 } }] },
      'filter.must[0].range.lt',
      /datetime string like the other bounds/,
    );
    expectError(
      { must: [{ key: 'a', range: { gt: '2024-02-30' } }] },
      'filter.must[0].range.gt',
      /invalid datetime/,
    );
    expectError(
      { must: [{ key: 'a', range: { lte: Number.NaN } }] },
      'filter.must[0].range.lte',
      /finite number/,
    );
    expectError(
      { must: [{ key: 'a', values_count: { gt: -1 } }] },
      'filter.must[0].values_count.gt',
      /integer ≥ 0/,
    );
    expectError(
      { must: [{ key: 'a', values_count: { gt: 1.5 } }] },
      'filter.must[0].values_count.gt',
      /integer ≥ 0/,
    );
  });
  it('checks has_id, nested and min_should', () => {
    expectError({ must: [{ has_id: 1 }] }, 'filter.must[0].has_id', /expected an array of point ids/);
    expectError(
      { must: [{ has_id: [1, -2] }] },
      'filter.must[0].has_id[1]',
      /non-negative integer or string/,
    );
    expectError(
      { must: [{ nested: { key: 'items' } }] },
      'filter.must[0].nested.filter',
      /expected a filter object/,
    );
    expectError(
      { must: [{ nested: { key: 'items', filter: { must: [{ key: 'a', match: { value: 1.2 } }] } } }] },
      'filter.must[0].nested.filter.must[0].match.value',
      /expected a string, an integer or a boolean/,
    );
    expectError(
      { min_should: { conditions: [] } },
      'filter.min_should.min_count',
      /expected an integer ≥ 1, got undefined/,
    );
    expectError(
      { min_should: { conditions: [], min_count: 0 } },
      'filter.min_should.min_count',
      /integer ≥ 1/,
    );
    expectError(
      { min_should: { conditions: {}, min_count: 1 } },
      'filter.min_should.conditions',
      /expected an array/,
    );
    expectError(
      { min_should: { conditions: [{ key: 'a' }], min_count: 1 } },
      'filter.min_should.conditions[0]',
      /exactly one/,
    );
  });
  it('reports deep paths inside nested filters and single-condition clauses', () => {
    expectError(
      { should: [{ must: [{ must_not: { key: 'a', match: { any: [true] } } }] }] },
      'filter.should[0].must[0].must_not.match.any[0]',
      /expected a string or an integer, got boolean true/,
    );
  });
  it('throws TreeAgentError with code FILTER', () => {
    const error = failure({ nope: 1 });
    expect(error).toBeInstanceOf(TreeAgentError);
    expect(error.code).toBe('FILTER');
  });
});
