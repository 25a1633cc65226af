import type {
  Condition,
  Conditions,
  DatetimeRange,
  Filter,
  FilterPoint,
  FilterPredicate,
  GeoBoundingBoxCondition,
  GeoPolygonCondition,
  GeoRadiusCondition,
  Match,
  PointId,
  Range,
  ValuesCount,
} from '../protocol/filter.js';
import { compareInstant, lastParsedNs, parseDateTime, parseDateTimeInto } from './datetime.js';
import { geoPointOf, inBoundingBox, inPolygon, inRadius } from './geo.js';
import { compilePath, HIT, NONE, type PathWalker, parsePath } from './json-path.js';
import { validateFilter } from './validate-filter.js';

/** Internal predicate: payload (or nested element) and point id (undefined inside `nested`). */
type Pred = (payload: unknown, id: PointId | undefined) => boolean;
type ValuePred = (value: unknown) => boolean;

const always: FilterPredicate = () => true;

/**
 * Compiles a filter once into a fast predicate over points; use it to test many chunks.
 * Validates the filter first (throws `TreeAgentError` code `FILTER` when malformed). A null,
 * undefined or empty filter yields a predicate that accepts everything.
 */
export function compileFilter(filter: Filter | null | undefined): FilterPredicate {
  if (filter == null) return always;
  const pred = compile(validateFilter(filter));
  return (point) => pred(point.payload ?? {}, point.id);
}

/** Evaluates a filter on one point. Compiles each call: prefer {@link compileFilter} in loops. */
export function evaluateFilter(filter: Filter | null | undefined, point: FilterPoint): boolean {
  return compileFilter(filter)(point);
}

function list(conditions: Conditions | null | undefined): Pred[] {
  if (conditions == null) return [];
  return (Array.isArray(conditions) ? conditions : [conditions as Condition]).map(condition);
}

function compile(filter: Filter): Pred {
  const must = list(filter.must);
  const mustNot = list(filter.must_not);
  const should = list(filter.should);
  const minConditions = filter.min_should ? list(filter.min_should.conditions) : undefined;
  const minCount = filter.min_should?.min_count ?? 0;
  if (!must.length && !mustNot.length && !should.length && !minConditions) return () => true;
  return (payload, id) => {
    for (const c of must) if (!c(payload, id)) return false;
    for (const c of mustNot) if (c(payload, id)) return false;
    if (should.length > 0) {
      let passed = false;
      for (const c of should) {
        if (c(payload, id)) {
          passed = true;
          break;
        }
      }
      if (!passed) return false;
    }
    if (minConditions) {
      let count = 0;
      for (const c of minConditions) if (c(payload, id) && ++count >= minCount) break;
      if (count < minCount) return false;
    }
    return true;
  };
}

function walker(key: string): PathWalker {
  const steps = parsePath(key);
  if (typeof steps === 'string') throw new Error(`unreachable: ${steps}`);
  return compilePath(steps);
}

