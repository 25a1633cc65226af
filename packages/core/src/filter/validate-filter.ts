import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Filter } from '../protocol/filter.js';
import { DATETIME_FORMATS, parseDateTime } from './datetime.js';
import { parsePath } from './json-path.js';

type Obj = Record<string, unknown>;

const FILTER_KEYS = ['must', 'should', 'must_not', 'min_should'];
const BOUND_KEYS = ['gt', 'gte', 'lt', 'lte'];
const MATCH_KEYS = ['value', 'any', 'except', 'text', 'text_any', 'phrase', 'prefix'];
const FIELD_OPS = [
  'match',
  'range',
  'values_count',
  'is_empty',
  'is_null',
  'geo_bounding_box',
  'geo_radius',
  'geo_polygon',
];
const UNSUPPORTED =
  "Tree Agent filters do not support Qdrant's geo, has_vector and slice conditions (docs/deployment.md lists the differences); store coordinates as numbers and use range";
const CONDITION_HELP =
  'one of: a field condition { key, match | range | values_count }, { is_empty: { key } }, ' +
  '{ is_null: { key } }, { has_id: [...] }, { nested: { key, filter } } or a nested filter { must | should | must_not | min_should }';

function fail(path: string, message: string): never {
  throw new TreeAgentError('FILTER', `${path}: ${message}`, { details: { path } });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function object(value: unknown, path: string, what: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, `expected ${what}, got ${describe(value)}`);
  }
  return value as Obj;
}

function onlyKeys(obj: Obj, allowed: readonly string[], path: string, what: string): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    let hint = '';
    if (key === 'filter')
      hint = '; Qdrant nests filters directly: write { must: [...] }, not { filter: { must: [...] } }';
    fail(`${path}.${key}`, `unknown key "${key}" in ${what}; allowed keys: ${allowed.join(', ')}${hint}`);
  }
}

function key(value: unknown, path: string): void {
  if (typeof value !== 'string') fail(path, `expected a payload key string, got ${describe(value)}`);
  const steps = parsePath(value);
  if (typeof steps === 'string') {
    fail(path, `invalid key: ${steps}; use a.b for nested objects and a[].b for arrays of objects`);
  }
}

function integer(value: unknown, path: string, min: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    fail(path, `expected an integer ≥ ${min}, got ${describe(value)}`);
  }
}

/**
 * Checks that `value` is a well-formed filter in Qdrant's REST JSON shape and returns it typed.
 * Throws a `TreeAgentError` with code `FILTER` whose message starts with the JSON path of the
 * first problem (e.g. `filter.must[1].match: ...`) and says how to fix it; `details.path` holds
 * that path. Unknown keys are errors.
 */
export function validateFilter(value: unknown, path = 'filter'): Filter {
  const filter = object(value, path, 'a filter object { must, should, must_not, min_should }');
  onlyKeys(filter, FILTER_KEYS, path, 'a filter');
  for (const clause of ['must', 'should', 'must_not']) clauseConditions(filter[clause], `${path}.${clause}`);
  if (filter.min_should != null) {
    const p = `${path}.min_should`;
    const min = object(filter.min_should, p, 'an object { conditions, min_count }');
    onlyKeys(min, ['conditions', 'min_count'], p, 'min_should');
    if (!Array.isArray(min.conditions)) fail(`${p}.conditions`, `expected an array of conditions`);
    for (const [i, c] of min.conditions.entries()) condition(c, `${p}.conditions[${i}]`);
    integer(min.min_count, `${p}.min_count`, 1);
  }
  return filter as Filter;
}

function clauseConditions(value: unknown, path: string): void {
  if (value == null) return;
  if (Array.isArray(value)) for (const [i, c] of value.entries()) condition(c, `${path}[${i}]`);
  else condition(value, path);
}

