import { describe, expect, it } from 'vitest';
import type { Condition, Filter, PointId } from '../protocol/filter.js';
import { evaluateFilter } from './evaluate-filter.js';

const ok = (filter: Filter | null | undefined, payload: Record<string, unknown>, id: PointId = 1) =>
  evaluateFilter(filter, { id, payload });
const one = (c: Condition, payload: Record<string, unknown>, id: PointId = 1) =>
  ok({ must: [c] }, payload, id);

describe('match.value', () => {
  it('compares strings exactly and case-sensitively', () => {
    expect(one({ key: 'lang', match: { value: 'en' } }, { lang: 'en' })).toBe(true);
    expect(one({ key: 'lang', match: { value: 'en' } }, { lang: 'EN' })).toBe(false);
  });
  it('keeps strings, integers and booleans apart', () => {
    expect(one({ key: 'n', match: { value: 3 } }, { n: 3 })).toBe(true);
    expect(one({ key: 'n', match: { value: 3 } }, { n: '3' })).toBe(false);
    expect(one({ key: 'b', match: { value: true } }, { b: true })).toBe(true);
    expect(one({ key: 'b', match: { value: true } }, { b: 1 })).toBe(false);
    expect(one({ key: 'b', match: { value: false } }, { b: false })).toBe(true);
  });
  it('matches when any array element equals the value', () => {
    expect(one({ key: 'tags', match: { value: 'b' } }, { tags: ['a', 'b'] })).toBe(true);
    expect(one({ key: 'tags', match: { value: 'c' } }, { tags: ['a', 'b'] })).toBe(false);
  });
  it('does not match a missing field or null', () => {
    expect(one({ key: 'lang', match: { value: 'en' } }, {})).toBe(false);
    expect(one({ key: 'lang', match: { value: 'en' } }, { lang: null })).toBe(false);
  });
});

describe('payload paths', () => {
  const payload = {
    meta: { author: { name: 'ada' } },
    items: [{ sku: 'x1', size: [1, 2] }, { sku: 'x2' }],
    'dotted.key': 'yes',
    grid: [['a'], ['b', 'c']],
  };
  it('follows nested objects with a.b.c', () => {
    expect(one({ key: 'meta.author.name', match: { value: 'ada' } }, payload)).toBe(true);
    expect(one({ key: 'meta.author.name', match: { value: 'bob' } }, payload)).toBe(false);
    expect(one({ key: 'meta.nope.name', match: { value: 'ada' } }, payload)).toBe(false);
  });
  it('goes through arrays of objects only with [] (Qdrant semantics)', () => {
    expect(one({ key: 'items[].sku', match: { value: 'x2' } }, payload)).toBe(true);
    expect(one({ key: 'items.sku', match: { value: 'x2' } }, payload)).toBe(false);
    expect(one({ key: 'items.0.sku', match: { value: 'x1' } }, payload)).toBe(false);
    expect(one({ key: 'items.length', match: { value: 2 } }, payload)).toBe(false);
    expect(one({ key: 'items[].size', match: { value: 2 } }, payload)).toBe(true);
  });
  it('selects one element with [n] and quoted keys with "..."', () => {
    expect(one({ key: 'items[1].sku', match: { value: 'x2' } }, payload)).toBe(true);
    expect(one({ key: 'items[0].sku', match: { value: 'x2' } }, payload)).toBe(false);
    expect(one({ key: 'items[5].sku', match: { value: 'x2' } }, payload)).toBe(false);
    expect(one({ key: '"dotted.key"', match: { value: 'yes' } }, payload)).toBe(true);
    expect(one({ key: 'grid[][]', match: { value: 'c' } }, payload)).toBe(true);
  });
  it('ignores inherited properties such as constructor', () => {
    expect(one({ key: 'constructor', match: { except: ['z'] } }, {})).toBe(false);
    expect(one({ is_empty: { key: 'toString' } }, {})).toBe(true);
  });
});

