/**
 * Payload filters in Qdrant's REST JSON shape (snake_case), so one filter object works on the
 * embedded vector store, on chunk `extra` payloads during tree exploration, and on a Qdrant
 * server unchanged. See https://qdrant.tech/documentation/concepts/filtering/.
 *
 * @example
 * const filter: Filter = {
 *   must: [{ key: 'lang', match: { value: 'en' } }, { key: 'year', range: { gte: 2020 } }],
 *   must_not: [{ is_empty: { key: 'tags' } }],
 * };
 */

/** A point (chunk) id: an unsigned integer or a string (Qdrant requires UUID strings). */
export type PointId = string | number;

/** One condition, or several, as Qdrant accepts in `must`, `should` and `must_not`. */
export type Conditions = Condition | readonly Condition[];

/** A boolean combination of conditions. An empty filter `{}` matches every point. */
export interface Filter {
  /** Every condition must match (AND). */
  must?: Conditions | null;
  /** At least one condition must match (OR). An empty list is no constraint. */
  should?: Conditions | null;
  /** No condition may match (NOT ... AND NOT ...). */
  must_not?: Conditions | null;
  /** At least `min_count` of the conditions must match. */
  min_should?: MinShould | null;
}

/** "At least `min_count` of these": `min_count` is an integer ≥ 1. */
export interface MinShould {
  /** Candidate conditions. */
  conditions: readonly Condition[];
  /** How many of them must match, at least. */
  min_count: number;
}

/** Anything allowed in a clause. A {@link Filter} nests directly, with no wrapper key. */
export type Condition =
  | FieldCondition
  | IsEmptyCondition
  | IsNullCondition
  | HasIdCondition
  | NestedCondition
  | Filter;

/** A condition on the values at `key`; exactly one of `match`, `range`, `values_count`. */
export type FieldCondition =
  | MatchCondition
  | RangeCondition
  | ValuesCountCondition
  | FieldIsEmptyCondition
  | FieldIsNullCondition
  | GeoBoundingBoxCondition
  | GeoRadiusCondition
  | GeoPolygonCondition;

