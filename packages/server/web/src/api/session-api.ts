import type { FileMetadata } from '@treeagent/core/client';
import type {
  ClientEvent,
  CreatedSession,
  HistoryResponse,
  MessageRequest,
  UploadedFile,
  UserTypingRequest,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { readServerSentEvents } from './server-sent-events';

/** A file the page can link to: its metadata, and the download URL the server gave, if any. */
export type LinkedFile = FileMetadata & { url?: string };

/**
 * The chat session's calls (`/api/v1/sessions…`: the server's session, message, file and
 * session-event routes), over the app's one `ApiClient`, which keeps the session's id and token.
 */
export const sessionApi = {
  /** `POST /api/v1/sessions`; the id and token are kept for the tab. */
  async create(api: ApiClient, locale?: string): Promise<CreatedSession> {
    api.session = null; // the new session is asked for without the old one's token
    const body = locale
      ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ locale }) }
      : {};
    return api.keepSession(await api.json<CreatedSession>('/api/v1/sessions', { method: 'POST', ...body }));
  },

  /** `POST /api/v1/sessions/:id/satisfaction`: the user's 1–5 rating of the conversation with people. */
  async rate(api: ApiClient, rating: number, comment: string): Promise<void> {
    await api.request(api.sessionPath('/satisfaction'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(comment.trim() ? { rating, comment } : { rating }),
    });
  },

  /** `GET /api/v1/sessions/:id/history`, oldest first. */
  async history(api: ApiClient): Promise<HistoryResponse['history']> {
    return (await api.json<HistoryResponse>(api.sessionPath('/history'))).history;
  },

  /**
   * Sends a message and yields the turn's events as they stream (`Accept: text/event-stream`), up
   * to its last (`turn-end` or `error`). An HTTP error before the stream throws an `ApiError`; a
   * JSON answer becomes one `turn-end`.
   */
  async *send(api: ApiClient, body: MessageRequest, signal?: AbortSignal): AsyncGenerator<ClientEvent> {
    const response = await api.request(api.sessionPath('/messages'), {
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
      // The turn's last event: the turn is over, though the server may hold the stream a moment
      // longer (PostgreSQL frees the session's lock after it); the next message need not wait.
      if (message.event === 'turn-end' || message.event === 'error') return;
    }
  },

  /** Uploads one file to the session (multipart, field `file`). */
  upload(api: ApiClient, file: File, signal?: AbortSignal): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.json<UploadedFile>(api.sessionPath('/files'), {
      method: 'POST',
      body: form,
      ...(signal ? { signal } : {}),
    });
  },

  /** Where a file of the conversation is downloaded, or null when this server does not serve it. */
  fileUrl(api: ApiClient, file: LinkedFile): string | null {
    if (file.url) return file.url;
    if (api.session && file.sessionId === api.session.sessionId) {
      return api.sessionPath(`/files/${encodeURIComponent(file.id)}`);
    }
    return null;
  },

  /** An object URL for a file's bytes (the download needs the session token header), cached per file. */
  objectUrl(api: ApiClient, file: LinkedFile): Promise<string> {
    const path = sessionApi.fileUrl(api, file);
    if (!path) throw new ApiError(0, 'NOT_DOWNLOADABLE', `"${file.name}" is not served by this server.`);
    return api.objectUrl(file.id, path);
  },

  /** `POST /api/v1/sessions/:id/typing`: whether the user is typing (for the operators). */
  typing(api: ApiClient, typing: boolean): Promise<Response> {
    const body: UserTypingRequest = { typing };
    return api.request(api.sessionPath('/typing'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  },

  /** `GET /api/v1/sessions/:id/events?after=`: the session's live stream (server-sent events). */
  events(api: ApiClient, sessionId: string, after: number, signal: AbortSignal): Promise<Response> {
    return api.request(`/api/v1/sessions/${encodeURIComponent(sessionId)}/events?after=${after}`, {
      headers: { Accept: 'text/event-stream' },
      signal,
    });
  },
};
