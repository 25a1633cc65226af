import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { checkSessionToken, SESSION_TOKEN_HEADER } from '../auth/session-access.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { invalidRequest } from '../errors/api-error.js';

/** Header that picks the session of a chat completion; it wins over the body's `user`. */
export const SESSION_ID_HEADER = 'x-session-id';

/** Prefix of the engine session ids of sessions named by OpenAI-compatible clients. */
export const OPENAI_SESSION_PREFIX = 'openai:';

export interface ChatSession {
  /** The id the client uses (returned in `X-Session-Id` and `treeagent.sessionId`). */
  id: string;
  /** The engine's session id. */
  engineId: string;
}

const PRINTABLE = /^[\x21-\x7e]{1,200}$/;

/**
 * The session of a chat completion: `X-Session-Id` if sent, else the body's `user`, else a new one.
 * - An id created by `POST /api/v1/sessions` is that session, and needs its `X-Session-Token`.
 * - Any other id names a session of the OpenAI-compatible endpoint, stored as `openai:<id>`, so it
 *   can never reach a session of the JSON API; holding the API key is what protects it.
 */
export async function chatSession(
  c: Context,
  user: string | undefined,
  tokens: SessionTokens,
): Promise<ChatSession> {
  const requested = c.req.header(SESSION_ID_HEADER) ?? user;
  if (requested === undefined) {
    const id = randomUUID();
    return { id, engineId: `${OPENAI_SESSION_PREFIX}${id}` };
  }
  if (!PRINTABLE.test(requested)) {
    throw invalidRequest(
      'The session id (X-Session-Id or user) must be 1–200 printable ASCII characters without spaces.',
      {
        param: 'user',
      },
    );
  }
  const hash = await tokens.find(requested);
  if (hash !== null) {
    checkSessionToken(hash, c.req.header(SESSION_TOKEN_HEADER));
    return { id: requested, engineId: requested };
  }
  return { id: requested, engineId: `${OPENAI_SESSION_PREFIX}${requested}` };
}
