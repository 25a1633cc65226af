import type { CorpusCollection, CorpusPoint } from './types.js';

/**
 * The point sets of Qdrant's OpenAPI integration tests (github.com/qdrant/qdrant, tests/openapi/),
 * transcribed: ids, dense vectors and payloads as the fixtures upsert them. Points that Qdrant's
 * fixture gives only a sparse vector have `vector: null` (a dense query never returns them).
 */

const V1 = [0.05, 0.61, 0.76, 0.74];
const V2 = [0.19, 0.81, 0.75, 0.11];
const V3 = [0.36, 0.55, 0.47, 0.94];
const V4 = [0.18, 0.01, 0.85, 0.8];
const V5 = [0.24, 0.18, 0.22, 0.44];
const V6 = [0.35, 0.08, 0.11, 0.44];

/** The fixture most tests use: cities as a string or an array, prices, nulls and empty arrays. */
const basic: CorpusCollection = {
  name: 'basic',
  source: 'helpers/collection_setup.py::basic_collection_setup',
  distance: 'Dot',
  points: [
    { id: 1, vector: V1, payload: { city: 'Berlin', price: 10.0 } },
    { id: 2, vector: V2, payload: { city: ['Berlin', 'London'], price: 11.0 } },
    { id: 3, vector: V3, payload: { city: ['Berlin', 'Moscow'], price: 9.5 } },
    { id: 4, vector: V4, payload: { city: ['London', 'Moscow'], price: 9 } },
    { id: 5, vector: V5, payload: { count: 0 } },
    { id: 6, vector: V6 },
    { id: 7, vector: [0.25, 0.98, 0.14, 0.43], payload: { city: null, price: null } },
    { id: 8, vector: [0.79, 0.53, 0.72, 0.15], payload: { city: [], price: [] } },
    { id: 9, vector: null },
    { id: 10, vector: null, payload: { city: [], price: [] } },
  ],
};

/** `basic` after test_payload_indexing.py::test_datetime_indexing sets a datetime on points 1–3. */
const basicDatetimes: CorpusCollection = {
  name: 'basic-datetimes',
  source:
    'helpers/collection_setup.py::basic_collection_setup + test_payload_indexing.py::test_datetime_indexing (set_payload)',
  distance: 'Dot',
  points: basic.points.map((point): CorpusPoint => {
    const dates: Record<number, string> = {
      1: '2015-01-01T00:00:00Z',
      2: '2015-02-01T08:00:00+02:00',
      3: '2015-03-01T12:30',
    };
    const date = dates[point.id as number];
    return date === undefined ? point : { ...point, payload: { ...point.payload, datetime_payload: date } };
  }),
};

/** `basic` plus the two UUID points of test_uuid_ops.py. */
const basicUuids: CorpusCollection = {
  name: 'basic-uuids',
  source: 'helpers/collection_setup.py::basic_collection_setup + test_uuid_ops.py::test_uuid_operations',
  distance: 'Dot',
  points: [
    ...basic.points,
    {
      id: 'b524a3c4-c568-4383-8019-c9ca08243d6a',
      vector: [0.15, 0.21, 0.96, 0.04],
      payload: { city: 'Berlin' },
    },
    { id: '1d675313-d3dd-4646-8b98-8052364872da', vector: V2, payload: { city: ['Berlin', 'London'] } },
  ],
};

/** Cities and colours, for min_should. */
const multipayload: CorpusCollection = {
  name: 'multipayload',
  source: 'helpers/collection_setup.py::multipayload_collection_setup',
  distance: 'Dot',
  points: [
    { id: 1, vector: V1, payload: { city: 'Berlin', color: 'red' } },
    { id: 2, vector: V2, payload: { city: ['Berlin', 'London'], color: 'green' } },
    { id: 3, vector: V3, payload: { city: ['Berlin', 'Moscow'], color: 'blue' } },
    { id: 4, vector: V4, payload: { city: ['London', 'Moscow'], color: 'red' } },
    { id: 5, vector: V5, payload: { city: 'Seoul', color: 'red', count: 0 } },
    { id: 6, vector: V6, payload: { city: 'Berlin', color: 'red', count: 1, price: 10.0 } },
    {
      id: 7,
      vector: [0.25, 0.98, 0.14, 0.43],
      payload: { city: 'London', color: 'red', count: 0, price: 50.0 },
    },
    {
      id: 8,
      vector: [0.19, 0.53, 0.72, 0.15],
      payload: { city: 'Moscow', color: 'red', count: 1, price: 100.0 },
    },
  ],
};

