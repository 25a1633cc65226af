import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, Filter } from '../protocol/filter.js';
import { compileFilter, evaluateFilter } from './evaluate-filter.js';

const keys = ['a', 'b', 'c.d', 'e[].f'];
const scalar = fc.oneof(
  fc.constantFrom('x', 'y', 'z', ''),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
const payload = fc.record(
  {
    a: value,
    b: value,
    c: fc.oneof(fc.record({ d: value }, { requiredKeys: [] }), value),
    e: fc.array(fc.record({ f: value }, { requiredKeys: [] }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const key = fc.constantFrom(...keys);
const bound = fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined });
const leaf: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({
    key,
    match: fc.record({
      value: fc.oneof(fc.constantFrom('x', 'y'), fc.integer({ min: -3, max: 3 }), fc.boolean()),
    }),
  }),
  fc.record({ key, match: fc.record({ any: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 2 }) }) }),
  fc.record({
    key,
    match: fc.record({ except: fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 2 }) }),
  }),
  fc.record({ key, range: fc.record({ gt: bound, lte: bound }) }),
  fc.record({ key, values_count: fc.record({ gte: fc.option(fc.nat(3), { nil: undefined }) }) }),
  fc.record({ is_empty: fc.record({ key }) }),
  fc.record({ is_null: fc.record({ key }) }),
  fc.record({ has_id: fc.array(fc.nat(4), { maxLength: 3 }) }),
);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.record({ should: fc.array(leaf, { minLength: 1, maxLength: 3 }) }) },
);
const point = fc.record({ id: fc.nat(4), payload });
const holds = (filter: Filter, p: { id: number; payload: Record<string, unknown> }) =>
  evaluateFilter(filter, p);

describe('clause algebra (property)', () => {
  it('must_not: [c] is the negation of must: [c]', () => {
    fc.assert(
      fc.property(condition, point, (c, p) => {
        expect(holds({ must_not: [c] }, p)).toBe(!holds({ must: [c] }, p));
      }),
    );
  });
  it('must is AND, should is OR, over the single-condition results', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 4 }), point, (cs, p) => {
        const each = cs.map((c) => holds({ must: [c] }, p));
        expect(holds({ must: cs }, p)).toBe(each.every(Boolean));
        expect(holds({ should: cs }, p)).toBe(each.some(Boolean));
      }),
    );
  });
  it('min_should counts matching conditions', () => {
    fc.assert(
      fc.property(
        fc.array(condition, { maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        point,
        (cs, k, p) => {
          const matching = cs.filter((c) => holds({ must: [c] }, p)).length;
          expect(holds({ min_should: { conditions: cs, min_count: k } }, p)).toBe(matching >= k);
        },
      ),
    );
  });
  it('is_empty on a plain key is the same as values_count < 1', () => {
    fc.assert(
      fc.property(fc.constantFrom('a', 'b', 'c.d'), point, (k, p) => {
        const empty = compileFilter({ must: [{ is_empty: { key: k } }] })(p);
        expect(empty).toBe(compileFilter({ must: [{ key: k, values_count: { lt: 1 } }] })(p));
      }),
    );
  });
});
