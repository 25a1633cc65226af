import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, invalidRequest } from '../errors/api-error.js';

/** Zod issues as error details: where (a dotted path) and what is wrong. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): {
  issues: { path: string; message: string }[];
} {
  return {
    issues: issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    })),
  };
}

/** Validates `value` with `schema`, or throws `INVALID_REQUEST` listing every problem. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = describeIssues(result.error.issues);
    const first = details.issues[0]!;
    throw invalidRequest(`Invalid ${what}: ${first.path}: ${first.message}`, details);
  }
  return result.data;
}

/** A UTF-16 surrogate without its pair: not a character, and not valid in strict JSON or UTF-8. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The dotted path of the first string (or key) in `value` that holds an unpaired surrogate, else `null`. */
export function unpairedSurrogatePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNPAIRED_SURROGATE.test(value) ? path || '(body)' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (UNPAIRED_SURROGATE.test(key)) return at;
    const found = unpairedSurrogatePath(item, at);
    if (found !== null) return found;
  }
  return null;
}

/** `application/json` or a `+json` type, with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The request's JSON body validated with `schema`; an empty body counts as `{}`. A body must be
 * sent as `Content-Type: application/json` (else 415 `UNSUPPORTED_MEDIA_TYPE`): a cross-site HTML
 * form can only send `text/plain`, form or multipart bodies without a CORS preflight, so it can
 * never post to a JSON endpoint. A string with an unpaired UTF-16 surrogate (`"\ud800"` written as
 * an escape) is refused with 400 `INVALID_REQUEST` naming where: it is no text, and stored it would
 * break strict JSON parsers of the queue, the webhook and exports later.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const text = await c.req.text();
  let body: unknown = {};
  if (text !== '' && !JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON with the header "Content-Type: application/json".',
    );
  }
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidRequest(
        'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.',
      );
    }
    const at = unpairedSurrogatePath(body);
    if (at !== null) {
      throw invalidRequest(
        `Invalid request body: ${at}: the text holds an unpaired UTF-16 surrogate (an escape such as "\\ud800" without its pair), which is not a character. Send well-formed Unicode text.`,
        { issues: [{ path: at, message: 'unpaired UTF-16 surrogate' }] },
      );
    }
  }
  return validate(schema, body, 'request body');
}
