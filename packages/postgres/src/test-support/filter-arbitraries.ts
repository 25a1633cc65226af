import { CORPUS_CASES, CORPUS_COLLECTIONS, corpusOutcome } from '@treeagent/core/conformance';
import type { Condition, Filter, PointId } from '@treeagent/core/filter';
import fc from 'fast-check';

/**
 * Generators of payloads and Qdrant-style filters that reach every corner of the evaluator's
 * semantics: paths through objects and arrays, explicit nulls, empty arrays, nested arrays,
 * numbers (decimals, large), datetimes (valid and not), unicode words, UUID ids in several
 * spellings; and the shapes of Qdrant's own test fixtures (the corpus in core's
 * `src/conformance/qdrant-corpus`): their payloads, keys, values and filters.
 */

/** Payloads of every fixture of the Qdrant corpus (countries with city arrays, nested arrays, URLs...). */
const CORPUS_PAYLOADS: Record<string, unknown>[] = [...CORPUS_COLLECTIONS.values()].flatMap((c) =>
  c.points.map((p) => p.payload ?? {}),
);
/** The corpus's filters that Tree Agent supports. */
const CORPUS_FILTERS: Filter[] = CORPUS_CASES.filter((c) => 'ids' in corpusOutcome(c) && !c.unsupported).map(
  (c) => (c.request.filter ?? {}) as Filter,
);

const UUID = '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f';
export const POINT_IDS: PointId[] = [
  0,
  1,
  2,
  3,
  17,
  'a',
  'b',
  UUID,
  UUID.toUpperCase(),
  `{${UUID}}`,
  UUID.replaceAll('-', ''),
  'f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
];

const words = [
  'bike',
  'Bike lane',
  'red bike',
  'bikes',
  'e-bike',
  'ébike',
  'e\u0301bike',
  'BIKE!',
  'Straße STRASSE',
  'İstanbul',
  'ΟΔΟΣ οδος',
  'Σ',
  '42 bikes',
  '٤٢',
  'x_y',
  'x',
  'y',
  '',
  '🚲 bike',
];
const datetimes = [
  '2024-01-01',
  '2024-01-01T10:30:00Z',
  '2024-01-01 10:30',
  '2024-01-01T10:30:00.123456789+02:00',
  '2024-01-01T10:30:00.5-0130',
  '2024-01-01t10:30:00z',
  '2024-02-29T00:00:00Z',
  '2023-02-29',
  '2024-13-01',
  '2024-01-01T24:00:00Z',
  '2024-01-01T10:30:00+24:00',
  '0000-02-29',
  '0000-03-01',
  '0099-12-31T23:59:59Z',
  '1969-12-31T23:59:59.999999999Z',
  '1970-01-01T00:00:00.000000001Z',
  '9999-12-31T23:59:59.999999999Z',
  '2024-1-01',
  'not a date',
];
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
/** Datetime-like strings, valid or off by a field. */
const randomDatetime = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two(13),
    two(32),
    fc.option(
      fc.tuple(
        fc.constantFrom('T', ' ', 't'),
        two(24),
        two(60),
        fc.option(fc.tuple(two(60), fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined })), {
          nil: undefined,
        }),
        fc.option(
          fc.oneof(
            fc.constantFrom('Z', 'z'),
            fc
              .tuple(fc.constantFrom('+', '-'), two(24), fc.constantFrom(':', ''), two(60))
              .map((p) => p.join('')),
          ),
          { nil: undefined },
        ),
      ),
      { nil: undefined },
    ),
  )
  .map(([y, mo, d, time]) => {
    let text = `${y}-${mo}-${d}`;
    if (time) {
      const [sep, h, mi, sec, zone] = time;
      text += `${sep}${h}:${mi}`;
      if (sec) text += `:${sec[0]}${sec[1] === undefined ? '' : `.${sec[1]}`}`;
      if (zone) text += zone;
    }
    return text;
  });
const validDatetime = fc.constantFrom(
  '2024-01-01',
  '2024-01-01T10:30:00Z',
  '2024-01-01T08:30:00.123456789Z',
  '2024-01-01T12:30:00+02:00',
  '0000-03-01',
  '1970-01-01T00:00:00Z',
  '1970-01-01T00:00:00.000000001Z',
  '2024-02-29 23:59',
);

