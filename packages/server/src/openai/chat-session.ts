import { createHmac, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { bearerToken } from '../auth/api-keys.js';
import { createSecret, hashSecret } from '../auth/secrets.js';
import { checkSessionToken, SESSION_TOKEN_HEADER } from '../auth/session-access.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { invalidRequest, notFound } from '../errors/api-error.js';

/** Header that picks the session of a chat completion; it wins over the body's `user`. */
export const SESSION_ID_HEADER = 'x-session-id';

/** Prefix of the engine session ids of sessions named by OpenAI-compatible clients. */
export const OPENAI_SESSION_PREFIX = 'openai:';

/** Prefix of a conversation id issued by a server without API keys: the id is the conversation's secret. */
export const CONVERSATION_PREFIX = 'conv_';
const CONVERSATION_ID = /^conv_[A-Za-z0-9_-]{43}$/;

export interface ChatSession {
  /** The id the client uses (returned in `X-Session-Id` and `treeagent.sessionId`). */
  id: string;
  /** The engine's session id. */
  engineId: string;
}

const PRINTABLE = /^[\x21-\x7e]{1,200}$/;

/**
 * The engine session id of a conversation of the OpenAI-compatible endpoint: under the namespace of
 * the API key that created it, the id keyed-hashed with that key (`openai:k:<hash of the key>:u:<HMAC
 * of the id>`), or, on a server without API keys, under the hash of the conversation id
 * (`openai:c:<hash>`). The store, the audit log and the server's answers never hold the id the client
 * sent — OpenAI's `user` is often an e-mail address — nor the secret; the same key and id always give
 * the same session, so a conversation goes on. Keyed, so a guessed address cannot be hashed to find its
 * session without the key. (Before this, the id was kept as sent: `openai:k:<hash>:<id>`; such sessions
 * are no longer continued and expire with the retention.)
 */
export function openAiEngineSessionId(apiKey: string | null, id: string): string {
  return apiKey === null
    ? `${OPENAI_SESSION_PREFIX}c:${hashSecret(id).slice(0, 40)}`
    : `${OPENAI_SESSION_PREFIX}k:${hashSecret(apiKey).slice(0, 16)}:u:${createHmac('sha256', apiKey).update(id, 'utf8').digest('hex').slice(0, 40)}`;
}

/**
 * A session id as an earlier server version stored an API key's conversation: the client's id as sent
 * (`openai:k:<hash of the key>:<id>`); group 1 is that id. Its sessions may hold a `user` e-mail in
 * their id: `personal-data` accepts them and audits them by reference (docs/privacy.md).
 */
export const LEGACY_OPENAI_SESSION_ID = /^openai:k:[0-9a-f]{16}:(?!u:[0-9a-f]{40}$)([\x21-\x7e]{1,200})$/;

/**
 * The session of a chat completion. A conversation is reachable only with the credential that
 * created it:
 * - An id created by `POST /api/v1/sessions` (in `X-Session-Id` or `user`) is that session, and
 *   needs its `X-Session-Token`.
 * - With API keys, `X-Session-Id` (else `user`) names a conversation in the namespace of the
 *   request's API key: another key never reaches it. No id: a new conversation.
 * - Without API keys, a conversation id is a secret the server issues (`conv_` + 256 random bits,
 *   in `X-Session-Id` and `treeagent.sessionId`); sending it back (as `user`, which every OpenAI
 *   client can set, or `X-Session-Id`) continues the conversation. A `user` that is not such an id
 *   is a label, as in OpenAI's API: it starts a new conversation. An `X-Session-Id` that is neither
 *   is refused (404), since the client meant to continue something.
 */
export async function chatSession(
  c: Context,
  user: string | undefined,
  tokens: SessionTokens,
  apiKeysConfigured: boolean,
): Promise<ChatSession> {
  const header = c.req.header(SESSION_ID_HEADER);
  const requested = header ?? user;
  if (requested !== undefined && !PRINTABLE.test(requested)) {
    throw invalidRequest(
      'The session id (X-Session-Id or user) must be 1–200 printable ASCII characters without spaces.',
      { param: 'user' },
    );
  }
  if (requested !== undefined) {
    const hash = await tokens.find(requested);
    if (hash !== null) {
      checkSessionToken(hash, c.req.header(SESSION_TOKEN_HEADER));
      return { id: requested, engineId: requested };
    }
  }
  if (apiKeysConfigured) {
    // The API key middleware already checked the key; it names the namespace.
    const key = bearerToken(c.req.header('authorization'))!;
    const id = requested ?? randomUUID();
    return { id, engineId: openAiEngineSessionId(key, id) };
  }
  if (requested !== undefined && CONVERSATION_ID.test(requested)) {
    return { id: requested, engineId: openAiEngineSessionId(null, requested) };
  }
  if (header !== undefined) {
    throw notFound(
      `There is no conversation "${header.slice(0, 60)}". On this server a conversation is continued with the id it issued (X-Session-Id of the first answer, "conv_…"); omit X-Session-Id to start one.`,
    );
  }
  const id = `${CONVERSATION_PREFIX}${createSecret()}`;
  return { id, engineId: openAiEngineSessionId(null, id) };
}
