import { describe, expect, it } from 'vitest';
import { toGbnfJsonSchema } from './json-schema-grammar.js';

const ANY = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

describe('toGbnfJsonSchema', () => {
  it('keeps a plain object schema, closing it to its declared properties', () => {
    expect(
      toGbnfJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        description: 'a classification',
        properties: {
          category: { type: 'string', enum: ['A', 'B'] },
          score: { type: 'number', minimum: 0 },
          count: { type: 'integer' },
          name: { type: 'string', minLength: 1, maxLength: 20, pattern: '^[a-z]+$' },
        },
        required: ['category'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        category: { enum: ['A', 'B'] },
        score: { type: 'number' },
        count: { type: 'integer' },
        name: { type: 'string', minLength: 1, maxLength: 20 },
      },
      additionalProperties: false,
    });
  });

  it('maps anyOf, nullable type lists and single allOf', () => {
    expect(toGbnfJsonSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(toGbnfJsonSchema({ type: ['integer', 'null'] })).toEqual({ type: ['integer', 'null'] });
    expect(toGbnfJsonSchema({ type: ['string', 'null'], maxLength: 3 })).toEqual({
      oneOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }],
    });
    expect(toGbnfJsonSchema({ allOf: [{ type: 'boolean' }], description: 'x' })).toEqual({ type: 'boolean' });
  });

  it('accepts any JSON for empty schemas and objects without properties', () => {
    expect(toGbnfJsonSchema({})).toEqual(ANY);
    expect(toGbnfJsonSchema({ type: 'object' })).toEqual({ type: 'object', additionalProperties: true });
    expect(toGbnfJsonSchema({ type: 'object', additionalProperties: { type: 'number' } })).toEqual({
      type: 'object',
      additionalProperties: { type: 'number' },
    });
    expect(toGbnfJsonSchema({ type: 'object', properties: { x: true } })).toEqual({
      type: 'object',
      properties: { x: ANY },
      additionalProperties: false,
    });
  });

  it('converts arrays, tuples and string formats', () => {
    expect(toGbnfJsonSchema({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 })).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 3,
    });
    expect(
      toGbnfJsonSchema({
        type: 'array',
        items: [{ type: 'string' }, { type: 'number' }],
        additionalItems: false,
      }),
    ).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], maxItems: 2 });
    expect(toGbnfJsonSchema({ type: 'string', format: 'date-time' })).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(toGbnfJsonSchema({ type: 'string', format: 'email' })).toEqual({ type: 'string' });
  });

  it('moves definitions to $defs and rewrites references', () => {
    expect(
      toGbnfJsonSchema({
        type: 'object',
        properties: { item: { $ref: '#/definitions/Item' } },
        definitions: { Item: { type: 'object', properties: { id: { type: 'integer' } } } },
      }),
    ).toEqual({
      type: 'object',
      properties: { item: { $ref: '#/$defs/Item' } },
      additionalProperties: false,
      $defs: {
        Item: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false },
      },
    });
  });

  it('returns null for what a grammar cannot express', () => {
    expect(toGbnfJsonSchema({ allOf: [{ type: 'object' }, { type: 'object' }] })).toBeNull();
    expect(toGbnfJsonSchema({ not: { type: 'string' } })).toBeNull();
    expect(toGbnfJsonSchema({ $ref: 'https://example.com/schema.json' })).toBeNull();
    expect(toGbnfJsonSchema({ const: { a: 1 } })).toBeNull();
  });
});