/** Matches when any value at `key` (array elements included) satisfies `match`. */
export interface MatchCondition {
  /** Payload path: `a.b` for nested objects, `a[].b` through arrays, `a[0]` for one element. */
  key: string;
  /** How the values are compared. */
  match: Match;
  range?: never;
  values_count?: never;
  is_empty?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/** Matches when any numeric (or datetime) value at `key` lies in `range`. */
export interface RangeCondition {
  /** Payload path, as in {@link MatchCondition.key}. */
  key: string;
  /** Numeric bounds, or datetime bounds for datetime-string values. */
  range: Range | DatetimeRange;
  match?: never;
  values_count?: never;
  is_empty?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/** Matches on how many values `key` holds (array length; 1 for a scalar; 0 when missing). */
export interface ValuesCountCondition {
  /** Payload path, as in {@link MatchCondition.key}. */
  key: string;
  /** Bounds on the count. */
  values_count: ValuesCount;
  match?: never;
  range?: never;
  is_empty?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/**
 * Qdrant's field form of is_empty: `true` matches when some value at `key` is `null` or `[]`, or
 * there is none; `false` when some value is neither (and never when there is none).
 */
export interface FieldIsEmptyCondition {
  /** Payload path, as in {@link MatchCondition.key}. */
  key: string;
  is_empty: boolean;
  match?: never;
  range?: never;
  values_count?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/**
 * Qdrant's field form of is_null: `true` matches when some value at `key` is `null` or an array
 * holding `null`; `false` when some value is neither, or there is none. (Unlike
 * {@link IsNullCondition}, an array holding `null` counts.)
 */
export interface FieldIsNullCondition {
  /** Payload path, as in {@link MatchCondition.key}. */
  key: string;
  is_null: boolean;
  match?: never;
  range?: never;
  values_count?: never;
  is_empty?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/** A point on Earth: longitude in [-180, 180] and latitude in [-90, 90], in degrees. */
export interface GeoPoint {
  lon: number;
  lat: number;
}

/** A rectangle; it crosses the antimeridian when `top_left.lon` is east of `bottom_right.lon`. */
export interface GeoBoundingBox {
  top_left: GeoPoint;
  bottom_right: GeoPoint;
}

/** A circle: `radius` metres around `center` (haversine distance). */
export interface GeoRadius {
  center: GeoPoint;
  radius: number;
}

/** A closed line: at least 4 points, the last equal to the first. */
export interface GeoLineString {
  points: readonly GeoPoint[];
}

/** A polygon in (lon, lat) coordinates, with optional holes. */
export interface GeoPolygon {
  exterior: GeoLineString;
  interiors?: readonly GeoLineString[] | null;
}

/** Matches when a geo point at `key` lies strictly inside the box. */
export interface GeoBoundingBoxCondition {
  /** Payload path to `{ lon, lat }` objects (or arrays of them), as in {@link MatchCondition.key}. */
  key: string;
  /** The box. */
  geo_bounding_box: GeoBoundingBox;
  match?: never;
  range?: never;
  values_count?: never;
  is_empty?: never;
  is_null?: never;
  geo_radius?: never;
  geo_polygon?: never;
}

/** Matches when a geo point at `key` is less than `radius` metres from `center`. */
export interface GeoRadiusCondition {
  /** Payload path to `{ lon, lat }` objects (or arrays of them), as in {@link MatchCondition.key}. */
  key: string;
  /** The circle. */
  geo_radius: GeoRadius;
  match?: never;
  range?: never;
  values_count?: never;
  is_empty?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_polygon?: never;
}

/** Matches when a geo point at `key` lies strictly inside the polygon and outside its holes. */
export interface GeoPolygonCondition {
  /** Payload path to `{ lon, lat }` objects (or arrays of them), as in {@link MatchCondition.key}. */
  key: string;
  /** The polygon. */
  geo_polygon: GeoPolygon;
  match?: never;
  range?: never;
  values_count?: never;
  is_empty?: never;
  is_null?: never;
  geo_bounding_box?: never;
  geo_radius?: never;
}

/** The ways to match a value. */
export type Match =
  | MatchValue
  | MatchAny
  | MatchExcept
  | MatchText
  | MatchTextAny
  | MatchPhrase
  | MatchPrefix;

/** Exact equality with a string, an integer or a boolean. */
export interface MatchValue {
  /** The value to equal; integers only among numbers, as in Qdrant. */
  value: string | number | boolean;
  any?: never;
  except?: never;
  text?: never;
  text_any?: never;
  phrase?: never;
  prefix?: never;
}

/** Equal to one of the listed values (IN): all strings, or all integers. */
export interface MatchAny {
  /** Candidate values. An empty list matches nothing. */
  any: readonly string[] | readonly number[];
  value?: never;
  except?: never;
  text?: never;
  text_any?: never;
  phrase?: never;
  prefix?: never;
}

/** Not equal to any listed value (NOT IN); a missing field or `null` does not match. */
export interface MatchExcept {
  /** Excluded values: all strings, or all integers. */
  except: readonly string[] | readonly number[];
  value?: never;
  any?: never;
  text?: never;
  text_any?: never;
  phrase?: never;
  prefix?: never;
}

/**
 * Text match as Qdrant does it on a field without a full-text index (Tree Agent never creates one):
 * the string value contains `text`, case-sensitive. `""` matches every string.
 */
export interface MatchText {
  /** The substring to look for. */
  text: string;
  value?: never;
  any?: never;
  except?: never;
  text_any?: never;
  phrase?: never;
  prefix?: never;
}

/** A string value containing at least one of the whitespace-separated words of `text_any` (case-sensitive substrings). */
export interface MatchTextAny {
  /** Words separated by whitespace; none (empty or blank) matches nothing. */
  text_any: string;
  value?: never;
  any?: never;
  except?: never;
  text?: never;
  phrase?: never;
  prefix?: never;
}

/** A string value containing `phrase` (case-sensitive), as Qdrant does without a full-text index. */
export interface MatchPhrase {
  /** The substring to look for. */
  phrase: string;
  value?: never;
  any?: never;
  except?: never;
  text?: never;
  text_any?: never;
  prefix?: never;
}

/** A string value starting with `prefix` (case-sensitive). `""` matches every string. */
export interface MatchPrefix {
  /** The beginning to look for. */
  prefix: string;
  value?: never;
  any?: never;
  except?: never;
  text?: never;
  text_any?: never;
  phrase?: never;
}

/** Numeric bounds; omitted bounds are open. */
export interface Range {
  /** Greater than. */
  gt?: number | null;
  /** Greater than or equal. */
  gte?: number | null;
  /** Less than. */
  lt?: number | null;
  /** Less than or equal. */
  lte?: number | null;
}

/** Datetime bounds (RFC 3339 and Qdrant's shorter forms; UTC when no timezone). */
export interface DatetimeRange {
  /** After. */
  gt?: string | null;
  /** At or after. */
  gte?: string | null;
  /** Before. */
  lt?: string | null;
  /** At or before. */
  lte?: string | null;
}

/** Bounds on a number of values: non-negative integers. */
export interface ValuesCount {
  /** More than. */
  gt?: number | null;
  /** At least. */
  gte?: number | null;
  /** Fewer than. */
  lt?: number | null;
  /** At most. */
  lte?: number | null;
}

/** A payload path, as used by `is_empty` and `is_null`. */
export interface PayloadField {
  /** Payload path, as in {@link MatchCondition.key}. */
  key: string;
}

/** True when `key` is missing, or every value there is `null` or `[]`. */
export interface IsEmptyCondition {
  /** The field to test. */
  is_empty: PayloadField;
}

/** True when a value at `key` is `null` itself (`[null]` is an array, not null: write `key[]` to look inside); false when missing. */
export interface IsNullCondition {
  /** The field to test. */
  is_null: PayloadField;
}

/** True when the point id is one of these. Never matches inside a `nested` filter. */
export interface HasIdCondition {
  /** Point ids; UUID strings compare case-insensitively. */
  has_id: readonly PointId[];
}

/** True when some object of the array at `key` satisfies `filter` on its own. */
export interface NestedCondition {
  /** The array and the filter its elements are tested with. */
  nested: {
    /** Path to an array of objects (`a` and `a[]` are the same). */
    key: string;
    /** Filter whose keys are relative to each element. */
    filter: Filter;
  };
}

/** What a filter is evaluated on: a chunk's id and its `extra` payload. */
export interface FilterPoint {
  /** The point (chunk) id, for `has_id`. */
  id: PointId;
  /** The payload the keys are resolved in. */
  payload: Record<string, unknown>;
}

/** A compiled filter: true when the point passes. */
export type FilterPredicate = (point: FilterPoint) => boolean;
