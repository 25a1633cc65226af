/**
 * What makes a parsed request body unfit to keep, whatever the endpoint (`readJson` refuses it with
 * a 400 naming the path): text that is not well-formed Unicode or holds a NUL, and nesting deeper
 * than any endpoint takes.
 */

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