function condition(c: Condition): Pred {
  if ('key' in c) {
    const walk = walker(c.key);
    if (c.values_count != null) return valuesCount(walk, c.values_count);
    if (c.is_empty != null) return fieldForm(walk, c.is_empty, isEmptyValue);
    if (c.is_null != null) return fieldForm(walk, c.is_null, isNullValue);
    const test = c.match != null ? match(c.match) : c.range != null ? range(c.range) : geo(c);
    // Like Qdrant, an array value is tested element by element (one level).
    const visit = (v: unknown) => (Array.isArray(v) ? v.some(test) : test(v));
    return (payload) => walk(payload, visit) === HIT;
  }
  if ('is_empty' in c) {
    const walk = walker(c.is_empty.key);
    const notEmpty = (v: unknown) => v !== null && !(Array.isArray(v) && v.length === 0);
    return (payload) => walk(payload, notEmpty) !== HIT;
  }
  if ('is_null' in c) {
    const walk = walker(c.is_null.key);
    // Qdrant (query_checker.rs, check_is_null): a value that is null itself; `[null]` is an array, not null.
    const isNull = (v: unknown) => v === null;
    return (payload) => walk(payload, isNull) === HIT;
  }
  if ('has_id' in c) {
    const ids = new Set<PointId>(c.has_id.map(normalizeId));
    return (_payload, id) => id !== undefined && (ids.has(id) || ids.has(normalizeId(id)));
  }
  if ('nested' in c) {
    const key = c.nested.key.endsWith('[]') ? c.nested.key : `${c.nested.key}[]`;
    const walk = walker(key);
    const inner = compile(c.nested.filter);
    const visit = (v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && inner(v, undefined);
    return (payload) => walk(payload, visit) === HIT;
  }
  return compile(c);
}

const uuid = /^\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/** UUID strings in any of their spellings compare equal, as Qdrant parses them. */
function normalizeId(id: PointId): PointId {
  if (typeof id !== 'string') return id;
  const m = uuid.exec(id);
  return m ? m.slice(1).join('-').toLowerCase() : id;
}

function match(m: Match): ValuePred {
  if (m.value !== undefined) {
    const value = m.value;
    return (v) => v === value;
  }
  if (m.any !== undefined) {
    const set = new Set<unknown>(m.any);
    return (v) => set.has(v);
  }
  if (m.except !== undefined) {
    const set = new Set<unknown>(m.except);
    return (v) => v !== null && !set.has(v);
  }
  // Qdrant without a full-text index (condition_checker.rs): case-sensitive substring and prefix tests.
  if (m.text !== undefined || m.phrase !== undefined) {
    const text = (m.text ?? m.phrase)!;
    return (v) => typeof v === 'string' && v.includes(text);
  }
  if (m.prefix !== undefined) {
    const prefix = m.prefix;
    return (v) => typeof v === 'string' && v.startsWith(prefix);
  }
  const tokens = whitespaceWords(m.text_any!);
  return (v) => typeof v === 'string' && tokens.some((t) => v.includes(t));
}

/** Unicode whitespace, as Rust's `str::split_whitespace` splits on (the `White_Space` property). */
const whitespace = /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** The words of `text_any`: split on whitespace, empty pieces dropped. */
export function whitespaceWords(text: string): string[] {
  return text.split(whitespace).filter((w) => w.length > 0);
}

/** A geo condition's test of one value (a `{ lon, lat }` object). */
function geo(c: GeoBoundingBoxCondition | GeoRadiusCondition | GeoPolygonCondition): ValuePred {
  const inside =
    c.geo_bounding_box != null
      ? (lon: number, lat: number) => inBoundingBox(c.geo_bounding_box!, lon, lat)
      : c.geo_radius != null
        ? (lon: number, lat: number) => inRadius(c.geo_radius!, lon, lat)
        : (lon: number, lat: number) => inPolygon(c.geo_polygon!, lon, lat);
  return (v) => {
    const point = geoPointOf(v);
    return point !== undefined && inside(point.lon, point.lat);
  };
}

function range(r: Range | DatetimeRange): ValuePred {
  const bounds = [r.gt, r.gte, r.lt, r.lte];
  if (!bounds.some((b) => typeof b === 'string')) return numberRange(r as Range);
  const [gt, gte, lt, lte] = bounds.map((b) => (typeof b === 'string' ? parseDateTime(b) : undefined));
  return (v) => {
    if (typeof v !== 'string') return false;
    const ms = parseDateTimeInto(v);
    if (ms === undefined) return false;
    const ns = lastParsedNs();
    return (
      (gt === undefined || compareInstant(ms, ns, gt) > 0) &&
      (gte === undefined || compareInstant(ms, ns, gte) >= 0) &&
      (lt === undefined || compareInstant(ms, ns, lt) < 0) &&
      (lte === undefined || compareInstant(ms, ns, lte) <= 0)
    );
  };
}

function numberRange(r: Range | ValuesCount): (v: unknown) => boolean {
  const gt = r.gt ?? undefined;
  const gte = r.gte ?? undefined;
  const lt = r.lt ?? undefined;
  const lte = r.lte ?? undefined;
  return (v) =>
    typeof v === 'number' &&
    (gt === undefined || v > gt) &&
    (gte === undefined || v >= gte) &&
    (lt === undefined || v < lt) &&
    (lte === undefined || v <= lte);
}

const isEmptyValue = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
const isNullValue = (v: unknown) => v === null || (Array.isArray(v) && v.includes(null));

/**
 * Qdrant's field forms `{ key, is_empty: b }` / `{ key, is_null: b }` (condition_checker.rs): some
 * value at `key` has the property (`b` true) or lacks it (`b` false); with no value at all, `is_empty`
 * yields `b` and `is_null` yields `!b`.
 */
function fieldForm(walk: PathWalker, wanted: boolean, has: (v: unknown) => boolean): Pred {
  const visit = (v: unknown) => has(v) === wanted;
  const whenMissing = has === isEmptyValue ? wanted : !wanted;
  return (payload) => {
    const r = walk(payload, visit);
    return r === HIT || (r === NONE && whenMissing);
  };
}

/** Counts per value: array length, 0 for null, 1 for a scalar; a missing key counts 0. */
function valuesCount(walk: PathWalker, bounds: ValuesCount): Pred {
  const inRange = numberRange(bounds);
  const visit = (v: unknown) => inRange(v === null ? 0 : Array.isArray(v) ? v.length : 1);
  const emptyMatches = inRange(0);
  return (payload) => {
    const r = walk(payload, visit);
    return r === HIT || (r === NONE && emptyMatches);
  };
}
