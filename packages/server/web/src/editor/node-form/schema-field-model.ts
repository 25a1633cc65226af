import type { EditorProblem } from '../../../../src/api-types';

/** A fragment of the tree document's JSON schema (one property's rules). */
export type FieldSchema = Record<string, unknown>;

/**
 * How a schema-driven field edits a value: a text input, a number input, a checkbox, a select, one
 * string per line, its own sub-fields (an object whose properties the schema lists), or JSON text.
 */
export type FieldKind = 'text' | 'number' | 'boolean' | 'enum' | 'list' | 'object' | 'json';

/** Why a typed value was refused before it reached the document (the check reports the rest). */
export type FieldError =
  | { error: 'notNumber' }
  | { error: 'notInteger' }
  | { error: 'notJson' | 'notJsonList'; detail: string }
  | { error: 'notObject' }
  | { error: 'notArray' };

/** `schema` with a `$ref` into `root.$defs` followed. */
export function resolveSchema(schema: FieldSchema, root: { $defs?: Record<string, unknown> }): FieldSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  return (root.$defs?.[ref.slice('#/$defs/'.length)] ?? {}) as FieldSchema;
}

/** The JSON types a schema allows, `null` left out (a blank field removes the property). */
export function typesOf(schema: FieldSchema): string[] {
  const type = schema.type;
  const list = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  return list.filter((name) => name !== 'null');
}

/** The alternatives of a `oneOf` / `anyOf`, or none. */
const alternativesOf = (schema: FieldSchema): FieldSchema[] =>
  (Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : []) as FieldSchema[];

/**
 * The field a value of `schema` is edited with. A choice (`oneOf`) that allows a string is a text
 * field while the value is a string (or absent), JSON otherwise (a text per language, an object).
 */
export function kindOf(
  schema: FieldSchema,
  value: unknown,
  root: { $defs?: Record<string, unknown> },
): FieldKind {
  const resolved = resolveSchema(schema, root);
  if (Array.isArray(resolved.enum)) return 'enum';
  const alternatives = alternativesOf(resolved);
  if (alternatives.length) {
    const allowsText = alternatives.some((alternative) =>
      typesOf(resolveSchema(alternative, root)).includes('string'),
    );
    return allowsText && (value === undefined || typeof value === 'string') ? 'text' : 'json';
  }
  const types = typesOf(resolved);
  if (types.length === 1 && types[0] === 'boolean') return 'boolean';
  if (types.length && types.every((type) => type === 'number' || type === 'integer')) return 'number';
  if (types.length === 1 && types[0] === 'string') return 'text';
  if (types.length === 1 && types[0] === 'array') {
    const items = resolveSchema((resolved.items ?? {}) as FieldSchema, root);
    return typesOf(items).join() === 'string' && !alternativesOf(items).length ? 'list' : 'json';
  }
  if (
    types.length === 1 &&
    types[0] === 'object' &&
    resolved.properties &&
    !(value !== undefined && !isObject(value))
  )
    return 'object';
  return 'json';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The bounds a number field shows (`min`, `max`, `step`), from the schema. */
export function boundsOf(schema: FieldSchema): { min?: string; max?: string; step: string } {
  const types = typesOf(schema);
  const min = schema.minimum ?? schema.exclusiveMinimum;
  return {
    ...(typeof min === 'number' ? { min: String(min) } : {}),
    ...(typeof schema.maximum === 'number' ? { max: String(schema.maximum) } : {}),
    step: types.includes('integer') && !types.includes('number') ? '1' : 'any',
  };
}

/** A value as its field shows it. */
export function shownValue(kind: FieldKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'text') return typeof value === 'string' ? value : '';
  if (kind === 'number') return typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (kind === 'list') return Array.isArray(value) ? value.join('\n') : '';
  return JSON.stringify(value, null, 2);
}

/**
 * What was typed in a field of `kind`, as the value to write: `undefined` when blank (the property
 * is removed), or the error when it cannot be written at all (a number that is not one, JSON that
 * does not parse or is of the wrong type). Bounds and the engine's own rules are checked by the
 * draft check, exactly as `defineTree` checks them, and shown on the field.
 */
export function parseField(
  kind: FieldKind,
  schema: FieldSchema,
  typed: string,
): { value: unknown } | FieldError {
  const raw = typed.trim();
  if (kind === 'text') return { value: typed === '' ? undefined : typed };
  if (raw === '') return { value: undefined };
  if (kind === 'number') {
    const number = Number(raw);
    if (!Number.isFinite(number)) return { error: 'notNumber' };
    if (boundsOf(schema).step === '1' && !Number.isInteger(number)) return { error: 'notInteger' };
    return { value: number };
  }
  if (kind === 'list')
    return {
      value: raw
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    };
  const types = typesOf(schema);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (caught) {
    // The example in the message has the field's shape: a list for a list.
    const list = types.length === 1 && types[0] === 'array';
    return { error: list ? 'notJsonList' : 'notJson', detail: (caught as Error).message };
  }
  if (types.length === 1 && types[0] === 'object' && !isObject(value)) return { error: 'notObject' };
  if (types.length === 1 && types[0] === 'array' && !Array.isArray(value)) return { error: 'notArray' };
  return { value };
}

/** An object with `key` set to `value`, or removed when it is `undefined`; `undefined` when nothing is left. */
export function withKey(
  object: Record<string, unknown> | undefined,
  key: string,
  value: unknown,
): Record<string, unknown> | undefined {
  const next = { ...(object ?? {}) };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length ? next : undefined;
}

/**
 * The node's problems that are about the property at `path` (`['query', 'chunkQty']`): those the
 * schema reports at `/nodes/<i>/query/chunkQty…`, and those `defineTree` reports naming "chunkQty".
 */
export function problemsAt(problems: readonly EditorProblem[], path: readonly string[]): EditorProblem[] {
  const pointer = new RegExp(`/nodes/\\d+/${path.join('/')}(?=[/:\\s]|$)`);
  const named = `"${path[path.length - 1]}"`;
  return problems.filter((problem) =>
    problem.message.startsWith('at /') ? pointer.test(problem.message) : problem.message.includes(named),
  );
}
