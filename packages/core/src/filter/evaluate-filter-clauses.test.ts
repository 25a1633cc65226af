import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Condition, Filter } from '../protocol/filter.js';
import { compileFilter, evaluateFilter } from './evaluate-filter.js';

const points = [
  { id: 1, payload: { city: 'London', color: 'green' } },
  { id: 2, payload: { city: 'London', color: 'red' } },
  { id: 3, payload: { city: 'London', color: 'blue' } },
  { id: 4, payload: { city: 'Berlin', color: 'red' } },
  { id: 5, payload: { city: 'Moscow', color: 'green' } },
  { id: 6, payload: { city: 'Moscow', color: 'blue' } },
];
const ids = (filter: Filter | null | undefined) => points.filter(compileFilter(filter)).map((p) => p.id);
const city = (value: string): Condition => ({ key: 'city', match: { value } });
const color = (value: string): Condition => ({ key: 'color', match: { value } });

describe('clauses (Qdrant documentation examples)', () => {
  it('an empty, null or undefined filter matches everything', () => {
    expect(ids({})).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(null)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(undefined)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids({ must: [], must_not: [], should: null })).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('must is AND', () => {
    expect(ids({ must: [city('London'), color('red')] })).toEqual([2]);
  });
  it('should is OR; an empty should is no constraint', () => {
    expect(ids({ should: [city('London'), color('red')] })).toEqual([1, 2, 3, 4]);
    expect(ids({ should: [] })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids({ should: [city('Paris')] })).toEqual([]);
  });
  it('must_not excludes every listed condition', () => {
    expect(ids({ must_not: [city('London'), color('red')] })).toEqual([5, 6]);
  });
  it('combines clauses with AND', () => {
    expect(ids({ must: [city('London')], must_not: [color('red')] })).toEqual([1, 3]);
    expect(ids({ must: [city('London')], should: [color('red'), color('blue')] })).toEqual([2, 3]);
  });
  it('accepts a single condition instead of a list, as Qdrant does', () => {
    expect(ids({ must: city('Berlin') })).toEqual([4]);
    expect(ids({ must_not: city('London') })).toEqual([4, 5, 6]);
  });
  it('nests filters directly as conditions', () => {
    expect(ids({ must_not: [{ must: [city('London'), color('red')] }] })).toEqual([1, 3, 4, 5, 6]);
    expect(
      ids({
        should: [
          { must: [city('Moscow'), color('blue')] },
          { must: [city('Berlin')], must_not: [color('green')] },
        ],
      }),
    ).toEqual([4, 6]);
  });
  it('min_should requires at least min_count conditions', () => {
    const conditions = [city('London'), color('red'), { has_id: [2, 5] }];
    expect(ids({ min_should: { conditions, min_count: 2 } })).toEqual([2]);
    expect(ids({ min_should: { conditions, min_count: 1 } })).toEqual([1, 2, 3, 4, 5]);
    expect(ids({ min_should: { conditions, min_count: 3 } })).toEqual([2]);
    expect(ids({ min_should: { conditions: [city('London')], min_count: 2 } })).toEqual([]);
    expect(ids({ min_should: { conditions: [], min_count: 1 } })).toEqual([]);
  });
  it('must_not with has_id drops those points', () => {
    expect(ids({ must_not: [{ has_id: [1, 2, 3] }] })).toEqual([4, 5, 6]);
  });
});

describe('nested', () => {
  const payload = {
    items: [
      { color: 'red', size: 1 },
      { color: 'blue', size: 2 },
    ],
  };
  const both: Filter = {
    must: [
      { key: 'color', match: { value: 'red' } },
      { key: 'size', range: { gte: 2 } },
    ],
  };
  const at = (filter: Filter, p: Record<string, unknown> = payload) =>
    evaluateFilter(filter, { id: 'p', payload: p });

  it('requires one element to satisfy the whole filter', () => {
    expect(at({ must: [{ nested: { key: 'items', filter: both } }] })).toBe(false);
    expect(
      at({
        must: [
          { key: 'items[].color', match: { value: 'red' } },
          { key: 'items[].size', range: { gte: 2 } },
        ],
      }),
    ).toBe(true);
    const redSmall: Filter = {
      must: [
        { key: 'color', match: { value: 'red' } },
        { key: 'size', range: { lt: 2 } },
      ],
    };
    expect(at({ must: [{ nested: { key: 'items', filter: redSmall } }] })).toBe(true);
    expect(at({ must: [{ nested: { key: 'items[]', filter: redSmall } }] })).toBe(true);
  });
  it('supports must_not inside the nested filter and nested paths', () => {
    const notRed: Filter = { must_not: [{ key: 'color', match: { value: 'red' } }] };
    expect(at({ must: [{ nested: { key: 'items', filter: notRed } }] })).toBe(true);
    expect(at({ must: [{ nested: { key: 'items', filter: notRed } }] }, { items: [{ color: 'red' }] })).toBe(
      false,
    );
    const deep = { shop: { items: [{ color: 'red' }] } };
    expect(at({ must: [{ nested: { key: 'shop.items', filter: { must: [notRed] } } }] }, deep)).toBe(false);
  });
  it('never matches a non-array, non-object elements, or has_id inside', () => {
    const anyColor: Filter = { must: [{ key: 'color', match: { except: [] } }] };
    expect(at({ must: [{ nested: { key: 'items', filter: anyColor } }] }, { items: { color: 'red' } })).toBe(
      false,
    );
    expect(at({ must: [{ nested: { key: 'items', filter: anyColor } }] }, { items: ['red'] })).toBe(false);
    expect(at({ must: [{ nested: { key: 'items', filter: { must: [{ has_id: ['p'] }] } } }] })).toBe(false);
  });
});

describe('compileFilter', () => {
  it('validates once, up front', () => {
    expect(() => compileFilter({ must: [{ key: 'x' }] } as unknown as Filter)).toThrow(TreeAgentError);
  });
  it('treats a point without a payload as an empty payload', () => {
    const pred = compileFilter({ must: [{ is_empty: { key: 'a' } }] });
    expect(pred({ id: 1, payload: undefined as unknown as Record<string, unknown> })).toBe(true);
  });
  it('is reusable across many points', () => {
    const pred = compileFilter({ must: [{ key: 'i', range: { gte: 500 } }] });
    let count = 0;
    for (let i = 0; i < 1000; i++) if (pred({ id: i, payload: { i } })) count++;
    expect(count).toBe(500);
  });
});
