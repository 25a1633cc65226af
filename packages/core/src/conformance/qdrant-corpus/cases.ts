import type { PointId } from '../../protocol/filter.js';
import type { CorpusCase, CorpusExpect, CorpusRequest, CorpusSource, CorpusUnsupported } from './types.js';

/**
 * Cases written from Qdrant's OpenAPI integration tests (github.com/qdrant/qdrant, tests/openapi/,
 * at the commit named in README.md of this folder). Query results are listed best score first
 * under the fixture's distance (mostly `Dot`); scroll results in id order.
 */

const Q = [0.2, 0.1, 0.9, 0.7];

function make(file: string) {
  return (
    test: string,
    name: string,
    collection: string,
    request: CorpusRequest,
    expect: CorpusExpect,
    extra: { unsupported?: CorpusUnsupported; note?: string } = {},
  ): CorpusCase => {
    const source: CorpusSource = { file, test };
    return {
      name: `${file.replace(/^.*\//, '').replace(/\.(py|rs)$/, '')}: ${name}`,
      source,
      collection,
      request,
      expect,
      ...extra,
    };
  };
}

const ids = (list: readonly PointId[], asserted?: string): CorpusExpect =>
  asserted === undefined ? { ids: list } : { ids: list, asserted };
const error = (status: 400 | 422, message?: string): CorpusExpect => ({
  error: message === undefined ? { status } : { status, message },
});
const must = (...conditions: unknown[]) => ({ must: conditions });
const scroll = (filter: unknown, limit?: number): CorpusRequest => ({
  endpoint: 'scroll',
  filter,
  ...(limit === undefined ? {} : { limit }),
});
const query = (filter: unknown, limit: number, vector: readonly number[] = Q): CorpusRequest => ({
  endpoint: 'query',
  query: vector,
  filter,
  limit,
});

const filterTests = make('test_filter.py');
const valuesCount = make('test_filter_values_count.py');
const valuesCountMissing = make('test_filter_values_count_missing_field.py');
const isEmpty = make('test_filter_is_empty.py');
const minShould = make('test_filter_min_should.py');
const anyEmpty = make('test_match_any_empty.py');
const exceptEmpty = make('test_match_except_empty.py');
const nested = make('test_nested_payload_query.py');
const nesting = make('test_nesting_nested_payload_query.py');
const threshold = make('test_score_threshold.py');
const uuid = make('test_uuid_ops.py');
const count = make('test_count.py');
const datetime = make('test_payload_indexing.py');
const prefix = make('test_prefix_match.py');
const geo = make('test_geo_filter.py');
const slice = make('test_filter_slice.py');
const fts = make('test_fts.py');
const retrieve = make('test_basic_retrieve_api.py');
const nestedIndexing = make('test_nested_payload_indexing.py');
const checker = make('lib/segment/src/payload_storage/query_checker.rs');

const population = (range: Record<string, number>) => ({ key: 'population', range });
const sightseeing = (values_count: Record<string, number>) => ({ key: 'sightseeing', values_count });
const inCities = (filter: unknown, key = 'country.cities') => scroll(must({ nested: { key, filter } }), 3);
const inArr1 = (filter: unknown, key = 'arr1') => scroll(must({ nested: { key, filter } }), 3);

const UID1 = '550e8400-e29b-41d4-a716-446655440001';
const UID2 = '550e8400-e29b-41d4-a716-446655440002';
const UID3 = '550e8400-e29b-41d4-a716-446655440003';
const threeCities = { key: 'city', match: { any: ['Berlin', 'Moscow'] } };
const red = { key: 'color', match: { value: 'red' } };
const countZero = { key: 'count', match: { value: 0 } };
const atLeastTwo = { min_should: { conditions: [threeCities, red, countZero], min_count: 2 } };
const datetimeRange = (range: Record<string, string>) => scroll(must({ key: 'datetime_payload', range }));
const prefixScroll = (p: string) => scroll(must({ key: 'url', match: { prefix: p } }), 100);

const polygon = (points: [number, number][], interiors?: unknown[]) => ({
  key: 'location',
  geo_polygon: {
    exterior: { points: points.map(([lon, lat]) => ({ lon, lat })) },
    ...(interiors === undefined ? {} : { interiors }),
  },
});
/** Without a text index, Qdrant matches `text` as a case-sensitive substring (condition_checker.rs): no title holds "ROBO", "robot" or "star". */
const TEXT_INDEX: CorpusUnsupported = { feature: 'full-text index', outcome: 'not-applicable', ids: [] };

