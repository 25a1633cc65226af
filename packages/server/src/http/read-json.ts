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

/** How deep a request body may nest: no endpoint needs more, and walking deeper costs the server. */
export const MAX_JSON_DEPTH = 64;

/** What makes a parsed request body unfit to keep: where (a dotted path), and what (`issue`). */
export interface BodyProblem {
  path: string;
  issue: string;
  /** The error's message: what is wrong and what to send instead. */
  message: string;
}

function textProblem(text: string): Omit<BodyProblem, 'path'> | null {
  if (UNPAIRED_SURROGATE.test(text))
    return {
      issue: 'unpaired UTF-16 surrogate',
      message:
        'the text holds an unpaired UTF-16 surrogate (an escape such as "\\ud800" without its pair), which is not a character. Send well-formed Unicode text.',
    };
  if (text.includes('\u0000'))
    return {
      issue: 'NUL character (U+0000)',
      message:
        'the text holds the NUL character (U+0000, the escape "\\u0000"), which no text needs and the PostgreSQL store cannot keep. Remove it.',
    };
  return null;
}

/**
 * The first problem of a parsed body, in document order, else `null`: a string or key with an
 * unpaired surrogate or a NUL character, or nesting deeper than `MAX_JSON_DEPTH`. Walked with a
 * stack, not recursion, so no body can exhaust the server's call stack.
 */
export function bodyProblem(body: unknown): BodyProblem | null {
  const stack: { value: unknown; path: string; depth: number; key?: string }[] = [
    { value: body, path: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth, key } = stack.pop()!;
    const at = path || '(body)';
    if (key !== undefined) {
      const problem = textProblem(key);
      if (problem) return { path: at, ...problem };
    }
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { path: at, ...problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH)
      return {
        path: at,
        issue: 'nested too deep',
        message: `the value nests more than ${MAX_JSON_DEPTH} levels deep, which no endpoint takes. Send a flatter value.`,
      };
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, item] = entries[i]!;
      stack.push({ value: item, path: path ? `${path}.${name}` : name, depth: depth + 1, key: name });
    }
  }
  return null;
}

/** `application/json` or a `+json` type, with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The `charset` parameter of a media type. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** UTF-8 that refuses malformed bytes instead of replacing them with U+FFFD. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request's JSON body validated with `schema`; an empty body counts as `{}`. A body must be
 * sent as `Content-Type: application/json` (else 415 `UNSUPPORTED_MEDIA_TYPE`): a cross-site HTML
 * form can only send `text/plain`, form or multipart bodies without a CORS preflight, so it can
 * never post to a JSON endpoint. The body is UTF-8: another declared `charset` is 415, malformed
 * bytes are 400 (not silently replaced by U+FFFD). `bodyProblem`'s findings are 400
 * `INVALID_REQUEST` naming where: a string with an unpaired UTF-16 surrogate (`"\ud800"` written as
 * an escape) is no text, and stored it would break strict JSON parsers of the queue, the webhook and
 * exports later; a NUL character cannot be stored in PostgreSQL (a client's text must not look like
 * a store outage); nesting deeper than `MAX_JSON_DEPTH` is refused before any schema walks it.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  let body: unknown = {};
  const type = c.req.header('content-type') ?? '';
  if (bytes.length > 0 && !JSON_TYPE.test(type)) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON with the header "Content-Type: application/json".',
    );
  }
  const charset = CHARSET.exec(type)?.[1];
  if (bytes.length > 0 && charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body is declared as ${charset}: send it in UTF-8 ("Content-Type: application/json", or with "; charset=utf-8").`,
    );
  }
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw invalidRequest(
      'The request body is not valid UTF-8: some bytes are no character. Send JSON encoded in UTF-8.',
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
    const problem = bodyProblem(body);
    if (problem !== null) {
      throw invalidRequest(`Invalid request body: ${problem.path}: ${problem.message}`, {
        issues: [{ path: problem.path, message: problem.issue }],
      });
    }
  }
  return validate(schema, body, 'request body');
}
