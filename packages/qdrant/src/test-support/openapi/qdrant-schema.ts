import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/** The request schemas of Qdrant's OpenAPI document that the tests check bodies against. */
export type QdrantSchemaName = 'ScrollRequest' | 'QueryRequest' | 'CountRequest' | 'Filter';

const subset = JSON.parse(readFileSync(new URL('./qdrant-openapi-subset.json', import.meta.url), 'utf8')) as {
  $id: string;
  'x-origin': { commit: string; version: string };
};

/** Where the schemas come from: Qdrant's commit and version. */
export const QDRANT_SCHEMA_ORIGIN = subset['x-origin'];

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const integer = (min: number, max: number) => ({
  type: 'number' as const,
  validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
});

const ajv = new Ajv({
  allErrors: true,
  strict: false,
  formats: {
    uuid: UUID,
    uint: integer(0, Number.MAX_SAFE_INTEGER),
    uint8: integer(0, 255),
    uint32: integer(0, 2 ** 32 - 1),
    uint64: integer(0, Number.MAX_SAFE_INTEGER),
    int64: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    float: true,
    // Qdrant parses datetimes itself (RFC 3339 and shorter forms); the schema's format is advisory.
    'date-time': true,
    double: true,
  },
});
ajv.addSchema(subset);

const compiled = new Map<QdrantSchemaName, ValidateFunction>();

/**
 * Validates `body` against Qdrant's schema `name` (from its OpenAPI document, see
 * `qdrant-openapi-subset.json`) and returns the problems, empty when Qdrant's schema accepts it.
 */
export function qdrantSchemaErrors(name: QdrantSchemaName, body: unknown): string[] {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.getSchema(`${subset.$id}#/components/schemas/${name}`);
    if (!validate) throw new Error(`Qdrant schema ${name} is not in qdrant-openapi-subset.json`);
    compiled.set(name, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`.trim());
}

/** The schema of a request the adapter sends, by method and path; `undefined` for requests without a checked body. */
export function schemaOfRequest(method: string, path: string): QdrantSchemaName | undefined {
  if (method !== 'POST') return undefined;
  if (path.endsWith('/points/scroll')) return 'ScrollRequest';
  if (path.endsWith('/points/query')) return 'QueryRequest';
  if (path.endsWith('/points/count')) return 'CountRequest';
  return undefined;
}