describe('match.any and match.except', () => {
  it('any matches one of the listed values', () => {
    expect(one({ key: 'c', match: { any: ['red', 'blue'] } }, { c: 'blue' })).toBe(true);
    expect(one({ key: 'c', match: { any: ['red', 'blue'] } }, { c: 'green' })).toBe(false);
    expect(one({ key: 'n', match: { any: [1, 2] } }, { n: [5, 2] })).toBe(true);
    expect(one({ key: 'n', match: { any: [1, 2] } }, { n: '1' })).toBe(false);
    expect(one({ key: 'c', match: { any: [] } }, { c: 'red' })).toBe(false);
  });
  it('except matches a present, non-null value outside the list', () => {
    const notRed: Condition = { key: 'c', match: { except: ['red'] } };
    expect(one(notRed, { c: 'blue' })).toBe(true);
    expect(one(notRed, { c: 'red' })).toBe(false);
    expect(one(notRed, {})).toBe(false);
    expect(one(notRed, { c: null })).toBe(false);
    expect(one(notRed, { c: [] })).toBe(false);
    expect(one(notRed, { c: ['red'] })).toBe(false);
    expect(one(notRed, { c: ['red', 'blue'] })).toBe(true);
    expect(one(notRed, { c: 7 })).toBe(true);
    expect(one({ key: 'c', match: { except: [] } }, { c: 'red' })).toBe(true);
  });
});

describe('match.text, phrase, text_any, prefix (Qdrant without a full-text index)', () => {
  const m = (match: object, v: unknown) => one({ key: 'body', match } as Condition, { body: v });
  it('text and phrase are case-sensitive substrings, as Qdrant matches a field without a text index', () => {
    expect(m({ text: 'World' }, 'Hello, World!')).toBe(true);
    expect(m({ text: 'world' }, 'Hello, World!')).toBe(false);
    expect(m({ text: 'wor' }, 'hello world')).toBe(true);
    expect(m({ text: 'world hello' }, 'hello world')).toBe(false);
    expect(m({ phrase: 'o w' }, 'hello world')).toBe(true);
    expect(m({ text: '' }, 'anything')).toBe(true);
  });
  it('text_any needs one whitespace-separated word as a substring; a blank query matches nothing', () => {
    expect(m({ text_any: 'planet world' }, 'hello world')).toBe(true);
    expect(m({ text_any: 'planet\u3000orb' }, 'hello world')).toBe(false);
    expect(m({ text_any: '  ' }, 'anything')).toBe(false);
  });
  it('prefix tests the beginning; "" matches every string', () => {
    expect(m({ prefix: 'https://' }, 'https://qdrant.tech')).toBe(true);
    expect(m({ prefix: 'qdrant' }, 'https://qdrant.tech')).toBe(false);
    expect(m({ prefix: '' }, '')).toBe(true);
  });
  it('matches array elements, never non-strings', () => {
    expect(m({ text: 'Beta' }, ['alpha', 'Beta gamma'])).toBe(true);
    expect(m({ text: '42' }, 42)).toBe(false);
    expect(m({ prefix: '' }, null)).toBe(false);
  });
});