function condition(value: unknown, path: string): void {
  const c = object(value, path, `a condition, ${CONDITION_HELP},`);
  if ('key' in c) {
    fieldCondition(c, path);
    return;
  }
  if ('is_empty' in c || 'is_null' in c) {
    const op = 'is_empty' in c ? 'is_empty' : 'is_null';
    onlyKeys(c, [op], path, `an ${op} condition`);
    const field = object(c[op], `${path}.${op}`, `an object { key }`);
    onlyKeys(field, ['key'], `${path}.${op}`, op);
    key(field.key, `${path}.${op}.key`);
    return;
  }
  if ('has_id' in c) {
    onlyKeys(c, ['has_id'], path, 'a has_id condition');
    if (!Array.isArray(c.has_id))
      fail(`${path}.has_id`, `expected an array of point ids, got ${describe(c.has_id)}`);
    c.has_id.forEach((id, i) => {
      const ok = typeof id === 'string' ? id.length > 0 : Number.isSafeInteger(id) && (id as number) >= 0;
      if (!ok)
        fail(
          `${path}.has_id[${i}]`,
          `expected a point id (non-negative integer or string), got ${describe(id)}`,
        );
    });
    return;
  }
  if ('nested' in c) {
    onlyKeys(c, ['nested'], path, 'a nested condition');
    const nested = object(c.nested, `${path}.nested`, 'an object { key, filter }');
    onlyKeys(nested, ['key', 'filter'], `${path}.nested`, 'nested');
    key(nested.key, `${path}.nested.key`);
    validateFilter(nested.filter, `${path}.nested.filter`);
    return;
  }
  for (const unsupported of ['has_vector', 'slice']) {
    if (unsupported in c) fail(`${path}.${unsupported}`, `"${unsupported}" is not supported; ${UNSUPPORTED}`);
  }
  const keys = Object.keys(c);
  if (keys.every((k) => FILTER_KEYS.includes(k))) {
    validateFilter(c, path);
    return;
  }
  if (keys.includes('filter')) onlyKeys(c, FILTER_KEYS, path, 'a nested filter');
  fail(path, `unrecognised condition with keys ${keys.join(', ')}; expected ${CONDITION_HELP}`);
}

function fieldCondition(c: Obj, path: string): void {
  onlyKeys(c, ['key', ...FIELD_OPS], path, 'a field condition');
  key(c.key, `${path}.key`);
  const ops = FIELD_OPS.filter((op) => c[op] != null);
  if (ops.length !== 1) {
    const found = ops.length === 0 ? 'none' : ops.join(' and ');
    fail(path, `a field condition needs exactly one of ${FIELD_OPS.join(', ')} (found ${found})`);
  }
  if (c.match != null) match(c.match, `${path}.match`);
  else if (c.range != null) range(c.range, `${path}.range`);
  else if (c.geo_bounding_box != null) {
    const p = `${path}.geo_bounding_box`;
    const box = object(c.geo_bounding_box, p, 'an object { top_left, bottom_right }');
    onlyKeys(box, ['top_left', 'bottom_right'], p, 'geo_bounding_box');
    geoPoint(box.top_left, `${p}.top_left`);
    geoPoint(box.bottom_right, `${p}.bottom_right`);
  } else if (c.geo_radius != null) {
    const p = `${path}.geo_radius`;
    const circle = object(c.geo_radius, p, 'an object { center, radius }');
    onlyKeys(circle, ['center', 'radius'], p, 'geo_radius');
    geoPoint(circle.center, `${p}.center`);
    if (typeof circle.radius !== 'number' || !Number.isFinite(circle.radius)) {
      fail(`${p}.radius`, `expected a number of metres, got ${describe(circle.radius)}`);
    }
  } else if (c.geo_polygon != null) {
    const p = `${path}.geo_polygon`;
    const polygon = object(c.geo_polygon, p, 'an object { exterior, interiors }');
    onlyKeys(polygon, ['exterior', 'interiors'], p, 'geo_polygon');
    lineString(polygon.exterior, `${p}.exterior`);
    if (polygon.interiors != null) {
      if (!Array.isArray(polygon.interiors))
        fail(`${p}.interiors`, `expected an array of { points }, got ${describe(polygon.interiors)}`);
      for (const [i, ring] of polygon.interiors.entries()) lineString(ring, `${p}.interiors[${i}]`);
    }
  } else if (c.is_empty != null || c.is_null != null) {
    const op = c.is_empty != null ? 'is_empty' : 'is_null';
    if (typeof c[op] !== 'boolean') {
      fail(`${path}.${op}`, `expected true or false, got ${describe(c[op])}; or write { ${op}: { key } }`);
    }
  } else bounds(c.values_count, `${path}.values_count`, 'values_count', (v, p) => integer(v, p, 0));
}

