import { describe, expect, test } from 'vitest';
import { qdrantCollectionName } from './collection-name.js';
import { f32Below, shortestF32 } from './f32.js';
import { isUuid, NUMBER_ID_NAMESPACE, STRING_ID_NAMESPACE, toQdrantPointId, uuidV5 } from './point-id.js';
import { toQdrantFilter } from './qdrant-filter.js';

describe('toQdrantPointId', () => {
  test('UUIDv5 matches the RFC 9562 example', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  test('unsigned integers and UUIDs pass; other strings and numbers become UUIDv5', () => {
    expect(toQdrantPointId(0)).toBe(0);
    expect(toQdrantPointId(42)).toBe(42);
    expect(toQdrantPointId(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(toQdrantPointId('0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f')).toBe(
      '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f',
    );
    expect(toQdrantPointId('A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D')).toBe(
      'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    );
    expect(toQdrantPointId('faq:refunds')).toBe(uuidV5(STRING_ID_NAMESPACE, 'faq:refunds'));
    expect(toQdrantPointId('faq:refunds')).toBe('ad7543fb-3ad1-5897-a206-6bea0e986ee7');
    // A chunk id of the tree ('node:index') always lands on the same point, across versions and
    // processes (collections written earlier stay addressable), and never on its neighbour's.
    expect(toQdrantPointId('3:0')).toBe('34069bd1-0664-5c22-a16e-cd795d6dbcd9');
    expect(toQdrantPointId('3:1')).not.toBe(toQdrantPointId('3:0'));
    expect(toQdrantPointId('3')).not.toBe(toQdrantPointId(3));
    expect(toQdrantPointId('42')).not.toBe(42);
    expect(toQdrantPointId(-3)).toBe(uuidV5(NUMBER_ID_NAMESPACE, '-3'));
    expect(toQdrantPointId(1.5)).not.toBe(toQdrantPointId('1.5'));
    expect(isUuid(String(toQdrantPointId('')))).toBe(true);
    expect(() => toQdrantPointId(Number.NaN)).toThrow(/finite/);
  });
});

describe('qdrantCollectionName', () => {
  test('safe names get the prefix; others are sanitised and hashed so they never collide', () => {
    expect(qdrantCollectionName('c')).toBe('treeagent_c');
    expect(qdrantCollectionName('my-docs_2', 'app_')).toBe('app_my-docs_2');
    expect(qdrantCollectionName('faq:it')).toBe('treeagent_faq_it_59ce7b65');
    expect(qdrantCollectionName('faq/it')).not.toBe(qdrantCollectionName('faq:it'));
    expect(qdrantCollectionName('x'.repeat(400)).length).toBeLessThanOrEqual(255);
    expect(() => qdrantCollectionName('')).toThrow(/non-empty/);
    expect(() => qdrantCollectionName('c', 'bad prefix')).toThrow(/prefix/);
  });
});

describe('float32 helpers', () => {
  test('shortestF32 writes a float32 as the shortest decimal that reads back the same', () => {
    expect(shortestF32(Float32Array.from([0.9])[0]!)).toBe(0.9);
    expect(shortestF32(0.1)).toBe(0.1);
    expect(shortestF32(1 / 3)).toBe(0.33333334);
    expect(shortestF32(0)).toBe(0);
  });

  test('f32Below is the float32 just below', () => {
    expect(f32Below(0.85)).toBe(0.84999996);
    expect(f32Below(-1)).toBe(-1.0000001);
    expect(f32Below(1)).toBe(0.99999994);
    expect(f32Below(0)).toBeLessThan(0);
    expect(Math.fround(f32Below(0.25))).toBeLessThan(0.25);
  });
});

describe('toQdrantFilter', () => {
  test('passes filters through, mapping has_id values wherever they are', () => {
    const filter = {
      must: { has_id: ['faq:refunds', 7] },
      should: [{ must: [{ has_id: ['A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D'] }] }],
      min_should: { conditions: [{ has_id: ['x'] }, { key: 'lang', match: { value: 'it' } }], min_count: 1 },
      must_not: [{ nested: { key: 'items', filter: { must: [{ key: 'sku', match: { value: 'a' } }] } } }],
    };
    expect(toQdrantFilter(filter, undefined)).toEqual({
      must: { has_id: ['ad7543fb-3ad1-5897-a206-6bea0e986ee7', 7] },
      should: [{ must: [{ has_id: ['a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'] }] }],
      min_should: {
        conditions: [{ has_id: [toQdrantPointId('x')] }, { key: 'lang', match: { value: 'it' } }],
        min_count: 1,
      },
      must_not: [{ nested: { key: 'items', filter: { must: [{ key: 'sku', match: { value: 'a' } }] } } }],
    });
  });

  test('exclusions join must_not as one has_id condition', () => {
    expect(toQdrantFilter(null, [1, 'faq:refunds', 1])).toEqual({
      must_not: [{ has_id: [1, 'ad7543fb-3ad1-5897-a206-6bea0e986ee7'] }],
    });
    expect(toQdrantFilter({ must_not: { key: 'a', match: { value: 1 } } }, [2])).toEqual({
      must_not: [{ key: 'a', match: { value: 1 } }, { has_id: [2] }],
    });
    expect(toQdrantFilter({}, [])).toBeUndefined();
    expect(toQdrantFilter(undefined, undefined)).toBeUndefined();
  });

  test('invalid filters are FILTER errors', () => {
    expect(() => toQdrantFilter({ filter: { must: [] } } as never, undefined)).toThrow(
      /Qdrant nests filters/,
    );
  });
});