describe('range', () => {
  const r = (range: object, v: unknown) => one({ key: 'x', range } as Condition, { x: v });
  it('applies each bound', () => {
    expect([r({ gt: 5 }, 5), r({ gt: 5 }, 6), r({ gte: 5 }, 5), r({ gte: 5 }, 4)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect([r({ lt: 5 }, 5), r({ lt: 5 }, 4), r({ lte: 5 }, 5), r({ lte: 5 }, 6)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(r({ gte: 1, lt: 2 }, 1.5)).toBe(true);
    expect(r({ gte: 1, lt: 2 }, 2)).toBe(false);
  });
  it('only tests numbers, any array element, never a missing field', () => {
    expect(r({ gt: 1 }, '5')).toBe(false);
    expect(r({ gt: 0 }, true)).toBe(false);
    expect(r({ gt: 10 }, [1, 20])).toBe(true);
    expect(one({ key: 'x', range: { gt: 0 } }, {})).toBe(false);
  });
  it('compares ISO datetimes, timezones included', () => {
    const feb = { gte: '2024-02-01T00:00:00Z', lt: '2024-03-01' };
    expect(r(feb, '2024-02-15T10:00:00Z')).toBe(true);
    expect(r(feb, '2024-03-01T00:00:00Z')).toBe(false);
    expect(r(feb, '2024-03-01T00:30:00+01:00')).toBe(true);
    expect(r(feb, '2024-02-01 00:00')).toBe(true);
    expect(r(feb, 'not a date')).toBe(false);
    expect(r(feb, 1706745600000)).toBe(false);
    expect(r({ gt: '2024-01-01T00:00:00.000000001Z' }, '2024-01-01T00:00:00.000000002Z')).toBe(true);
    expect(r({ gt: '2024-01-01T00:00:00.000000002Z' }, '2024-01-01T00:00:00.000000001Z')).toBe(false);
  });
});

describe('values_count', () => {
  const vc = (values_count: object, payload: Record<string, unknown>) =>
    one({ key: 'v', values_count } as Condition, payload);
  it('counts array elements, 1 for a scalar, 0 for null or missing', () => {
    expect(vc({ gte: 3 }, { v: [1, 2, 3] })).toBe(true);
    expect(vc({ gt: 3 }, { v: [1, 2, 3] })).toBe(false);
    expect(vc({ lte: 1, gte: 1 }, { v: 'one' })).toBe(true);
    expect(vc({ lt: 1 }, {})).toBe(true);
    expect(vc({ lt: 1 }, { v: null })).toBe(true);
    expect(vc({ gte: 1 }, {})).toBe(false);
    expect(one({ key: 'a[].v', values_count: { lt: 1 } }, { a: [{ w: 1 }, { w: 2 }] })).toBe(true);
    expect(one({ key: 'a[].v', values_count: { gte: 2 } }, { a: [{ v: 1 }, { v: [1, 2] }] })).toBe(true);
    expect(one({ key: 'a[].v', values_count: { gte: 3 } }, { a: [{ v: 1 }, { v: [1, 2] }] })).toBe(false);
  });
});

describe('is_empty and is_null', () => {
  const empty = (payload: Record<string, unknown>) => one({ is_empty: { key: 'f' } }, payload);
  const isNull = (payload: Record<string, unknown>) => one({ is_null: { key: 'f' } }, payload);
  it('is_empty: missing, null or [] only', () => {
    expect([empty({}), empty({ f: null }), empty({ f: [] })]).toEqual([true, true, true]);
    expect([empty({ f: [null] }), empty({ f: '' }), empty({ f: 0 }), empty({ f: {} })]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
  it('is_empty through [] requires every value to be empty', () => {
    const c: Condition = { is_empty: { key: 'a[].b' } };
    expect(one(c, { a: [{ b: [] }, { c: 1 }] })).toBe(true);
    expect(one(c, { a: [{ b: [] }, { b: 1 }] })).toBe(false);
  });
  it('is_null: an explicit null, never an array holding one (Qdrant: [null] is not null), never a missing key', () => {
    expect([isNull({ f: null }), isNull({ f: [1, null] }), isNull({ f: [null] })]).toEqual([
      true,
      false,
      false,
    ]);
    expect(one({ is_null: { key: 'f[]' } }, { f: [1, null] })).toBe(true);
    expect([isNull({}), isNull({ f: [] }), isNull({ f: 'x' }), isNull({ f: 0 })]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("Qdrant's field forms { key, is_empty / is_null: boolean }", () => {
  const form = (c: object, payload: Record<string, unknown>) => one(c as Condition, payload);
  it('is_empty: true on null, [] or a missing key; false on a value that is neither', () => {
    const t = { key: 'f', is_empty: true };
    expect([
      form(t, { f: null }),
      form(t, { f: [] }),
      form(t, {}),
      form(t, { f: 0 }),
      form(t, { f: [null] }),
    ]).toEqual([true, true, true, false, false]);
    const f = { key: 'f', is_empty: false };
    expect([form(f, { f: null }), form(f, {}), form(f, { f: 'x' })]).toEqual([false, false, true]);
  });
  it('is_null: true on null or an array holding null (unlike { is_null: { key } }); false also when missing', () => {
    const t = { key: 'f', is_null: true };
    expect([form(t, { f: null }), form(t, { f: [1, null] }), form(t, {}), form(t, { f: [] })]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const f = { key: 'f', is_null: false };
    expect([form(f, { f: null }), form(f, {}), form(f, { f: [] }), form(f, { f: [null] })]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
  it('any value decides when a path reaches several', () => {
    expect(form({ key: 'a[].b', is_empty: true }, { a: [{ b: 1 }, { b: null }] })).toBe(true);
    expect(one({ is_empty: { key: 'a[].b' } }, { a: [{ b: 1 }, { b: null }] })).toBe(false);
  });
});

describe('geo (Qdrant: strict edges, haversine metres, planar polygons)', () => {
  const at = (c: object, lon: number, lat: number) => one(c as Condition, { at: { lon, lat } });
  it('geo_bounding_box excludes its edges and crosses the antimeridian', () => {
    const box = {
      key: 'at',
      geo_bounding_box: { top_left: { lon: 0, lat: 10 }, bottom_right: { lon: 10, lat: 0 } },
    };
    expect([at(box, 5, 5), at(box, 0, 5), at(box, 5, 10), at(box, 11, 5)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const wrap = {
      key: 'at',
      geo_bounding_box: { top_left: { lon: 170, lat: 10 }, bottom_right: { lon: -170, lat: -10 } },
    };
    expect([at(wrap, 175, 0), at(wrap, -175, 0), at(wrap, 0, 0)]).toEqual([true, true, false]);
  });
  it('geo_radius keeps points strictly closer than radius metres', () => {
    // One degree of latitude is 111,195 m on the mean sphere.
    const near = (radius: number) =>
      at({ key: 'at', geo_radius: { center: { lon: 0, lat: 0 }, radius } }, 0, 1);
    expect([near(111_196), near(111_194)]).toEqual([true, false]);
  });
  it('geo_polygon: inside the exterior, outside holes, never on an edge', () => {
    const square = (a: number, b: number) => ({
      points: [
        { lon: a, lat: a },
        { lon: b, lat: a },
        { lon: b, lat: b },
        { lon: a, lat: b },
        { lon: a, lat: a },
      ],
    });
    const c = { key: 'at', geo_polygon: { exterior: square(0, 10), interiors: [square(2, 4)] } };
    expect([at(c, 5, 5), at(c, 3, 3), at(c, 0, 5), at(c, 2, 3), at(c, 11, 5)]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });
  it('tests each element of an array and ignores values that are not { lon, lat }', () => {
    const c = { key: 'at', geo_radius: { center: { lon: 0, lat: 0 }, radius: 1000 } } as Condition;
    expect(
      one(c, {
        at: [
          { lon: 50, lat: 50 },
          { lon: 0, lat: 0 },
        ],
      }),
    ).toBe(true);
    expect(one(c, { at: { lon: '0', lat: 0 } })).toBe(false);
  });
});

describe('has_id', () => {
  it('matches numeric and string ids without mixing them', () => {
    expect(one({ has_id: [1, 2] }, {}, 2)).toBe(true);
    expect(one({ has_id: [1, 2] }, {}, 3)).toBe(false);
    expect(one({ has_id: ['chunk-a', 7] }, {}, 'chunk-a')).toBe(true);
    expect(one({ has_id: ['1'] }, {}, 1)).toBe(false);
    expect(one({ has_id: [1] }, {}, '1')).toBe(false);
  });
  it('compares UUIDs in any spelling', () => {
    const id = '550e8400-e29b-41d4-a716-446655440000';
    expect(one({ has_id: [id.toUpperCase()] }, {}, id)).toBe(true);
    expect(one({ has_id: [id.replaceAll('-', '')] }, {}, id)).toBe(true);
    expect(one({ has_id: [id] }, {}, id.toUpperCase())).toBe(true);
    expect(ok({ must_not: [{ has_id: [id] }] }, {}, id)).toBe(false);
  });
});