/** Every case of the corpus. */
export const CORPUS_CASES: readonly CorpusCase[] = [
  // test_filter.py (basic fixture)
  filterTests(
    'test_match_any',
    'match any of two cities',
    'basic',
    query(must({ key: 'city', match: { any: ['London', 'Moscow'] } }), 3),
    ids([4, 3, 2], 'three points, 2, 3 and 4'),
  ),
  filterTests(
    'test_just_key',
    'a field condition with only a key is rejected',
    'basic',
    query(must({ key: 'city' }), 3),
    error(422, 'At least one field condition must be specified'),
  ),

  // test_filter_values_count.py (basic fixture; points 9 and 10 have no dense vector)
  valuesCount(
    'test_filter_values_count',
    'more than 2 values',
    'basic',
    query(must({ key: 'city', values_count: { gt: 2 } }), 3),
    ids([], 'no point'),
  ),
  valuesCount(
    'test_filter_values_count',
    'at least 2 values',
    'basic',
    query(must({ key: 'city', values_count: { gte: 2 } }), 3),
    ids([4, 3, 2], 'three points, 2, 3 and 4'),
  ),
  valuesCount(
    'test_filter_values_count',
    'fewer than 2 values: null, [] and missing count 0',
    'basic',
    query(must({ key: 'city', values_count: { lt: 2 } }), 3),
    ids([1, 8, 7], 'three points, point 1 first'),
    {
      note: 'Points 1 (one city), 5, 6 (no city), 7 (null) and 8 ([]) have fewer than 2; the best three by dot product are 1, 8, 7.',
    },
  ),

  // test_filter_values_count_missing_field.py (tags fixture)
  valuesCountMissing(
    'test_filter_values_count_missing_field',
    'a missing field counts 0 (lt 1)',
    'tags',
    scroll(must({ key: 'tags', values_count: { lt: 1 } })),
    ids([3]),
  ),
  valuesCountMissing(
    'test_filter_values_count_missing_field',
    'a missing field counts 0 (gte 0)',
    'tags',
    scroll(must({ key: 'tags', values_count: { gte: 0 } })),
    ids([1, 2, 3]),
  ),
  valuesCountMissing(
    'test_filter_values_count_missing_field',
    'a missing field counts 0 (lte 0)',
    'tags',
    scroll(must({ key: 'tags', values_count: { lte: 0 } })),
    ids([3]),
  ),

  // test_filter_is_empty.py
  isEmpty(
    'test_filter_is_empty',
    'points without payload are empty',
    'no-payload',
    query(must({ is_empty: { key: 'a' } }), 2, [0.1, 0.1, 0.1]),
    ids([2, 1], 'two points'),
    {
      note: 'All three points match; the best two by dot product with [0.1, 0.1, 0.1] are 2 and 1.',
    },
  ),
  isEmpty(
    'test_filter_is_empty_after_clear_and_rebuild',
    'explicit null and missing field are empty',
    'status',
    scroll(must({ is_empty: { key: 'status' } }), 10),
    ids([1, 2]),
  ),

  // test_filter_min_should.py (multipayload fixture)
  minShould(
    'test_min_should_never',
    'disjoint has_id lists never reach 2',
    'multipayload',
    scroll(
      {
        min_should: {
          conditions: [{ has_id: [1, 2] }, { has_id: [4, 5, 6] }, { has_id: [7, 8, 9, 10] }],
          min_count: 2,
        },
      },
      100,
    ),
    ids([], 'no point'),
    {
      note: "Qdrant's test sends no query vector: points come in id order, as a scroll.",
    },
  ),
  minShould(
    'test_min_should',
    'at least 2 of 3 conditions',
    'multipayload',
    query(atLeastTwo, 6),
    ids([4, 1, 8, 7, 5, 6], 'six points: 1, 4, 5, 6, 7, 8'),
  ),
  minShould(
    'test_min_should_combined_with_must',
    'min_should and a range with null bounds',
    'multipayload',
    query(
      { ...atLeastTwo, must: [{ key: 'price', range: { gt: null, gte: 50.0, lt: null, lte: 200.0 } }] },
      2,
    ),
    ids([8, 7], 'two points, 7 and 8'),
  ),
  minShould(
    'test_nested_min_should',
    'min_should inside must_not',
    'multipayload',
    query({ must_not: [atLeastTwo] }, 2),
    ids([3, 2], 'two points, 2 and 3'),
  ),
  minShould(
    'test_missing_min_count',
    'min_should without min_count is rejected',
    'multipayload',
    query({ min_should: { conditions: [{ key: 'city', match: { any: ['London', 'Moscow'] } }] } }, 3),
    error(400),
  ),

  // test_match_any_empty.py (typed-values fixture; the with-index variants assert the same)
  anyEmpty(
    'test_match_any_empty_integer_no_index',
    'any [] on integers matches nothing',
    'typed-values',
    scroll(must({ key: 'n', match: { any: [] } }), 10),
    ids([]),
  ),
  anyEmpty(
    'test_match_any_empty_keyword_no_index',
    'any [] on keywords matches nothing',
    'typed-values',
    scroll(must({ key: 'tag', match: { any: [] } }), 10),
    ids([]),
  ),
  anyEmpty(
    'test_match_any_empty_uuid_no_index',
    'any [] on UUID strings matches nothing',
    'typed-values',
    scroll(must({ key: 'uid', match: { any: [] } }), 10),
    ids([]),
  ),
  anyEmpty(
    'test_match_any_integers_no_index',
    'any [1]',
    'typed-values',
    scroll(must({ key: 'n', match: { any: [1] } }), 10),
    ids([1]),
  ),
  anyEmpty(
    'test_match_any_strings_no_index',
    'any ["a"]',
    'typed-values',
    scroll(must({ key: 'tag', match: { any: ['a'] } }), 10),
    ids([1]),
  ),
  anyEmpty(
    'test_match_any_integers_with_index',
    'any [1, 2]',
    'typed-values',
    scroll(must({ key: 'n', match: { any: [1, 2] } }), 10),
    ids([1, 2]),
  ),
  anyEmpty(
    'test_match_any_strings_with_index',
    'any ["a", "b"]',
    'typed-values',
    scroll(must({ key: 'tag', match: { any: ['a', 'b'] } }), 10),
    ids([1, 2]),
  ),
  anyEmpty(
    'test_match_any_empty_with_strict_mode_in_must_not',
    'must_not any [] excludes nothing',
    'typed-values',
    scroll({ must_not: [{ key: 'n', match: { any: [] } }] }, 10),
    ids([1, 2, 3]),
  ),

  // test_match_except_empty.py (typed-values fixture)
  exceptEmpty(
    'test_match_except_empty_integer_no_index',
    'except [] on integers matches every point with the field',
    'typed-values',
    scroll(must({ key: 'n', match: { except: [] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_empty_keyword_no_index',
    'except [] on keywords',
    'typed-values',
    scroll(must({ key: 'tag', match: { except: [] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_empty_uuid_no_index',
    'except [] on UUID strings',
    'typed-values',
    scroll(must({ key: 'uid', match: { except: [] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_integers_no_index',
    'except [1]',
    'typed-values',
    scroll(must({ key: 'n', match: { except: [1] } }), 10),
    ids([2, 3]),
  ),
  exceptEmpty(
    'test_match_except_strings_no_index',
    'except ["a"]',
    'typed-values',
    scroll(must({ key: 'tag', match: { except: ['a'] } }), 10),
    ids([2, 3]),
  ),
  exceptEmpty(
    'test_match_except_uuids_no_index',
    'except one UUID string',
    'typed-values',
    scroll(must({ key: 'uid', match: { except: [UID1] } }), 10),
    ids([2, 3]),
  ),
  exceptEmpty(
    'test_match_except_strings_on_integer_index',
    'string except on integers: type mismatch matches all',
    'typed-values',
    scroll(must({ key: 'n', match: { except: ['foo', 'bar'] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_integers_on_keyword_index',
    'integer except on keywords: type mismatch matches all',
    'typed-values',
    scroll(must({ key: 'tag', match: { except: [999, 888] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_integers_on_uuid_index',
    'integer except on UUID strings matches all',
    'typed-values',
    scroll(must({ key: 'uid', match: { except: [999, 888] } }), 10),
    ids([1, 2, 3]),
  ),
  exceptEmpty(
    'test_match_except_all_integers_with_index',
    'except every integer',
    'typed-values',
    scroll(must({ key: 'n', match: { except: [1, 2, 3] } }), 10),
    ids([]),
  ),
  exceptEmpty(
    'test_match_except_all_strings_with_index',
    'except every keyword',
    'typed-values',
    scroll(must({ key: 'tag', match: { except: ['a', 'b', 'c'] } }), 10),
    ids([]),
  ),
  exceptEmpty(
    'test_match_except_all_uuids_with_index',
    'except every UUID string',
    'typed-values',
    scroll(must({ key: 'uid', match: { except: [UID1, UID2, UID3] } }), 10),
    ids([]),
  ),

  // test_nested_payload_query.py (countries fixture)
  nested(
    'test_nested_payload_indexing_operations',
    'nested with an explicit [] key',
    'countries',
    inCities(must(population({ gte: 9.0 })), 'country.cities[]'),
    ids([4], 'one point'),
    { note: 'Only Tokyo (Japan, point 4) has a population of 9 or more.' },
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'nested with an implicit [] key',
    'countries',
    inCities(must(population({ gte: 9.0 }))),
    ids([4], 'one point'),
    { note: 'Only Tokyo (Japan, point 4) has a population of 9 or more.' },
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'values_count inside a filter inside nested',
    'countries',
    inCities(must(must(sightseeing({ gt: 3 })))),
    ids([3], 'one point, France'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'nested must and must_not on the same element',
    'countries',
    inCities({ must: [population({ gte: 9.0 })], must_not: [sightseeing({ gt: 1 })] }),
    ids([], 'no point'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'both conditions must hold in one element',
    'countries',
    inCities(must(population({ gte: 9.0 }), sightseeing({ gt: 2 }))),
    ids([], 'no point'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'range and values_count in one element',
    'countries',
    inCities(must(population({ gte: 8.0 }), sightseeing({ lt: 3 }))),
    ids([4], 'one point, Japan'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'must_not range and is_null in one element',
    'countries',
    inCities({ must_not: [population({ lt: 8.0 }), { is_null: { key: 'name' } }] }),
    ids([2, 4], 'England then Japan'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'must_not range, values_count and is_null',
    'countries',
    inCities({ must_not: [population({ lt: 8.0 }), sightseeing({ gte: 3 }), { is_null: { key: 'name' } }] }),
    ids([4], 'one point, Japan'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'is_null inside nested',
    'countries',
    inCities(must({ is_null: { key: 'name' } })),
    ids([5], 'one point, Nauru'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'geo_bounding_box inside nested',
    'countries',
    inCities(
      must({
        key: 'location',
        geo_bounding_box: {
          bottom_right: { lon: 13.76117, lat: 52.33825 },
          top_left: { lon: 13.08835, lat: 52.67551 },
        },
      }),
    ),
    ids([1], 'one point, Germany'),
  ),
  nested(
    'test_nested_payload_indexing_operations',
    'geo_radius inside nested',
    'countries',
    inCities(
      must({ key: 'location', geo_radius: { center: { lon: 13.76117, lat: 52.33825 }, radius: 1000 } }),
    ),
    ids([1], 'one point, Germany'),
  ),

  // test_nesting_nested_payload_query.py (nested-arrays fixture)
  nesting(
    'test_nesting_nested_payload_query_operations',
    'arr2[].a inside nested arr1',
    'nested-arrays',
    inArr1(must({ key: 'arr2[].a', match: { value: 5 } })),
    ids([1, 2], 'two points'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'arr2[].a inside nested arr1 (no match)',
    'nested-arrays',
    inArr1(must({ key: 'arr2[].a', match: { value: 4 } })),
    ids([], 'no point'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'arr2[].b inside nested arr1',
    'nested-arrays',
    inArr1(must({ key: 'arr2[].b', match: { value: 6 } })),
    ids([1], 'one point'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'nested key through an array: arr1[].arr2',
    'nested-arrays',
    inArr1(must({ key: 'b', match: { value: 8 } }), 'arr1[].arr2'),
    ids([], 'no point'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'nested inside nested',
    'nested-arrays',
    inArr1(must({ nested: { key: 'arr2', filter: must({ key: 'a', match: { value: 5 } }) } })),
    ids([1, 2], 'two points'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'nested inside nested, two conditions on one element',
    'nested-arrays',
    inArr1(
      must({
        nested: {
          key: 'arr2',
          filter: must({ key: 'a', match: { value: 5 } }, { key: 'b', match: { value: 6 } }),
        },
      }),
    ),
    ids([1], 'one point, 1'),
  ),
  nesting(
    'test_nesting_nested_payload_query_operations',
    'nested inside nested, should',
    'nested-arrays',
    inArr1(
      must({
        nested: {
          key: 'arr2',
          filter: {
            should: [
              { key: 'a', match: { value: 5 } },
              { key: 'b', match: { value: 6 } },
            ],
          },
        },
      }),
    ),
    ids([1, 2], 'two points'),
  ),

  // test_score_threshold.py (basic fixture)
  threshold(
    'test_search_with_threshold',
    'no threshold',
    'basic',
    { endpoint: 'query', query: Q, limit: 3 },
    ids([4, 1, 3], 'three points'),
  ),
  threshold(
    'test_search_with_threshold',
    'threshold just above the second score keeps one',
    'basic',
    { endpoint: 'query', query: Q, limit: 3, scoreThreshold: { rank: 2, delta: 0.0001 } },
    ids([4], 'one point'),
  ),
  threshold(
    'test_search_with_threshold',
    'threshold just below the second score keeps two',
    'basic',
    { endpoint: 'query', query: Q, limit: 3, scoreThreshold: { rank: 2, delta: -0.0001 } },
    ids([4, 1], 'two points'),
  ),

  // test_uuid_ops.py (basic fixture plus two UUID points)
  uuid(
    'test_uuid_operations',
    'a UUID point is found by its id',
    'basic-uuids',
    scroll(must({ has_id: ['b524a3c4-c568-4383-8019-c9ca08243d6a'] })),
    ids(['b524a3c4-c568-4383-8019-c9ca08243d6a'], 'the point is retrieved by its UUID'),
  ),

  // test_count.py (basic fixture)
  count(
    'test_exact_count_search',
    'should: London or Berlin',
    'basic',
    {
      endpoint: 'count',
      filter: {
        should: [
          { key: 'city', match: { value: 'London' } },
          { key: 'city', match: { value: 'Berlin' } },
        ],
      },
    },
    ids([1, 2, 3, 4], 'count 4'),
  ),

  // test_payload_indexing.py::test_datetime_indexing (basic fixture with datetimes on points 1-3)
  datetime(
    'test_datetime_indexing',
    'YYYY-MM-DDTHH:MM bounds',
    'basic-datetimes',
    datetimeRange({ gte: '2015-03-01T12:30', lte: '2015-03-01T12:30' }),
    ids([3], 'includes 3'),
  ),
  datetime(
    'test_datetime_indexing',
    'a date and a space-separated time',
    'basic-datetimes',
    datetimeRange({ gte: '2015-01-01', lte: '2015-01-01 00:00' }),
    ids([1], 'includes 1'),
  ),
  datetime(
    'test_datetime_indexing',
    'an offset bound equals the UTC value',
    'basic-datetimes',
    datetimeRange({ gte: '2015-01-01T01:00:00+01:00', lte: '2015-01-01T01:00:00+01:00' }),
    ids([1], 'includes 1'),
  ),
  datetime(
    'test_datetime_indexing',
    'no timezone means UTC, matching a +02:00 value',
    'basic-datetimes',
    datetimeRange({ gte: '2015-02-01T06:00:00', lte: '2015-02-01T06:00:00Z' }),
    ids([2], 'includes 2'),
  ),
  datetime(
    'test_datetime_indexing',
    'nanosecond fraction',
    'basic-datetimes',
    datetimeRange({ gte: '2015-02-01T06:00:00.000000000', lte: '2015-02-01T06:00:00.000000000' }),
    ids([2], 'includes 2'),
  ),
  datetime(
    'test_datetime_indexing',
    'YYYY-MM-DDTHH:MM on a Z value',
    'basic-datetimes',
    datetimeRange({ gte: '2015-01-01T00:00', lte: '2015-01-01T00:00' }),
    ids([1], 'includes 1'),
  ),
  datetime(
    'test_datetime_indexing',
    'YYYY-MM-DDTHH:MM on an offset value',
    'basic-datetimes',
    datetimeRange({ gte: '2015-02-01T06:00', lte: '2015-02-01T06:00' }),
    ids([2], 'includes 2'),
  ),
  ...(
    [
      ['RFC 2822', 'Thu, 01 Jan 2015 01:00:00 +0100', 'Thu, 01 Jan 2015 01:00:00 +0100'],
      ['Unix milliseconds', '1422758400000', '1422758400000'],
      ['Unix seconds', '1420070400', '1420070400'],
      ['12-hour clock', '2015-02-01 06:00:00 AM', '2015-02-01 06:00:00 AM'],
      ['basic_date', '20150201', '20150201'],
      ['basic_date_time', '20150201T060000.000Z', '20150201T060000.000Z'],
      ['ordinal date', '2015032T060000Z', '2015032T060000Z'],
      ['a wrong bound beside a right one', '2015032T060000Z', '2015-02-01T06:00:00'],
    ] as const
  ).map(([what, gte, lte]) =>
    datetime(
      'test_datetime_indexing',
      `rejected datetime format: ${what}`,
      'basic-datetimes',
      datetimeRange({ gte, lte }),
      error(400),
      {
        note: "Qdrant's test asserts only that the request fails.",
      },
    ),
  ),

  // test_prefix_match.py::test_prefix_match_without_index (urls fixture)
  ...(
    [
      ['https://qdrant.', [1, 2, 4]],
      ['https://', [1, 2, 3, 4]],
      ['http', [1, 2, 3, 4]],
      ['ftp://', [5]],
      ['https://example.com', [3]],
      ['nonexistent', []],
      ['', [1, 2, 3, 4, 5]],
    ] as const
  ).map(([p, expected]) =>
    prefix(
      'test_prefix_match_without_index',
      `prefix ${JSON.stringify(p)}`,
      'urls',
      prefixScroll(p),
      ids(expected),
    ),
  ),
  prefix(
    'test_prefix_match_count',
    'count with a prefix',
    'urls',
    { endpoint: 'count', filter: must({ key: 'url', match: { prefix: 'https://qdrant.' } }) },
    ids([1, 2, 4], 'count 3'),
  ),

  // test_geo_filter.py (geo fixture)
  geo(
    'test_geo_polygon_simple',
    'polygon with empty interiors',
    'geo',
    query(
      must(
        polygon(
          [
            [55.455868, 55.495862],
            [86.455868, 55.495862],
            [86.455868, 86.495862],
            [55.455868, 86.495862],
            [55.455868, 55.495862],
          ],
          [],
        ),
      ),
      3,
    ),
    ids([4, 2], 'two points, 2 and 4'),
  ),
  geo(
    'test_geo_polygon_simple',
    'polygon across the zero meridian and equator',
    'geo',
    query(
      must(
        polygon([
          [-70, -70],
          [60, -70],
          [60, 60],
          [-70, 60],
          [-70, -70],
        ]),
      ),
      3,
    ),
    ids([1, 3], 'two points, 1 and 3'),
  ),
  geo(
    'test_geo_polygon_simple',
    'polygon covering the earth',
    'geo',
    query(
      must(
        polygon([
          [-180, -90],
          [180, -90],
          [180, 90],
          [-180, 90],
          [-180, -90],
        ]),
      ),
      3,
    ),
    ids([4, 1, 3], 'three points, 1, 3 and 4'),
  ),

  geo(
    'test_geo_polygon_with_interiors',
    'polygon with a hole',
    'geo',
    query(
      must(
        polygon(
          [
            [-70, -70],
            [60, -70],
            [60, 60],
            [-70, 60],
            [-70, -70],
          ],
          [
            {
              points: [
                [-65, -65],
                [0, -65],
                [0, 0],
                [-65, 0],
                [-65, -65],
              ].map(([lon, lat]) => ({ lon, lat })),
            },
          ],
        ),
      ),
      3,
    ),
    ids([1], 'one point, 1'),
  ),
  geo(
    'test_geo_polygon_invalid',
    'an open exterior is rejected',
    'geo',
    query(
      must(
        polygon([
          [-180, -90],
          [180, -90],
          [180, 90],
          [-180, 90],
        ]),
      ),
      3,
    ),
    error(400),
  ),
  geo(
    'test_geo_polygon_invalid',
    'an exterior of three points is rejected',
    'geo',
    query(
      must(
        polygon([
          [-180, -90],
          [180, -90],
          [-180, -90],
        ]),
      ),
      3,
    ),
    error(400),
  ),
  geo(
    'test_geo_polygon_multiple',
    'should: either of two polygons',
    'geo',
    query(
      {
        should: [
          polygon([
            [55, 55],
            [65, 55],
            [65, 65],
            [55, 65],
            [55, 55],
          ]),
          polygon([
            [75, 75],
            [85, 75],
            [85, 85],
            [75, 85],
            [75, 75],
          ]),
        ],
      },
      3,
    ),
    ids([4, 2], 'two points, 2 and 4'),
  ),
  geo(
    'test_geo_polygon_multiple',
    'must: both of two disjoint polygons',
    'geo',
    query(
      must(
        polygon([
          [55, 55],
          [65, 55],
          [65, 65],
          [55, 65],
          [55, 55],
        ]),
        polygon([
          [75, 75],
          [85, 75],
          [85, 85],
          [75, 85],
          [75, 75],
        ]),
      ),
      3,
    ),
    ids([], 'no point'),
  ),

  // test_filter_slice.py
  slice(
    'test_slice_invalid',
    'slice index out of range',
    'basic',
    scroll(must({ slice: { total: 4, index: 4 } }), 1),
    error(422),
    { unsupported: { feature: 'slice', outcome: 'rejected' } },
  ),
  slice(
    'test_slice_invalid',
    'slice of zero parts',
    'basic',
    scroll(must({ slice: { total: 0, index: 0 } }), 1),
    error(400),
    { unsupported: { feature: 'slice', outcome: 'rejected' } },
  ),

  // test_basic_retrieve_api.py (basic fixture)
  retrieve(
    'test_points_retrieve',
    'should with one condition',
    'basic',
    query({ should: [{ key: 'city', match: { value: 'London' } }] }, 3),
    ids([4, 2], 'two points'),
  ),
  retrieve(
    'test_points_retrieve',
    'scroll from an offset',
    'basic',
    { endpoint: 'scroll', offset: 2, limit: 2 },
    { ids: [2, 3], asserted: 'two points', next: 4 },
  ),
  retrieve(
    'test_is_empty_condition',
    'is_empty: missing, null and []',
    'basic',
    query({ should: [{ is_empty: { key: 'city' } }] }, 5),
    ids([8, 7, 5, 6], 'four points: 5, 6, 7, 8'),
  ),
  retrieve(
    'test_is_empty_condition',
    'the field form { key, is_empty: true }',
    'basic',
    query({ should: [{ key: 'city', is_empty: true }] }, 5),
    ids([8, 7, 5, 6], 'the same points as is_empty'),
  ),
  retrieve(
    'test_is_null_condition',
    'is_null: only the explicit null',
    'basic',
    query({ should: [{ is_null: { key: 'city' } }] }, 5),
    ids([7], 'one point, 7'),
  ),
  retrieve(
    'test_is_null_condition',
    'the field form { key, is_null: true }',
    'basic',
    query({ should: [{ key: 'city', is_null: true }] }, 5),
    ids([7], 'the same points as is_null'),
  ),
  retrieve(
    'test_is_null_condition',
    'must_not is_null keeps missing fields',
    'basic',
    query({ must_not: [{ is_null: { key: 'city' } }] }, 5),
    ids([4, 1, 3, 8, 2], 'five points, 1 and 2 among them, not 7'),
  ),
  retrieve(
    'test_is_null_condition',
    'must_not is_null on city[]',
    'basic',
    query({ must_not: [{ is_null: { key: 'city[]' } }] }, 5),
    ids([4, 1, 3, 8, 2], 'five points, 1 and 2 among them'),
  ),
  retrieve(
    'test_is_null_condition',
    'the field form { key, is_null: false }',
    'basic',
    query(must({ key: 'city', is_null: false }), 5),
    ids([4, 1, 3, 8, 2], 'the same points as must_not is_null'),
  ),
  retrieve(
    'test_query_single_condition',
    'must as a single condition, not a list',
    'basic',
    query({ must: { key: 'city', match: { value: 'London' } } }, 3),
    ids([4, 2], 'two points'),
  ),
  retrieve(
    'test_query_nested',
    'a key through an object',
    'basic-database-id',
    {
      endpoint: 'scroll',
      limit: 10,
      filter: must({ key: 'database_id.value', match: { value: '8594ff5d-265f-4785-a9f5-b3b4b9665506' } }),
    },
    ids([8], 'one point'),
  ),

  // test_nested_payload_indexing.py (countries fixture)
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'a key through an object (indexed in Qdrant)',
    'countries',
    scroll({ should: [{ key: 'country.capital', match: { value: 'London' } }] }, 3),
    ids([2], 'one point, England'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'a key through an object',
    'countries',
    scroll({ should: [{ key: 'country.name', match: { value: 'France' } }] }, 3),
    ids([3], 'one point, Paris'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'a key does not go into an array without []',
    'countries',
    scroll({ should: [{ key: 'country.cities.population', range: { gte: 9.0 } }] }, 3),
    ids([], 'no point'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'a key through an array with []',
    'countries',
    scroll({ should: [{ key: 'country.cities[].population', range: { gte: 9.0 } }] }, 3),
    ids([4], 'one point, Japan'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'match in an array reached through []',
    'countries',
    scroll({ should: [{ key: 'country.cities[].sightseeing', match: { value: 'Eiffel Tower' } }] }, 3),
    ids([3], 'one point, Paris'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'an array index',
    'countries',
    scroll({ should: [{ key: 'country.cities[0].name', match: { value: 'Paris' } }] }, 3),
    ids([3], 'one point, Paris'),
  ),
  nestedIndexing(
    'test_nested_payload_indexing_operations',
    'an index after []',
    'countries',
    scroll({ should: [{ key: 'country.cities[].sightseeing[1]', match: { value: 'Louvre' } }] }, 3),
    ids([3], 'one point, Paris'),
  ),

  // lib/segment/src/payload_storage/query_checker.rs::test_condition_checker (point 0; 1, 2, 10 have no payload)
  ...(
    [
      ['is_empty on a number', must({ is_empty: { key: 'price' } }), [1, 2, 10]],
      ['is_empty on a missing key', must({ is_empty: { key: 'something_new' } }), [0, 1, 2, 10]],
      ['is_empty on []', must({ is_empty: { key: 'parts' } }), [0, 1, 2, 10]],
      ['is_empty on [null] is false', must({ is_empty: { key: 'not_null' } }), [1, 2, 10]],
      ['is_null on a number', must({ is_null: { key: 'amount' } }), []],
      ['is_null on []', must({ is_null: { key: 'parts' } }), []],
      ['is_null on a missing key', must({ is_null: { key: 'something_else' } }), []],
      ['is_null on null', must({ is_null: { key: 'packaging' } }), [0]],
      ['is_null on [null] is false', must({ is_null: { key: 'not_null' } }), []],
      ['match value', must({ key: 'color', match: { value: 'red' } }), [0]],
      ['match value, no match', must({ key: 'color', match: { value: 'blue' } }), []],
      [
        'must_not a condition that fails',
        { must_not: [{ key: 'color', match: { value: 'blue' } }] },
        [0, 1, 2, 10],
      ],
      [
        'must_not a condition that holds',
        { must_not: [{ key: 'color', match: { value: 'red' } }] },
        [1, 2, 10],
      ],
      ['values_count gte 10 on four values', must({ key: 'rating', values_count: { gte: 10 } }), []],
      [
        'values_count lt 5 (missing counts 0)',
        must({ key: 'rating', values_count: { lt: 5 } }),
        [0, 1, 2, 10],
      ],
      [
        'must_not a range one array element satisfies',
        { must_not: [{ key: 'rating', range: { lte: 5 } }] },
        [1, 2, 10],
      ],
      [
        'datetime range, February',
        must({ key: 'shipped_at', range: { gte: '2020-02-01T00:00:00Z', lt: '2020-03-01T00:00:00Z' } }),
        [0],
      ],
      [
        'datetime range, March',
        must({ key: 'shipped_at', range: { gte: '2020-03-01T00:00:00Z', lt: '2020-04-01T00:00:00Z' } }),
        [],
      ],
      ['must_not has_id', { must_not: [{ has_id: [1, 2, 3] }] }, [0, 10]],
      ['must has_id', must({ has_id: [1, 2, 3] }), [1, 2]],
    ] as const
  ).map(([what, filter, expected]) =>
    checker('test_condition_checker', what, 'condition-checker', scroll(filter, 10), ids(expected), {
      note: 'The Rust test checks point 0 (and ids 2 and 10 for has_id); points 1, 2 and 10 have no payload.',
    }),
  ),

  // test_fts.py (titles fixture, with a full-text index created on "title" by the test)
  fts(
    'test_scroll_with_prefix',
    'text "ROBO" with a prefix-tokenizer text index',
    'titles',
    scroll({ should: [{ key: 'title', match: { text: 'ROBO' } }] }, 10),
    ids([76, 104, 105], 'three points'),
    {
      unsupported: TEXT_INDEX,
      note: 'Little Lost Robot, Robot AL-76 Goes Astray, Robot Dreams. Without a text index Qdrant matches text as a case-sensitive substring, which finds none.',
    },
  ),
  fts(
    'test_match_any',
    'text robot or star with a word-tokenizer text index',
    'titles',
    scroll(
      {
        should: [
          { key: 'title', match: { text: 'robot' } },
          { key: 'title', match: { text: 'star' } },
        ],
      },
      10,
    ),
    ids([76, 96, 104, 105, 115], 'equal to text_any "robot of the star"'),
    {
      unsupported: TEXT_INDEX,
      note: 'Words robot or star (lower-cased); "Astray" is not the word star. Without a text index Qdrant matches "star" as a substring (Astray, Star Light).',
    },
  ),
];
