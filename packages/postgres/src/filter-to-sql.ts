import { TreeAgentError } from '@treeagent/core';
import {
  EARTH_RADIUS_METERS,
  type PathStep,
  parsePath,
  toRadians,
  whitespaceWords,
} from '@treeagent/core/adapter';
import {
  type Condition,
  type Conditions,
  type DatetimeRange,
  type Filter,
  type GeoBoundingBoxCondition,
  type GeoLineString,
  type GeoPolygonCondition,
  type GeoRadiusCondition,
  type Match,
  type PointId,
  type Range,
  type ValuesCount,
  validateFilter,
} from '@treeagent/core/filter';

/**
 * Translates Tree Agent's Qdrant-style filters (docs/concepts.md §6) into one SQL boolean expression over a
 * jsonb payload column, selecting exactly what the shared evaluator (`compileFilter` in
 * `@treeagent/core`) selects. Every value of the filter (keys, match values, bounds, ids) travels
 * as a bound parameter; the SQL text holds only the generated structure.
 *
 * Semantics reproduced (see `evaluate-filter.ts` and `json-path.ts` in core):
 * - a path `a.b` descends only into objects, `a[]` into every element of an array, `a[2]` into one
 *   element; a missing key yields no value, an explicit `null` is a value;
 * - `match` and `range` test each value the path reaches, and an array value element by element
 *   (one level);
 * - `is_empty`, `is_null`, `values_count` look at the values themselves (no unwrapping), and
 *   `values_count` counts a path that reaches nothing as 0;
 * - `has_id` compares the point id (UUID strings in any spelling are equal) and never matches
 *   inside `nested`; `nested` tests each object of the array on its own.
 */

/** Options of {@link filterToSql}. */
export interface FilterSqlOptions {
  /** SQL expression of the jsonb payload, e.g. `v.payload`. */
  payload: string;
  /**
   * SQL expressions of the point id: `text` its text form (`String(id)`), `kind` 0 for a numeric
   * id and 1 for a string id. Without them `has_id` never matches.
   */
  id?: { text: string; kind: string };
  /**
   * Parameters the statement already binds: the filter's values are appended to this array (which
   * is modified) and its placeholders continue after them. Default: a new array.
   */
  params?: unknown[];
}

/** An SQL boolean expression and the parameters it binds (`$1`… in order). */
export interface FilterSql {
  sql: string;
  params: unknown[];
}

/** Compiles `filter` into an SQL boolean expression that is never NULL. An absent or empty filter is `TRUE`. */
export function filterToSql(filter: Filter | null | undefined, options: FilterSqlOptions): FilterSql {
  const params = options.params ?? [];
  if (filter == null) return { sql: 'TRUE', params };
  const translator = new Translator(params, options);
  return { sql: translator.filter(validateFilter(filter), options.payload, true), params };
}

/** The shape of the datetimes the evaluator parses (`datetime.ts` in core), without captures. */
const DATETIME_SHAPE =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]{1,9})?)?(?:[Zz]|[+-][0-9]{2}:?[0-9]{2})?)?$';
const UUID_PATTERN =
  '^[{]?([0-9a-fA-F]{8})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{12})[}]?$';
const uuid = /^\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;
const MAX_INT4 = 2_147_483_647;

class Translator {
  readonly #params: unknown[];
  readonly #slots = new Map<string, string>();
  readonly #id: FilterSqlOptions['id'];
  #alias = 0;

  constructor(params: unknown[], options: FilterSqlOptions) {
    this.#params = params;
    this.#id = options.id;
  }

