import { notFound } from '../errors/api-error.js';

/**
 * Session ids as the stores hold them, for both APIs: the JSON API's (UUIDs) and the OpenAI
 * endpoint's engine ids (`openai:…`). Staff routes that take a session id in the path check it with
 * `storedSessionId` before anything else (a store read, an audit entry).
 */
export const STORED_SESSION_ID = /^[A-Za-z0-9_:.-]{1,300}$/;

/** `raw` when it can be a stored session id; else 404 `NOT_FOUND`, as an unknown session answers. */
export function storedSessionId(raw: string, what = 'conversation'): string {
  if (!STORED_SESSION_ID.test(raw))
    throw notFound(
      `There is no ${what} with this id: a session id is 1–300 letters, digits and _ : . - (check the id you copied).`,
    );
  return raw;
}