/** Locations (lon/lat objects); point 6 has none. */
const geo: CorpusCollection = {
  name: 'geo',
  source: 'helpers/collection_setup.py::geo_collection_setup',
  distance: 'Dot',
  points: [
    { id: 1, vector: V1, payload: { value: 1, location: { lon: 50.52, lat: 50.405 } } },
    { id: 2, vector: V2, payload: { value: 2, location: { lon: 60.52, lat: 60.405 } } },
    { id: 3, vector: V3, payload: { value: 3, location: { lon: -60.52, lat: -60.405 } } },
    { id: 4, vector: V4, payload: { value: 4, location: { lon: 80.52, lat: 80.405 } } },
    { id: 5, vector: V5, payload: { value: 5, location: { lon: -72.52, lat: -72.405 } } },
    { id: 6, vector: V5, payload: { value: 6 } },
  ],
};

function city(name: string | null, population?: number, location?: [number, number], sightseeing?: string[]) {
  return {
    name,
    ...(population === undefined ? {} : { population }),
    ...(location === undefined ? {} : { location: { lon: location[0], lat: location[1] } }),
    ...(sightseeing === undefined ? {} : { sightseeing }),
  };
}

/** Countries holding arrays of city objects (test_nested_payload_indexing.py). */
const countries: CorpusCollection = {
  name: 'countries',
  source: 'test_nested_payload_indexing.py::nested_payload_collection_setup',
  distance: 'Dot',
  points: [
    {
      id: 1,
      vector: V1,
      payload: {
        country: {
          name: 'Germany',
          capital: 'Berlin',
          cities: [
            city('Berlin', 3.7, [13.76116, 52.33826], ['Brandenburg Gate', 'Reichstag']),
            city('Munich', 1.5, [11.57549, 48.13743], ['Marienplatz', 'Olympiapark']),
            city('Hamburg', 1.8, [9.99368, 53.55108], ['Reeperbahn', 'Elbphilharmonie']),
          ],
        },
      },
    },
    {
      id: 2,
      vector: V2,
      payload: {
        country: {
          name: 'England',
          capital: 'London',
          cities: [
            city('London', 8.9, [-0.12755, 51.50722], ['Big Ben', 'London Eye', 'Buckingham Palace']),
            city('Manchester', 2.5, [-2.23743, 53.48095], ['Manchester United', 'Manchester City']),
            city('Liverpool', 0.5, [-2.97794, 53.41058], ['Anfield', 'Albert Dock']),
          ],
        },
      },
    },
    {
      id: 3,
      vector: V3,
      payload: {
        country: {
          name: 'France',
          capital: 'Paris',
          cities: [
            city(
              'Paris',
              2.2,
              [2.35222, 48.85661],
              ['Eiffel Tower', 'Louvre', 'Notre Dame', 'Arc de Triomphe'],
            ),
            city('Marseille', 0.9, [5.36978, 43.29648], ['Vieux Port', 'Notre Dame de la Garde']),
            city('Lyon', 0.5, [4.83565, 45.76404], ['Place Bellecour', 'Fourvière Basilica']),
          ],
        },
      },
    },
    {
      id: 4,
      vector: V4,
      payload: {
        country: {
          name: 'Japan',
          capital: 'Tokyo',
          cities: [
            city('Tokyo', 9.3, [139.69171, 35.6895], ['Tokyo Tower', 'Tokyo Skytree']),
            city('Osaka', 2.7, [135.50217, 34.69374], ['Osaka Castle', 'Universal Studios Japan']),
            city('Kyoto', 1.5, [135.76803, 35.01163], ['Kiyomizu-dera', 'Fushimi Inari-taisha']),
          ],
        },
      },
    },
    { id: 5, vector: V5, payload: { country: { name: 'Nauru', cities: [{ name: null }] } } },
    { id: 6, vector: V6 },
  ],
};

/** Arrays of objects holding arrays of objects (test_nesting_nested_payload_query.py). */
const arrays: CorpusCollection = {
  name: 'nested-arrays',
  source: 'test_nesting_nested_payload_query.py::nesting_nested_payload_collection_setup',
  distance: 'Dot',
  points: [
    {
      id: 1,
      vector: V1,
      payload: {
        arr1: [
          { arr2: [{ a: 1, b: 2 }] },
          {
            arr2: [
              { a: 3, b: 4 },
              { a: 5, b: 6 },
            ],
          },
        ],
      },
    },
    {
      id: 2,
      vector: [0.15, 0.71, 0.78, 0.24],
      payload: {
        arr1: [
          { arr2: [{ a: 2, b: 3 }] },
          {
            arr2: [
              { a: 3, b: 5 },
              { a: 5, b: 7 },
            ],
          },
        ],
      },
    },
  ],
};

/** Three points with no payload (test_filter_is_empty.py::create_collection). */
const noPayload: CorpusCollection = {
  name: 'no-payload',
  source: 'test_filter_is_empty.py::create_collection',
  distance: 'Dot',
  points: [
    { id: 1, vector: [0.05, 0.61, 0.76] },
    { id: 2, vector: [0.19, 0.81, 0.75] },
    { id: 3, vector: [0.36, 0.55, 0.47] },
  ],
};