const numbers = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -1.5, 2.5, 0.30000000000000004, 0.3, 1e21, -0, 1e-7),
);
const strings = fc.oneof(fc.constantFrom(...words), fc.constantFrom(...datetimes), randomDatetime);
const scalar = fc.oneof(
  { weight: 3, arbitrary: strings },
  { weight: 3, arbitrary: numbers },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
/** Geo points on a coarse grid (edges and corners of the generated shapes are hit often), some malformed. */
const coordinate = fc.oneof(fc.integer({ min: -4, max: 4 }), fc.constantFrom(0.5, -0.5, 1e-9, 179.9, -179.9));
const latitude = fc.oneof(fc.integer({ min: -4, max: 4 }), fc.constantFrom(0.5, -0.5, 1e-9, 89.9, -89.9));
const geoPoint = fc.oneof(
  { weight: 4, arbitrary: fc.record({ lon: coordinate, lat: latitude }) },
  { weight: 1, arbitrary: fc.constantFrom({ lon: '1', lat: 1 }, { lon: 1 }, { lat: 1, lon: 1, alt: 3 }) },
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: geoPoint },
  { weight: 1, arbitrary: fc.array(geoPoint, { maxLength: 2 }) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }) },
);
const element = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        f: value,
        g: fc.array(fc.record({ h: value }, { requiredKeys: [] }), { maxLength: 2 }),
        sku: fc.constantFrom('a', 'b'),
        qty: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: scalar },
);

export const payloadArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    a: value,
    b: value,
    c: fc.oneof(
      fc.record({ d: value, e: fc.record({ f: value }, { requiredKeys: [] }) }, { requiredKeys: [] }),
      value,
    ),
    e: fc.oneof(
      { weight: 4, arbitrary: fc.array(element, { maxLength: 3 }) },
      { weight: 1, arbitrary: value },
    ),
    g: fc.array(fc.array(element, { maxLength: 2 }), { maxLength: 2 }),
    'x.y': value,
    n: strings,
  },
  { requiredKeys: [] },
);

export const pointArbitrary = fc.record({
  id: fc.constantFrom(...POINT_IDS),
  payload: fc.oneof(
    { weight: 4, arbitrary: payloadArbitrary },
    { weight: 1, arbitrary: fc.constantFrom(...CORPUS_PAYLOADS) },
  ),
});

const keys = [
  'a',
  'b',
  'a[]',
  'a[0]',
  'a[1]',
  'c',
  'c.d',
  'c.d[]',
  'c.e.f',
  'e',
  'e[]',
  'e[].f',
  'e[0].f',
  'e[1]',
  'e[].g[].h',
  'g[]',
  'g[][]',
  'g[][].f',
  'g[0][0].f',
  '"x.y"',
  'x',
  'n',
  'e[4294967296]',
  // Keys of the Qdrant corpus fixtures.
  'city',
  'price',
  'count',
  'country.name',
  'country.cities[].population',
  'country.cities[].sightseeing',
  'country.cities[].name',
  'arr1[].arr2[].a',
  'arr1[].arr2',
  'url',
  'tags',
  'status',
  'uid',
  'datetime_payload',
  'location',
  'country.cities[].location',
];
const innerKeys = [
  'f',
  'f[]',
  'g',
  'g[].h',
  'sku',
  'qty',
  'missing',
  'population',
  'sightseeing',
  'name',
  'arr2[].a',
  'a',
  'b',
];

const matchValue = fc.oneof(
  fc.constantFrom('x', 'y', 'bike', '', 'a', '2024-01-01', 'Berlin', 'London', 'live'),
  fc.integer({ min: -3, max: 6 }),
  fc.boolean(),
);
const stringSet = fc.array(
  fc.constantFrom('x', 'y', 'bike', '', 'a', 'b', '0000-03-01', 'Berlin', 'Moscow'),
  {
    maxLength: 3,
  },
);
const intSet = fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 });
const textQuery = fc.constantFrom(
  'bike',
  'BIKE',
  'Bike lane',
  'lane bike',
  'e',
  'ébike',
  'e\u0301bike',
  'straße',
  'strasse',
  'i̇stanbul',
  'İstanbul',
  'istanbul',
  'οδος',
  'οδοσ',
  'ΟΔΟΣ',
  'σ',
  '42',
  '٤٢',
  'x',
  'y',
  '',
  ' !',
  '🚲',
  '2024',
  'https://',
  'qdrant.',
  'http',
  'bike\u3000lane',
  'x\u00a0y',
  ' bike ',
);
const numberBound = fc.option(
  fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.3, 0.30000000000000004, 2.5, -1.5, 1e21)),
  { nil: undefined },
);
const dateBound = fc.option(validDatetime, { nil: undefined });
const countBound = fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined });

