export { compileFilter, evaluateFilter } from './evaluate-filter.js';
export type {
  Condition,
  Conditions,
  DatetimeRange,
  FieldCondition,
  Filter,
  FilterPoint,
  FilterPredicate,
  HasIdCondition,
  IsEmptyCondition,
  IsNullCondition,
  Match,
  MatchAny,
  MatchCondition,
  MatchExcept,
  MatchText,
  MatchValue,
  MinShould,
  NestedCondition,
  PayloadField,
  PointId,
  Range,
  RangeCondition,
  ValuesCount,
  ValuesCountCondition,
} from './filter.js';
export { type PathStep, parsePath } from './json-path.js';
export { validateFilter } from './validate-filter.js';