/** An explicit null, an empty payload and a value (test_filter_is_empty_after_clear_and_rebuild). */
const status: CorpusCollection = {
  name: 'status',
  source: 'test_filter_is_empty.py::test_filter_is_empty_after_clear_and_rebuild',
  distance: 'Dot',
  points: [
    { id: 1, vector: [1, 0], payload: { status: null } },
    { id: 2, vector: [0, 1], payload: {} },
    { id: 3, vector: [1, 1], payload: { status: 'live' } },
  ],
};

/** Tags as arrays, and a point without tags (test_filter_values_count_missing_field.py). */
const tags: CorpusCollection = {
  name: 'tags',
  source: 'test_filter_values_count_missing_field.py::create_collection',
  distance: 'Cosine',
  points: [
    { id: 1, vector: [0.1, 0.2, 0.3, 0.4], payload: { tags: ['a', 'b', 'c'] } },
    { id: 2, vector: [0.2, 0.3, 0.4, 0.5], payload: { tags: ['x'] } },
    { id: 3, vector: [0.3, 0.4, 0.5, 0.6], payload: { title: 'no tags field' } },
  ],
};

/** Integers, keywords and UUID strings (test_match_any_empty.py and test_match_except_empty.py share it). */
const typed: CorpusCollection = {
  name: 'typed-values',
  source: 'test_match_any_empty.py::create_collection (= test_match_except_empty.py::create_collection)',
  distance: 'Dot',
  points: [
    { id: 1, vector: [1, 0], payload: { n: 1, tag: 'a', uid: '550e8400-e29b-41d4-a716-446655440001' } },
    { id: 2, vector: [0, 1], payload: { n: 2, tag: 'b', uid: '550e8400-e29b-41d4-a716-446655440002' } },
    { id: 3, vector: [1, 1], payload: { n: 3, tag: 'c', uid: '550e8400-e29b-41d4-a716-446655440003' } },
  ],
};

/** URLs as strings and arrays; point 6 has none (test_prefix_match.py). */
const urls: CorpusCollection = {
  name: 'urls',
  source: 'test_prefix_match.py::create_collection',
  distance: 'Dot',
  points: [
    { id: 1, vector: [1, 0], payload: { tag: 'odd', url: 'https://qdrant.tech' } },
    { id: 2, vector: [1, 0], payload: { tag: 'even', url: 'https://qdrant.tech/docs' } },
    { id: 3, vector: [1, 0], payload: { tag: 'odd', url: 'https://example.com' } },
    {
      id: 4,
      vector: [1, 0],
      payload: { tag: 'even', url: ['http://example.com', 'https://qdrant.tech/blog'] },
    },
    { id: 5, vector: [1, 0], payload: { tag: 'odd', url: 'ftp://files.example.com' } },
    { id: 6, vector: [1, 0], payload: { tag: 'even' } },
  ],
};