function geoPoint(value: unknown, path: string): void {
  const point = object(value, path, 'a geo point { lon, lat }');
  onlyKeys(point, ['lon', 'lat'], path, 'a geo point');
  const ok = (v: unknown, limit: number) => typeof v === 'number' && v >= -limit && v <= limit;
  if (!ok(point.lon, 180) || !ok(point.lat, 90)) {
    fail(
      path,
      `expected lon in [-180, 180] and lat in [-90, 90], got lon ${describe(point.lon)}, lat ${describe(point.lat)}`,
    );
  }
}

/** A closed line of at least 4 points, as Qdrant requires of polygon rings. */
function lineString(value: unknown, path: string): void {
  const line = object(value, path, 'an object { points }');
  onlyKeys(line, ['points'], path, 'a polygon ring');
  if (!Array.isArray(line.points))
    fail(`${path}.points`, `expected an array of geo points, got ${describe(line.points)}`);
  for (const [i, point] of line.points.entries()) geoPoint(point, `${path}.points[${i}]`);
  if (line.points.length < 4)
    fail(`${path}.points`, `a polygon ring needs at least 4 points, got ${line.points.length}`);
  const first = line.points[0] as { lon: number; lat: number };
  const last = line.points.at(-1) as { lon: number; lat: number };
  if (Math.abs(first.lon - last.lon) > Number.EPSILON || Math.abs(first.lat - last.lat) > Number.EPSILON) {
    fail(`${path}.points`, 'a polygon ring must be closed: repeat the first point at the end');
  }
}

function match(value: unknown, path: string): void {
  const m = object(value, path, `an object with one of ${MATCH_KEYS.join(', ')}`);
  onlyKeys(m, MATCH_KEYS, path, 'match');
  const kinds = MATCH_KEYS.filter((k) => k in m);
  if (kinds.length !== 1) fail(path, `expected exactly one of ${MATCH_KEYS.join(', ')}`);
  const kind = kinds[0]!;
  const v = m[kind];
  const p = `${path}.${kind}`;
  if (['text', 'text_any', 'phrase', 'prefix'].includes(kind) && typeof v !== 'string') {
    fail(p, `expected a string, got ${describe(v)}`);
  }
  if (kind === 'value' && typeof v !== 'string' && typeof v !== 'boolean' && !Number.isSafeInteger(v)) {
    fail(p, `expected a string, an integer or a boolean, got ${describe(v)}; use range for decimals`);
  }
  if (kind === 'any' || kind === 'except') {
    if (!Array.isArray(v)) fail(p, `expected an array of strings or of integers, got ${describe(v)}`);
    const strings = typeof v[0] === 'string';
    v.forEach((x, i) => {
      if (strings ? typeof x === 'string' : Number.isSafeInteger(x)) return;
      const want =
        i === 0 ? 'a string or an integer' : `${strings ? 'a string' : 'an integer'} like the first element`;
      fail(`${p}[${i}]`, `expected ${want}, got ${describe(x)}`);
    });
  }
}

function range(value: unknown, path: string): void {
  const r = object(value, path, 'an object { gt, gte, lt, lte }');
  const given = BOUND_KEYS.filter((k) => r[k] != null);
  const dates = given.length > 0 && typeof r[given[0]!] === 'string';
  bounds(r, path, 'range', (v, p) => {
    if (dates) {
      if (typeof v !== 'string')
        fail(p, `expected a datetime string like the other bounds, got ${describe(v)}`);
      if (!parseDateTime(v)) fail(p, `invalid datetime ${JSON.stringify(v)}; use ${DATETIME_FORMATS}`);
    } else if (typeof v !== 'number' || !Number.isFinite(v)) {
      fail(p, `expected a finite number like the other bounds (or datetime strings), got ${describe(v)}`);
    }
  });
}

function bounds(value: unknown, path: string, what: string, check: (v: unknown, p: string) => void): void {
  const b = object(value, path, 'an object { gt, gte, lt, lte }');
  onlyKeys(b, BOUND_KEYS, path, what);
  for (const k of BOUND_KEYS) if (b[k] != null) check(b[k], `${path}.${k}`);
}
