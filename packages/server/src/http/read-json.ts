import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { bodyProblem } from './body-problems.js';

/** Zod issues as error details: where (a dotted path) and what is wrong. */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  root = '(body)',
): {
  issues: { path: string; message: string }[];
} {
  // A client's input is echoed back within bounds: 20 problems at most, each said in 300 characters.
  const described = issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: clip(issue.path.map(String).join('.') || root),
    message: clip(issue.message),
  }));
  if (issues.length > MAX_ISSUES)
    described.push({ path: root, message: `and ${issues.length - MAX_ISSUES} more problems` });
  return { issues: described };
}

/** The most problems an error lists. */
const MAX_ISSUES = 20;
/** The longest text of a problem (its path, its message): a message quoting a client's input is cut. */
const MAX_ISSUE_TEXT = 300;

function clip(text: string): string {
  return text.length <= MAX_ISSUE_TEXT ? text : `${text.slice(0, MAX_ISSUE_TEXT - 1)}…`;
}

/** Validates `value` with `schema`, or throws `INVALID_REQUEST` listing every problem. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = describeIssues(result.error.issues, what === 'request body' ? '(body)' : `(${what})`);
    const first = details.issues[0]!;
    throw invalidRequest(`Invalid ${what}: ${first.path}: ${first.message}`, details);
  }
  return result.data;
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
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body is encoded (Content-Encoding: ${encoding.slice(0, 40)}): send it uncompressed.`,
    );
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
