import type { FileMetadata } from '@treeagent/core/client';
import type {
  ClientEvent,
  CreatedSession,
  HistoryResponse,
  MessageRequest,
  RouteResponse,
  TreeView,
  UploadedFile,
} from '../../../src/api-types';
import { ApiError, errorFrom, isAbort } from './api-error';
import { readServerSentEvents } from './server-sent-events';
import { tabStorage } from './tab-storage';

const SESSION_KEY = 'treeagent.session';
const API_KEY_KEY = 'treeagent.apiKey';

/** A file the page can link to: its metadata, and the download URL the server gave, if any. */
export type LinkedFile = FileMetadata & { url?: string };

/**
 * The one client of the server's HTTP API (`/api/v1`, JSON and server-sent events) for every page.
 * It keeps the API key and the chat session (id and token) for the tab, in `sessionStorage`, and
 * sends them with each request (`Authorization: Bearer`, `X-Session-Token`).
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
    let response: Response;
    try {
      response = await fetch(this.base + path, { ...init, headers });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ApiError(0, 'NETWORK', `The server cannot be reached (${messageOf(error)}).`);
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

  /** `POST /api/v1/sessions`; the id and token are kept for the tab. */
  async createSession(): Promise<CreatedSession> {
    this.session = null;
    const created = await this.json<CreatedSession>('/api/v1/sessions', { method: 'POST' });
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

  /** `GET /api/v1/sessions/:id/history`, oldest first. */
  async history(): Promise<HistoryResponse['history']> {
    return (await this.json<HistoryResponse>(this.sessionPath('/history'))).history;
  }

  /**
   * The whole effective tree (chunk texts in debug mode), read page by page from `GET /api/v1/tree`
   * (`pageSize` nodes at a time, 5000 at most). Pages of a tree that changed meanwhile (a reload
   * of `treeagent dev`) are not mixed: the reading starts again, three times at most.
   */
  async tree(pageSize = 5000): Promise<TreeView> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const first = await this.json<TreeView>(`/api/v1/tree?offset=0&limit=${pageSize}`);
      const nodes = [...first.nodes];
      let next = first.nextOffset;
      while (next !== null) {
        const page = await this.json<TreeView>(`/api/v1/tree?offset=${next}&limit=${pageSize}`);
        if (page.contentHash !== first.contentHash) break;
        nodes.push(...page.nodes);
        next = page.nextOffset;
      }
      if (next === null) return { ...first, nodes, offset: 0, nextOffset: null };
    }
    throw new ApiError(0, 'TREE_CHANGED', 'The tree kept changing while it was read: reload the page.');
  }

  /** `POST /api/v1/route` (debug only): where `text` would go on a fresh session. */
  route(text: string, startNodeId?: number): Promise<RouteResponse> {
    return this.json<RouteResponse>('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(startNodeId === undefined ? { text } : { text, startNodeId }),
    });
  }

  /** Uploads one file to the session (multipart, field `file`). */
  upload(file: File, signal?: AbortSignal): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', file, file.name);
    return this.json<UploadedFile>(this.sessionPath('/files'), {
      method: 'POST',
      body: form,
      ...(signal ? { signal } : {}),
    });
  }

  /** Where a file of the conversation is downloaded, or null when this server does not serve it. */
  fileUrl(file: LinkedFile): string | null {
    if (file.url) return file.url;
    if (this.session && file.sessionId === this.session.sessionId) {
      return this.sessionPath(`/files/${encodeURIComponent(file.id)}`);
    }
    return null;
  }

  /** An object URL for a file's bytes (the download needs the session token header), cached per file. */
  async objectUrl(file: LinkedFile): Promise<string> {
    const cached = this.#fileUrls.get(file.id);
    if (cached) return cached;
    const path = this.fileUrl(file);
    if (!path) throw new ApiError(0, 'NOT_DOWNLOADABLE', `"${file.name}" is not served by this server.`);
    const blob = await (await this.request(path)).blob();
    const url = URL.createObjectURL(blob);
    this.#fileUrls.set(file.id, url);
    return url;
  }

  /**
   * Sends a message and yields the turn's events as they stream (`Accept: text/event-stream`).
   * An HTTP error before the stream throws an `ApiError`; a JSON answer becomes one `turn-end`.
   */
  async *send(body: MessageRequest, signal?: AbortSignal): AsyncGenerator<ClientEvent> {
    const response = await this.request(this.sessionPath('/messages'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    const type = response.headers.get('Content-Type') ?? '';
    if (!type.includes('text/event-stream') || !response.body) {
      yield { type: 'turn-end', output: await response.json(), durationMs: Number.NaN };
      return;
    }
    for await (const message of readServerSentEvents(response.body)) {
      let event: unknown;
      try {
        event = JSON.parse(message.data);
      } catch {
        continue;
      }
      if (event && typeof event === 'object') yield { ...event, type: message.event } as ClientEvent;
    }
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

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
