import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../../protocol/json-schema.js';

const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Parses a model's answer as JSON (tolerating a ```json fence) and validates it against `schema`. */
export function checkJson(
  text: string,
  schema: JsonSchema,
): { ok: true; value: unknown } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(stripFence(text));
  } catch (error) {
    return { ok: false, error: `it is not valid JSON (${(error as Error).message})` };
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return { ok: true, value };
  return { ok: false, error: ajv.errorsText(validate.errors, { dataVar: 'answer' }) };
}

function stripFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  return fenced ? fenced[1]! : trimmed;
}

/** Validates a value (already parsed) against `schema`: `null` when it matches, else the errors in words. */
export function schemaErrors(value: unknown, schema: JsonSchema, dataVar = 'input'): string | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? null : ajv.errorsText(validate.errors, { dataVar });
}