/** Story titles, ids 0… (test_fts.py). Qdrant's fixture uses random vectors; these are fixed ones. */
const TITLES = [
  '2430 A.D.',
  'The Acquisitive Chuckle',
  'Author! Author!',
  'The Bicentennial Man',
  'Big Game',
  'The Billiard Ball',
  'Birth of a Notion',
  'Black Friar of the Flame',
  'Blank!',
  'Blind Alley',
  'Breeds There a Man...?',
  'Button, Button',
  'Buy Jupiter',
  'C-Chute',
  'Cal',
  'The Callistan Menace',
  'Catch That Rabbit',
  'Christmas on Ganymede',
  'Darwinian Pool Room',
  'Day of the Hunters',
  'Death Sentence',
  'Does a Bee Care?',
  'Dreaming Is a Private Thing',
  'The Dust of Death',
  'The Dying Night',
  'Each an Explorer',
  'Escape!',
  'Everest',
  'Evidence',
  'The Evitable Conflict',
  'Exile to Hell',
  'Eyes Do More Than See',
  'The Feeling of Power',
  'Feminine Intuition',
  'First Law',
  'Flies',
  'For the Birds',
  'Founding Father',
  'The Fun They Had',
  'Galley Slave',
  'The Gentle Vultures',
  'Getting Even',
  'Gimmicks Three',
  'Gold',
  'Good Taste',
  'The Greatest Asset',
  'Green Patches',
  'Half-Breed',
  'Half-Breeds on Venus',
  'Hallucination',
  'The Hazing',
  'Hell-Fire',
  'Heredity',
  'History',
  'Homo Sol',
  'Hostess',
  'I Just Make Them Up, See!',
  "I'm in Marsport Without Hilda",
  'The Imaginary',
  'The Immortal Bard',
  'In a Good Cause—',
  'Insert Knob A in Hole B',
  'The Instability',
  "It's Such a Beautiful Day",
  'The Key',
  'Kid Stuff',
  'The Last Answer',
  'The Last Question',
  'The Last Trump',
  'Left to Right',
  'Legal Rites',
  'Lenny',
  'Lest We Remember',
  "Let's Not",
  'Liar!',
  'Light Verse',
  'Little Lost Robot',
  'The Little Man on the Subway',
  'Living Space',
  'A Loint of Paw',
  'The Magnificent Possession',
  'Marching In',
  'Marooned off Vesta',
  'The Message',
  'Mirror Image',
  'Mother Earth',
  'My Son, the Physicist',
  'No Connection',
  'No Refuge Could Save',
  'Nobody Here But—',
  'Not Final!',
  'Obituary',
  'Old-fashioned',
  'Pâté de Foie Gras',
  'The Pause',
  'Ph as in Phony',
  'The Portable Star',
  'The Proper Study',
  'Rain, Rain, Go Away',
  'Reason',
  "The Red Queen's Race",
  'Rejection Slips',
  'Ring Around the Sun',
  'Risk',
  'Robot AL-76 Goes Astray',
  'Robot Dreams',
  'Runaround',
  'Sally',
  'Satisfaction Guaranteed',
  'The Secret Sense',
  'Shah Guido G.',
  'Silly Asses',
  'The Singing Bell',
  'Sixty Million Trillion Combinations',
  'Spell My Name with an S',
  'Star Light',
  'A Statue for Father',
  'Strikebreaker',
  'Super-Neutron',
  'Take a Match',
  'The Talking Stone',
  '. . . That Thou Art Mindful of Him',
  'Thiotimoline',
  'Time Pussy',
  'Trends',
  'Truth to Tell',
  'The Ugly Little Boy',
  'The Ultimate Crime',
  'Unto the Fourth Generation',
  'The Up-to-Date Sorcerer',
  'Waterclap',
  'The Watery Place',
  'The Weapon',
  'The Weapon Too Dreadful to Use',
  'What If—',
  'What Is This Thing Called Love?',
  "What's in a Name?",
  'The Winnowing',
];
const titles: CorpusCollection = {
  name: 'titles',
  source: 'test_fts.py::basic_collection_setup (random vectors replaced by fixed ones)',
  distance: 'Dot',
  points: TITLES.map((title, id) => ({
    id,
    vector: [((id * 7) % 11) / 11 + 0.05, ((id * 5) % 13) / 13 + 0.05, ((id * 3) % 17) / 17 + 0.05, 0.5],
    payload: { title },
  })),
};

/** \`basic\` after test_basic_retrieve_api.py::test_query_nested replaces point 8. */
const basicDatabaseId: CorpusCollection = {
  name: 'basic-database-id',
  source:
    'helpers/collection_setup.py::basic_collection_setup + test_basic_retrieve_api.py::test_query_nested',
  distance: 'Dot',
  points: basic.points.map((point) =>
    point.id === 8
      ? {
          id: 8,
          vector: [0.15, 0.31, 0.76, 0.74],
          payload: { database_id: { type: 'keyword', value: '8594ff5d-265f-4785-a9f5-b3b4b9665506' } },
        }
      : point,
  ),
};

/**
 * The point of Qdrant's unit test of its condition checker (point 0), and the ids the test's id
 * tracker knows without a payload (1, 2, 10). The test has no vectors: these are placeholders.
 */
const conditionChecker: CorpusCollection = {
  name: 'condition-checker',
  source: 'lib/segment/src/payload_storage/query_checker.rs::test_condition_checker',
  distance: 'Cosine',
  points: [
    {
      id: 0,
      vector: [1, 0],
      payload: {
        location: { lon: 13.404954, lat: 52.520008 },
        price: 499.9,
        amount: 10,
        rating: [3, 7, 9, 9],
        color: 'red',
        has_delivery: true,
        shipped_at: '2020-02-15T00:00:00Z',
        parts: [],
        packaging: null,
        not_null: [null],
      },
    },
    { id: 1, vector: [0, 1] },
    { id: 2, vector: [1, 1] },
    { id: 10, vector: [1, 2] },
  ],
};

/** Every collection of the corpus, by name. */
export const CORPUS_COLLECTIONS: ReadonlyMap<string, CorpusCollection> = new Map(
  [
    basic,
    basicDatetimes,
    basicUuids,
    basicDatabaseId,
    conditionChecker,
    multipayload,
    geo,
    countries,
    arrays,
    noPayload,
    status,
    tags,
    typed,
    urls,
    titles,
  ].map((c) => [c.name, c]),
);
