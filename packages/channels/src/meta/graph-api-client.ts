import { ChannelSendError, readBodyWithin } from '@treeagent/core/adapter';

/** Where and as whom a Meta channel calls the Graph API. */
export interface GraphApiOptions {
  /** The platform's name in errors (`WhatsApp`, `Messenger`, `Instagram`). */
  platform: string;
  /** The access token (a system user's for WhatsApp, the Page's for Messenger and Instagram). */
  accessToken: string;
  /** The Graph API root. Default `https://graph.facebook.com` (tests: a local fake). */
  root?: string;
  /** Default `v21.0`. */
  version?: string;
}

/**
 * The one Graph API client of the Meta channels (WhatsApp, Messenger, Instagram): JSON and multipart
 * calls with the bearer token, media downloads, and the platform's answers turned into
 * `ChannelSendError`s the outbox reads (429 after its `Retry-After`, 5xx and network errors retried,
 * the rest final).
 */
export class GraphApiClient {
  readonly #platform: string;
  readonly #token: string;
  readonly #base: string;

  constructor(options: GraphApiOptions) {
    this.#platform = options.platform;
    this.#token = options.accessToken;
    this.#base = `${(options.root ?? 'https://graph.facebook.com').replace(/\/$/, '')}/${options.version ?? 'v21.0'}`;
  }

  /**
   * Calls `path` (under the version) with a JSON or multipart body; resolves to the answer's JSON.
   * `signal` aborts the call (the server stopped waiting for the send).
   */
  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown> | FormData,
    signal?: AbortSignal,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.#base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.#token}`,
          ...(body && !(body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw new ChannelSendError(`${this.#platform} could not be reached: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
    const answer = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    if (!response.ok)
      throw ChannelSendError.ofStatus(
        this.#platform,
        response.status,
        response.headers.get('retry-after'),
        answer.error?.message ?? '',
      );
    return answer;
  }

  /**
   * The bytes behind a media URL the platform gave (WhatsApp's wants the token; CDN URLs ignore it),
   * read to at most `maxBytes` (`readBodyWithin`).
   */
  async download(url: string, what: string, maxBytes?: number): Promise<Uint8Array> {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${this.#token}` } });
    if (!response.ok) throw new Error(`${this.#platform} answered HTTP ${response.status} for ${what}.`);
    return readBodyWithin(response, maxBytes, `${this.#platform} ${what}`);
  }
}
