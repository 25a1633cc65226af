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

/** `application/json` or a `+json` type, with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The request's JSON body validated with `schema`; an empty body counts as `{}`. A body must be
 * sent as `Content-Type: application/json` (else 415 `UNSUPPORTED_MEDIA_TYPE`): a cross-site HTML
 * form can only send `text/plain`, form or multipart bodies without a CORS preflight, so it can
 * never post to a JSON endpoint.
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
  }
  return validate(schema, body, 'request body');
}
