import type { CreatedSession } from '../../../src/api-types';
import { currentLocale, i18n } from '../i18n/i18n';
import { tOf } from '../i18n/use-t';
import { ApiError, errorFrom, isAbort } from './api-error';
import { tabStorage } from './tab-storage';

const SESSION_KEY = 'treeagent.session';
const API_KEY_KEY = 'treeagent.apiKey';

/**
 * The one transport to the server's HTTP API (`/api/v1`, JSON and server-sent events) for every page:
 * the only `fetch` of the web app. It keeps the API key and the chat session (id and token) for the
 * tab, in `sessionStorage`, and sends them with each request (`Authorization: Bearer`,
 * `X-Session-Token`). The endpoints themselves are wrapped by area beside it (`session-api.ts`,
 * `tree-api.ts`, `editor-api.ts`, …, one file per route area of the server).
 */
export class ApiClient {
  apiKey: string | null;
  session: CreatedSession | null;
  /** Object URLs of downloaded files, by file id. */
  readonly #fileUrls = new Map<string, string>();

  constructor(readonly base = '') {
    this.apiKey = tabStorage.get(API_KEY_KEY);
    this.session = parseSession(tabStorage.get(SESSION_KEY));
  }

  setApiKey(key: string | null): void {
    this.apiKey = key || null;
    tabStorage.set(API_KEY_KEY, this.apiKey);
  }

  /** A fetch with the credentials; a non-2xx answer or a network failure throws an `ApiError`. */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.apiKey) headers.set('Authorization', `Bearer ${this.apiKey}`);
    if (this.session) headers.set('X-Session-Token', this.session.token);
    // The server's messages for the customer (limits, refusals) in the language the page shows.
    if (!headers.has('Accept-Language')) headers.set('Accept-Language', currentLocale());
    let response: Response;
    try {
      response = await fetch(this.base + path, { ...init, headers });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ApiError(0, 'NETWORK', tOf('common')('error.network', { error: messageOf(error) }));
    }
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  async json<T>(path: string, init?: RequestInit): Promise<T> {
    return (await (await this.request(path, init)).json()) as T;
  }

  /** The path of the current session's `suffix`; throws `NO_SESSION` without one. */
  sessionPath(suffix: string): string {
    if (!this.session) throw new ApiError(0, 'NO_SESSION', 'There is no session yet.');
    return `/api/v1/sessions/${encodeURIComponent(this.session.sessionId)}${suffix}`;
  }

  /** Keeps a new session (id and token) for the tab; its credentials go with every later request. */
  keepSession(created: CreatedSession): CreatedSession {
    this.session = { sessionId: created.sessionId, token: created.token };
    tabStorage.set(SESSION_KEY, JSON.stringify(this.session));
    this.#forgetFiles();
    return this.session;
  }

  forgetSession(): void {
    this.session = null;
    tabStorage.set(SESSION_KEY, null);
    this.#forgetFiles();
  }

  /**
   * An object URL for the bytes at `path` (a download that needs the credentials headers, which a
   * plain link cannot send), cached under `key` until the session is forgotten or replaced.
   */
  async objectUrl(key: string, path: string): Promise<string> {
    const cached = this.#fileUrls.get(key);
    if (cached) return cached;
    const blob = await (await this.request(path)).blob();
    const url = URL.createObjectURL(blob);
    this.#fileUrls.set(key, url);
    return url;
  }

  #forgetFiles(): void {
    for (const url of this.#fileUrls.values()) URL.revokeObjectURL(url);
    this.#fileUrls.clear();
  }
}

function parseSession(stored: string | null): CreatedSession | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored) as Partial<CreatedSession>;
    return typeof value.sessionId === 'string' && typeof value.token === 'string'
      ? { sessionId: value.sessionId, token: value.token }
      : null;
  } catch {
    return null;
  }
}

/**
 * The message of anything thrown, for staff: the server's words (English, for developers: they name
 * the node, the file, the limit). On a page in another language, an API error whose code the
 * catalogs know reads first what the code means in the page's language, then the server's words.
 * (A customer's page uses `customerErrorText`: never the API's words.)
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!(error instanceof ApiError) || i18n.language === 'en') return error.message;
  const key = `error.codes.${error.code}`;
  if (!i18n.exists(key, { ns: 'common' })) return error.message;
  const t = tOf('common');
  return t('error.withDetail', { meaning: t(key), detail: error.message });
}
