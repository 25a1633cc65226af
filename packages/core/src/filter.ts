/**
 * `@treeagent/core/filter`: Qdrant's filter model as Tree Agent speaks it — the types of a filter
 * (query nodes' `filter`, `VectorStore.search`) and `validateFilter`, which checks one and names
 * what is wrong. The evaluator every store shares is in `@treeagent/core/adapter`.
 */

export { validateFilter } from './filter/validate-filter.js';
export type {
  Condition,
  Conditions,
  DatetimeRange,
  FieldCondition,
  FieldIsEmptyCondition,
  FieldIsNullCondition,
  Filter,
  GeoBoundingBox,
  GeoBoundingBoxCondition,
  GeoLineString,
  GeoPoint,
  GeoPolygon,
  GeoPolygonCondition,
  GeoRadius,
  GeoRadiusCondition,
  HasIdCondition,
  IsEmptyCondition,
  IsNullCondition,
  Match,
  MatchAny,
  MatchCondition,
  MatchExcept,
  MatchPhrase,
  MatchPrefix,
  MatchText,
  MatchTextAny,
  MatchValue,
  MinShould,
  NestedCondition,
  PayloadField,
  PointId,
  Range,
  RangeCondition,
  ValuesCount,
  ValuesCountCondition,
} from './protocol/filter.js';