const point = fc.record({ lon: coordinate, lat: latitude });
const ring = fc
  .array(point, { minLength: 3, maxLength: 5 })
  .map((points) => ({ points: [...points, points[0]!] }));
const geoConditions = (key: fc.Arbitrary<string>) => [
  fc.record({ key, geo_bounding_box: fc.record({ top_left: point, bottom_right: point }) }),
  fc.record({
    key,
    geo_radius: fc.record({
      center: point,
      radius: fc.constantFrom(0, 1, 111_194, 111_196, 250_000, 600_000),
    }),
  }),
  fc.record({
    key,
    geo_polygon: fc.record(
      { exterior: ring, interiors: fc.option(fc.array(ring, { maxLength: 2 }), { nil: undefined }) },
      { requiredKeys: ['exterior'] },
    ),
  }),
];

function leafConditions(keyPool: string[]): fc.Arbitrary<Condition> {
  const key = fc.constantFrom(...keyPool);
  return fc.oneof(
    ...geoConditions(key),
    fc.record({ key, match: fc.record({ value: matchValue }) }),
    fc.record({ key, match: fc.record({ any: fc.oneof(stringSet, intSet) }) }),
    fc.record({ key, match: fc.record({ except: fc.oneof(stringSet, intSet) }) }),
    fc.record({ key, match: fc.record({ text: textQuery }) }),
    fc.record({ key, match: fc.record({ phrase: textQuery }) }),
    fc.record({ key, match: fc.record({ prefix: textQuery }) }),
    fc.record({ key, match: fc.record({ text_any: textQuery }) }),
    fc.record({
      key,
      range: fc.record({ gt: numberBound, gte: numberBound, lt: numberBound, lte: numberBound }),
    }),
    fc.record({ key, range: fc.record({ gt: dateBound, gte: dateBound, lt: dateBound, lte: dateBound }) }),
    fc.record({
      key,
      values_count: fc.record({ gt: countBound, gte: countBound, lt: countBound, lte: countBound }),
    }),
    fc.record({ is_empty: fc.record({ key }) }),
    fc.record({ key, is_empty: fc.boolean() }),
    fc.record({ key, is_null: fc.boolean() }),
    fc.record({ is_null: fc.record({ key }) }),
    fc.record({ has_id: fc.array(fc.constantFrom(...POINT_IDS), { maxLength: 3 }) }),
  ) as fc.Arbitrary<Condition>;
}

function filterOf(condition: fc.Arbitrary<Condition>): fc.Arbitrary<Filter> {
  const list = fc.oneof(fc.array(condition, { maxLength: 2 }), condition);
  const full = fc.record(
    {
      must: list,
      should: list,
      must_not: list,
      min_should: fc.record({
        conditions: fc.array(condition, { maxLength: 3 }),
        min_count: fc.integer({ min: 1, max: 3 }),
      }),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Filter>;
  // Mostly one clause, so that filters select some points and not others.
  const one = fc.oneof(
    fc.record({ must: fc.array(condition, { minLength: 1, maxLength: 2 }) }),
    fc.record({ should: fc.array(condition, { minLength: 1, maxLength: 3 }) }),
    fc.record({ must_not: fc.array(condition, { minLength: 1, maxLength: 2 }) }),
    fc.record({
      min_should: fc.record({
        conditions: fc.array(condition, { maxLength: 3 }),
        min_count: fc.integer({ min: 1, max: 2 }),
      }),
    }),
  ) as fc.Arbitrary<Filter>;
  return fc.oneof({ weight: 3, arbitrary: one }, { weight: 1, arbitrary: full });
}

const innerFilter = filterOf(leafConditions(innerKeys));
const nested: fc.Arbitrary<Condition> = fc.record({
  nested: fc.record({
    key: fc.constantFrom('e', 'e[]', 'g[]', 'a', 'c', 'e[].g', 'country.cities', 'arr1', 'arr1[].arr2'),
    filter: innerFilter,
  }),
}) as fc.Arbitrary<Condition>;

const { condition } = fc.letrec<{ condition: Condition; filter: Filter }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: leafConditions(keys) },
    { weight: 1, arbitrary: nested },
    { weight: 1, arbitrary: tie('filter') as fc.Arbitrary<Condition> },
  ),
  filter: filterOf(tie('condition')),
}));

/** Filters of every kind, nested filters and `nested` conditions included. */
export const filterArbitrary: fc.Arbitrary<Filter> = fc.oneof(
  { weight: 6, arbitrary: filterOf(condition) },
  { weight: 1, arbitrary: fc.constantFrom(...CORPUS_FILTERS) },
);