  /** A placeholder for `value` cast to `type`; equal values of one type share a placeholder. */
  #param(value: unknown, type: string): string {
    const key = `${type}\u0000${JSON.stringify(value)}`;
    let slot = this.#slots.get(key);
    if (!slot) {
      this.#params.push(value);
      slot = `$${this.#params.length}::${type}`;
      this.#slots.set(key, slot);
    }
    return slot;
  }

  #json(value: unknown): string {
    return this.#param(JSON.stringify(value), 'jsonb');
  }

  /** `payload` the jsonb the keys resolve in; `topLevel` false inside `nested` (no point id there). */
  filter(filter: Filter, payload: string, topLevel: boolean): string {
    const must = this.#list(filter.must, payload, topLevel);
    const mustNot = this.#list(filter.must_not, payload, topLevel);
    const should = this.#list(filter.should, payload, topLevel);
    const parts = [...must, ...mustNot.map((c) => `NOT ${c}`)];
    if (should.length > 0) parts.push(`(${should.join(' OR ')})`);
    if (filter.min_should) {
      const candidates = filter.min_should.conditions.map((c) => this.#condition(c, payload, topLevel));
      const count = candidates.length
        ? candidates.map((c) => `(CASE WHEN ${c} THEN 1 ELSE 0 END)`).join(' + ')
        : '0';
      parts.push(`((${count}) >= ${this.#param(filter.min_should.min_count, 'int')})`);
    }
    return parts.length === 0 ? 'TRUE' : `(${parts.join(' AND ')})`;
  }

  #list(conditions: Conditions | null | undefined, payload: string, topLevel: boolean): string[] {
    if (conditions == null) return [];
    const list = Array.isArray(conditions) ? conditions : [conditions as Condition];
    return list.map((c: Condition) => this.#condition(c, payload, topLevel));
  }

  /** One condition, wrapped so that it is never NULL. */
  #condition(c: Condition, payload: string, topLevel: boolean): string {
    return `COALESCE(${this.#conditionBody(c, payload, topLevel)}, FALSE)`;
  }

  #conditionBody(c: Condition, payload: string, topLevel: boolean): string {
    if ('key' in c) {
      const steps = stepsOf(c.key);
      if (c.values_count != null) return this.#valuesCount(steps, payload, c.values_count);
      if (c.is_empty != null || c.is_null != null)
        return this.#fieldForm(steps, payload, c.is_empty, c.is_null);
      const test =
        c.match != null ? this.#match(c.match) : c.range != null ? this.#range(c.range) : this.#geo(c);
      // Like Qdrant, an array value is tested element by element (one level).
      return this.#walk(steps, payload, (v) => {
        const e = this.#nextAlias();
        return `(CASE WHEN jsonb_typeof(${v}) = 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${v}) AS ${e}(v) WHERE ${test(`${e}.v`)}) ELSE ${test(v)} END)`;
      });
    }
    if ('is_empty' in c) {
      const notEmpty = (v: string) => `(jsonb_typeof(${v}) <> 'null' AND ${v} <> '[]'::jsonb)`;
      return `NOT ${this.#walk(stepsOf(c.is_empty.key), payload, notEmpty)}`;
    }
    if ('is_null' in c) {
      return this.#walk(stepsOf(c.is_null.key), payload, (v) => `(jsonb_typeof(${v}) = 'null')`);
    }
    if ('has_id' in c) return topLevel ? this.#hasId(c.has_id) : 'FALSE';
    if ('nested' in c) {
      const key = c.nested.key.endsWith('[]') ? c.nested.key : `${c.nested.key}[]`;
      return this.#walk(
        stepsOf(key),
        payload,
        (v) => `(jsonb_typeof(${v}) = 'object' AND ${this.filter(c.nested.filter, v, false)})`,
      );
    }
    return this.filter(c, payload, topLevel);
  }

  #nextAlias(): string {
    this.#alias += 1;
    return `tf${this.#alias}`;
  }

  /**
   * True when some value the path reaches from `node` satisfies `visit` (the walk's HIT). `visit`
   * receives a non-NULL jsonb expression and must return a non-NULL boolean.
   */
  #walk(steps: readonly PathStep[], node: string, visit: (value: string) => string, from = 0): string {
    if (from === steps.length) return `(${node} IS NOT NULL AND ${visit(node)})`;
    const step = steps[from]!;
    switch (step.kind) {
      case 'key':
        // `->` with a text key yields NULL unless `node` is an object holding the key.
        return this.#walk(steps, `(${node} -> ${this.#param(step.key, 'text')})`, visit, from + 1);
      case 'index': {
        // A scalar behaves as a one-element array under `->` with an integer: check the type. No
        // array is that long; the expression still names `node`, whose parameters must be used.
        const element =
          step.index > MAX_INT4
            ? `(CASE WHEN FALSE THEN ${node} END)`
            : `(CASE WHEN jsonb_typeof(${node}) = 'array' THEN ${node} -> ${this.#param(step.index, 'int')} END)`;
        return this.#walk(steps, element, visit, from + 1);
      }
      case 'each': {
        const e = this.#nextAlias();
        const inner = this.#walk(steps, `${e}.v`, visit, from + 1);
        return `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${node}) = 'array' THEN ${node} END) AS ${e}(v) WHERE ${inner})`;
      }
    }
  }

  // Placeholders are made when the SQL that uses them is (a path that can reach nothing never
  // calls its test): PostgreSQL refuses parameters that the statement does not use.
  #match(m: Match): (v: string) => string {
    if (m.value !== undefined) {
      const value = m.value;
      return (v) => `(${v} = ${this.#json(value)})`;
    }
    if (m.any !== undefined) {
      const set = m.any.map((x: string | number) => JSON.stringify(x));
      return (v) => `(${v} = ANY (${this.#param(set, 'jsonb[]')}))`;
    }
    if (m.except !== undefined) {
      const set = m.except.map((x: string | number) => JSON.stringify(x));
      return (v) => `(jsonb_typeof(${v}) <> 'null' AND NOT (${v} = ANY (${this.#param(set, 'jsonb[]')})))`;
    }
    // Qdrant without a full-text index: case-sensitive substring (`strpos`, exact code points) and prefix tests.
    const string = (v: string, test: (s: string) => string) =>
      `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${test(`(${v} #>> '{}')`)} ELSE FALSE END)`;
    if (m.text !== undefined || m.phrase !== undefined) {
      const text = (m.text ?? m.phrase)!;
      return (v) => string(v, (s) => `strpos(${s}, ${this.#param(text, 'text')}) > 0`);
    }
    if (m.prefix !== undefined) {
      const prefix = m.prefix;
      return (v) => string(v, (s) => `starts_with(${s}, ${this.#param(prefix, 'text')})`);
    }
    const tokens = whitespaceWords(m.text_any!);
    if (tokens.length === 0) return () => 'FALSE';
    return (v) =>
      string(
        v,
        (s) =>
          `EXISTS (SELECT 1 FROM unnest(${this.#param(tokens, 'text[]')}) AS w(t) WHERE strpos(${s}, w.t) > 0)`,
      );
  }

  /**
   * A geo condition on one value (`{ lon, lat }` with numeric coordinates), with the evaluator's
   * arithmetic (`geo.ts` in core) in the same order, so both round alike.
   */
  #geo(c: GeoBoundingBoxCondition | GeoRadiusCondition | GeoPolygonCondition): (v: string) => string {
    const f = (value: number) => this.#param(value, 'float8');
    let test: () => string;
    if (c.geo_bounding_box != null) {
      const { top_left: tl, bottom_right: br } = c.geo_bounding_box;
      test = () => {
        const lon =
          tl.lon > br.lon
            ? `(x > ${f(tl.lon)} OR x < ${f(br.lon)})`
            : `(${f(tl.lon)} < x AND x < ${f(br.lon)})`;
        return `(${lon} AND ${f(br.lat)} < y AND y < ${f(tl.lat)})`;
      };
    } else if (c.geo_radius != null) {
      const { center, radius } = c.geo_radius;
      test = () => {
        const k = f(Math.PI / 180);
        const dTheta = `sin(((y - ${f(center.lat)}) * ${k}) / 2)`;
        const dLambda = `sin(((x - ${f(center.lon)}) * ${k}) / 2)`;
        const a = `(SELECT st * st + ${f(Math.cos(toRadians(center.lat)))} * cos(y * ${k}) * (sl * sl) FROM (SELECT ${dTheta} AS st, ${dLambda} AS sl) AS h)`;
        return `(${f(EARTH_RADIUS_METERS)} * (2 * asin(sqrt(${a}))) < ${f(radius)})`;
      };
    } else {
      const { exterior, interiors } = c.geo_polygon!;
      test = () =>
        [
          `${this.#ringSide(exterior)} = 1`,
          ...(interiors ?? []).map((ring) => `${this.#ringSide(ring)} = -1`),
        ].join(' AND ');
    }
    return (v) =>
      `(CASE WHEN jsonb_typeof(${v}) = 'object' AND jsonb_typeof(${v} -> 'lon') = 'number' AND jsonb_typeof(${v} -> 'lat') = 'number' THEN (SELECT ${test()} FROM (SELECT (${v} ->> 'lon')::float8 AS x, (${v} ->> 'lat')::float8 AS y) AS pt) ELSE FALSE END)`;
  }

  /** 1 when (x, y) is inside the closed ring, 0 on an edge, -1 outside (even-odd rule), as `ringSide` in core. */
  #ringSide(ring: GeoLineString): string {
    const p = ring.points;
    const column = (values: number[]) => this.#param(values, 'float8[]');
    const ax = column(p.slice(0, -1).map((q) => q.lon));
    const ay = column(p.slice(0, -1).map((q) => q.lat));
    const bx = column(p.slice(1).map((q) => q.lon));
    const by = column(p.slice(1).map((q) => q.lat));
    const onEdge = `cr = 0 AND least(e1x, e2x) <= x AND x <= greatest(e1x, e2x) AND least(e1y, e2y) <= y AND y <= greatest(e1y, e2y)`;
    const crosses = `CASE WHEN (e1y > y) <> (e2y > y) THEN x < ((e2x - e1x) * (y - e1y)) / (e2y - e1y) + e1x ELSE FALSE END`;
    return `(SELECT CASE WHEN bool_or(${onEdge}) THEN 0 WHEN count(*) FILTER (WHERE ${crosses}) % 2 = 1 THEN 1 ELSE -1 END FROM (SELECT e1x, e1y, e2x, e2y, (e2x - e1x) * (y - e1y) - (e2y - e1y) * (x - e1x) AS cr FROM unnest(${ax}, ${ay}, ${bx}, ${by}) AS e(e1x, e1y, e2x, e2y)) AS edges)`;
  }

  #range(r: Range | DatetimeRange): (v: string) => string {
    const bounds = [r.gt, r.gte, r.lt, r.lte];
    const ops = ['>', '>=', '<', '<='];
    if (!bounds.some((b) => typeof b === 'string')) {
      // jsonb compares numbers numerically; the type check keeps strings and booleans out.
      return (v) => {
        const checks = bounds.flatMap((b, i) => (b == null ? [] : [` AND ${v} ${ops[i]} ${this.#json(b)}`]));
        return `(jsonb_typeof(${v}) = 'number'${checks.join('')})`;
      };
    }
    const instants = bounds.map((b) => (typeof b === 'string' ? instantNs(b) : null));
    return (v) => {
      const limits = instants.flatMap((ns, i) =>
        ns === null ? [] : [`ns ${ops[i]} ${this.#param(ns, 'numeric')}`],
      );
      return `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${this.#datetime(`${v} #>> '{}'`, limits)} ELSE FALSE END)`;
    };
  }

  /**
   * True when `text` is a datetime in one of Qdrant's formats (the evaluator's `parseDateTime`)
   * whose instant, in nanoseconds since the epoch, satisfies every `limits` comparison on `ns`.
   * The shape is checked by one regex without captures (capturing regexes are slow in
   * PostgreSQL); the fields are then read by position, the fraction and the zone by two small ones.
   */
  #datetime(text: string, limits: readonly string[]): string {
    const shape = this.#param(DATETIME_SHAPE, 'text');
    const fraction = this.#param('[.]([0-9]+)', 'text');
    const zone = this.#param('([Zz]|[+-][0-9]{2}:?[0-9]{2})$', 'text');
    const raw = `SELECT s, (CASE WHEN length(s) > 10 THEN substring(s FROM ${zone}) END) AS zone, substring(s FROM ${fraction}) AS frac
      FROM (SELECT ${text} AS s OFFSET 0) AS t0 OFFSET 0`;
    const fields = `SELECT substr(s, 1, 4)::int AS y, substr(s, 6, 2)::int AS mo, substr(s, 9, 2)::int AS d,
        (CASE WHEN length(s) > 10 THEN substr(s, 12, 2)::int ELSE 0 END) AS h,
        (CASE WHEN length(s) > 10 THEN substr(s, 15, 2)::int ELSE 0 END) AS mi,
        (CASE WHEN substr(s, 17, 1) = ':' THEN substr(s, 18, 2)::int ELSE 0 END) AS sec,
        COALESCE(rpad(frac, 9, '0')::numeric, 0) AS frac,
        (CASE left(zone, 1) WHEN '+' THEN 1 WHEN '-' THEN -1 ELSE 0 END) AS sign,
        (CASE WHEN left(zone, 1) IN ('+', '-') THEN substr(zone, 2, 2)::int ELSE 0 END) AS oh,
        (CASE WHEN left(zone, 1) IN ('+', '-') THEN right(zone, 2)::int ELSE 0 END) AS om
      FROM (${raw}) AS t1 OFFSET 0`;
    const leap = '(y % 4 = 0 AND (y % 100 <> 0 OR y % 400 = 0))';
    const monthDays = `(CASE WHEN mo = 2 AND ${leap} THEN 29 ELSE (ARRAY[31,28,31,30,31,30,31,31,30,31,30,31])[mo] END)`;
    const valid = `mo BETWEEN 1 AND 12 AND d BETWEEN 1 AND ${monthDays} AND h <= 23 AND mi <= 59 AND sec <= 59 AND oh <= 23 AND om <= 59`;
    // JavaScript's Date.UTC maps years below 100 to 19xx, so the evaluator reads 0000-02-29 (valid:
    // year 0 is a leap year, 1900 is not) as 0000-03-01; do the same.
    const shifted = '(y = 0 AND mo = 2 AND d = 29)';
    const em = `(CASE WHEN ${shifted} THEN 3 ELSE mo END)`;
    const ed = `(CASE WHEN ${shifted} THEN 1 ELSE d END)`;
    // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil),
    // shifted by one 400-year era so that integer division never sees a negative year.
    const yy = `(y + 400 - (CASE WHEN ${em} <= 2 THEN 1 ELSE 0 END))`;
    const era = `(${yy} / 400)`;
    const yoe = `(${yy} - ${era} * 400)`;
    const doy = `((153 * (${em} + (CASE WHEN ${em} > 2 THEN -3 ELSE 9 END)) + 2) / 5 + ${ed} - 1)`;
    const doe = `(${yoe} * 365 + ${yoe} / 4 - ${yoe} / 100 + ${doy})`;
    const days = `(${era}::numeric * 146097 + ${doe} - 719468 - 146097)`;
    const seconds = `(${days} * 86400 + h * 3600 + mi * 60 + sec - sign * (oh * 3600 + om * 60))`;
    const ns = `(${seconds} * 1000000000 + frac)`;
    const test = limits.length ? limits.join(' AND ') : 'TRUE';
    // OFFSET 0 keeps the planner from inlining each level into every use of its columns.
    const parsed = `(SELECT CASE WHEN ${valid} THEN (SELECT ${test} FROM (SELECT ${ns} AS ns OFFSET 0) AS t3) ELSE FALSE END FROM (${fields}) AS t2)`;
    return `(CASE WHEN ${text} ~ ${shape} THEN COALESCE(${parsed}, FALSE) ELSE FALSE END)`;
  }

  #valuesCount(steps: readonly PathStep[], payload: string, bounds: ValuesCount): string {
    const ops: [keyof ValuesCount, string][] = [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ];
    const given = ops.filter(([k]) => bounds[k] != null);
    const inRange = (count: string) =>
      given.length
        ? given.map(([k, op]) => `${count} ${op} ${this.#param(bounds[k], 'int')}`).join(' AND ')
        : 'TRUE';
    const count = (v: string) =>
      `(CASE jsonb_typeof(${v}) WHEN 'null' THEN 0 WHEN 'array' THEN jsonb_array_length(${v}) ELSE 1 END)`;
    const hit = this.#walk(steps, payload, (v) => `(${inRange(count(v))})`);
    // A path that reaches no value counts 0.
    const emptyMatches = given.every(([k, op]) => compare(0, op, bounds[k]!));
    if (!emptyMatches) return hit;
    return `(${hit} OR NOT ${this.#walk(steps, payload, () => 'TRUE')})`;
  }

  /**
   * Qdrant's field forms `{ key, is_empty: b }` / `{ key, is_null: b }`: some value has the property
   * (or lacks it, `b` false); with no value, `is_empty` yields `b` and `is_null` yields `!b`.
   */
  #fieldForm(steps: readonly PathStep[], payload: string, isEmpty?: boolean, isNull?: boolean): string {
    const wanted = (isEmpty ?? isNull)!;
    const has =
      isEmpty !== undefined
        ? (v: string) => `(jsonb_typeof(${v}) = 'null' OR ${v} = '[]'::jsonb)`
        : (v: string) => {
            const e = this.#nextAlias();
            return `(CASE jsonb_typeof(${v}) WHEN 'null' THEN TRUE WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${v}) AS ${e}(v) WHERE jsonb_typeof(${e}.v) = 'null') ELSE FALSE END)`;
          };
    const hit = this.#walk(steps, payload, (v) => (wanted ? has(v) : `NOT ${has(v)}`));
    const whenMissing = isEmpty !== undefined ? wanted : !wanted;
    return whenMissing ? `(${hit} OR NOT ${this.#walk(steps, payload, () => 'TRUE')})` : hit;
  }

  #hasId(ids: readonly PointId[]): string {
    if (!this.#id) return 'FALSE';
    const numbers = ids.filter((id) => typeof id === 'number').map(String);
    const strings = ids.filter((id): id is string => typeof id === 'string').map(normalizeId);
    const { text, kind } = this.#id;
    const parts: string[] = [];
    if (numbers.length) parts.push(`(${kind} = 0 AND ${text} = ANY (${this.#param(numbers, 'text[]')}))`);
    if (strings.length) {
      const re = this.#param(UUID_PATTERN, 'text');
      const normalized = `(CASE WHEN ${text} ~ ${re} THEN lower(regexp_replace(${text}, ${re}, ${this.#param('\\1-\\2-\\3-\\4-\\5', 'text')}) COLLATE "C") ELSE ${text} END)`;
      parts.push(`(${kind} = 1 AND ${normalized} = ANY (${this.#param(strings, 'text[]')}))`);
    }
    return parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
  }
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    default:
      return a <= b;
  }
}

/** The steps of a payload key (the filter was validated, so it parses). */
function stepsOf(path: string): PathStep[] {
  const steps = parsePath(path);
  if (typeof steps === 'string') throw new TreeAgentError('FILTER', `invalid key "${path}": ${steps}`);
  return steps;
}

/** UUID strings in any of their spellings compare equal, as Qdrant parses them. */
export function normalizeId(id: string): string {
  const m = uuid.exec(id);
  return m ? m.slice(1).join('-').toLowerCase() : id;
}

/** Nanoseconds since the epoch of a validated datetime bound, as an exact decimal string. */
function instantNs(text: string): string {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/.exec(
      text,
    );
  if (!m) throw new TreeAgentError('FILTER', `invalid datetime ${JSON.stringify(text)}`);
  let ms = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
  );
  if (Number(m[1]) < 100) ms = new Date(ms).setUTCFullYear(Number(m[1]));
  if (m[9] !== undefined) {
    const offset = (Number(m[10]) * 60 + Number(m[11])) * 60_000;
    ms += m[9] === '+' ? -offset : offset;
  }
  return (BigInt(ms) * 1_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'))).toString();
}
