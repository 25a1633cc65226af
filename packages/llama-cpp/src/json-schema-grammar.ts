import type { JsonSchema } from '@treeagent/core';
import type { GbnfJsonSchema } from 'node-llama-cpp';

/**
 * Converts a JSON schema (as nodes write it, or as Zod/TypeBox emit it) into the subset that
 * node-llama-cpp turns into a grammar (`llama.createGrammarForJsonSchema`). The grammar only has to
 * produce answers that *match* the schema, so it may be stricter than the schema:
 *
 * - every declared property is generated (node-llama-cpp treats all properties as required), and
 *   an object with `properties` and no `additionalProperties` gets no extra keys;
 * - `anyOf` becomes `oneOf` (a grammar alternative), `type: [...]` with objects or arrays becomes a
 *   `oneOf` per type, `allOf` with one member is merged, `definitions` becomes `$defs`;
 * - an empty schema (`{}` or `true`) and an object without `properties` accept any JSON value /
 *   any keys, as in JSON Schema (node-llama-cpp would otherwise produce `null` / `{}`).
 *
 * Constraints a grammar cannot express (`pattern`, `minimum`, string `format`s other than
 * `date-time`/`date`/`time`, `uniqueItems`…) are dropped; the engine still validates the answer
 * against the full schema. Returns `null` when the schema cannot be expressed at all (`allOf` of
 * several schemas, `not`, references outside `$defs`/`definitions`, object or array `const`), in
 * which case the caller falls back to a generic JSON grammar.
 */
export function toGbnfJsonSchema(schema: JsonSchema): GbnfJsonSchema | null {
  try {
    return convert(schema) as GbnfJsonSchema;
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

class Unsupported extends Error {}

type Schema = Record<string, unknown>;

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const GRAMMAR_STRING_FORMATS = new Set(['date-time', 'date', 'time']);

const ANY_JSON: Schema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convert(input: unknown): Schema {
  if (input === true) return ANY_JSON;
  if (!isSchema(input)) throw new Unsupported();
  const schema = input;
  if (schema.not !== undefined || schema.if !== undefined) throw new Unsupported();
  const defs = convertDefs(schema);

  const withDefs = (converted: Schema): Schema => {
    if (!defs) return converted;
    // node-llama-cpp reads `$defs` on references, `oneOf`, objects and arrays; wrap anything else.
    if (
      '$ref' in converted ||
      'oneOf' in converted ||
      converted.type === 'object' ||
      converted.type === 'array'
    )
      return { ...converted, $defs: { ...(converted.$defs as Schema | undefined), ...defs } };
    return { oneOf: [converted], $defs: defs };
  };

  if (Array.isArray(schema.allOf)) {
    if (schema.allOf.length !== 1) throw new Unsupported();
    const { allOf: _allOf, ...rest } = schema;
    return withDefs(convert({ ...rest, ...(schema.allOf[0] as Schema) }));
  }
  if (typeof schema.$ref === 'string') {
    const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    if (!match) throw new Unsupported();
    return withDefs({ $ref: `#/$defs/${match[1]}` });
  }
  if (schema.const !== undefined) {
    if (!isPrimitive(schema.const)) throw new Unsupported();
    return withDefs({ const: schema.const });
  }
  if (Array.isArray(schema.enum)) {
    if (!schema.enum.every(isPrimitive)) throw new Unsupported();
    return withDefs({ enum: schema.enum });
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    if (alternatives.length === 0) throw new Unsupported();
    return withDefs({ oneOf: alternatives.map((alternative) => convert(alternative)) });
  }

  let type = schema.type;
  if (Array.isArray(type)) {
    if (type.length === 0) throw new Unsupported();
    if (type.every((item) => typeof item === 'string' && PRIMITIVE_TYPES.has(item) && item !== 'string'))
      return withDefs({ type });
    return withDefs({ oneOf: type.map((item) => convert({ ...schema, type: item })) });
  }
  if (type === undefined) {
    if (isSchema(schema.properties) || schema.additionalProperties !== undefined) type = 'object';
    else if (schema.items !== undefined || schema.prefixItems !== undefined) type = 'array';
    else return withDefs(ANY_JSON);
  }

  switch (type) {
    case 'object':
      return withDefs(convertObject(schema));
    case 'array':
      return withDefs(convertArray(schema));
    case 'string': {
      if (typeof schema.format === 'string' && GRAMMAR_STRING_FORMATS.has(schema.format))
        return withDefs({ type: 'string', format: schema.format });
      return withDefs({
        type: 'string',
        ...copyNumber(schema, 'minLength'),
        ...copyNumber(schema, 'maxLength'),
      });
    }
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return withDefs({ type });
    default:
      throw new Unsupported();
  }
}

function convertDefs(schema: Schema): Schema | undefined {
  const source = { ...(schema.definitions as Schema | undefined), ...(schema.$defs as Schema | undefined) };
  const entries = Object.entries(source);
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([name, definition]) => [name, convert(definition)]));
}

function convertObject(schema: Schema): Schema {
  const properties = isSchema(schema.properties) ? schema.properties : undefined;
  const out: Schema = { type: 'object' };
  if (properties)
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, convert(property)]),
    );
  const additional = schema.additionalProperties;
  // JSON Schema allows any extra key by default; without declared properties, so does the grammar.
  if (additional === undefined) out.additionalProperties = !properties;
  else if (typeof additional === 'boolean') out.additionalProperties = additional;
  else out.additionalProperties = convert(additional);
  return { ...out, ...copyNumber(schema, 'minProperties'), ...copyNumber(schema, 'maxProperties') };
}

function convertArray(schema: Schema): Schema {
  const out: Schema = { type: 'array' };
  // Draft 4–2019 tuples are `items: [...]` (+ `additionalItems`); 2020-12 uses `prefixItems`.
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  if (tuple) out.prefixItems = tuple.map((item) => convert(item));
  if (rest !== undefined && typeof rest !== 'boolean') out.items = convert(rest);
  Object.assign(out, copyNumber(schema, 'minItems'), copyNumber(schema, 'maxItems'));
  if (rest === false)
    out.maxItems = Math.min(tuple?.length ?? 0, (out.maxItems as number | undefined) ?? Infinity);
  return out;
}

function copyNumber(schema: Schema, key: string): Schema {
  return typeof schema[key] === 'number' ? { [key]: schema[key] } : {};
}
