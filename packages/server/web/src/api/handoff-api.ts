import type {
  HandBackRequest,
  HandoffDetail,
  HandoffListResponse,
  OperatorEvent,
  OperatorMessageRequest,
  UploadedFile,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';
import { readServerSentEvents } from './server-sent-events';

const base = (sessionId: string) => `/api/v1/operator/handoffs/${encodeURIComponent(sessionId)}`;

function post<T>(api: ApiClient, path: string, body: unknown = {}): Promise<T> {
  return api.json<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * The operator console's calls (`/api/v1/operator/handoffs…` and `/api/v1/operator/events`: the
 * server's handoff routes); the login cookie goes with each.
 */
export const handoffApi = {
  list: (api: ApiClient, status: 'open' | 'closed') =>
    api.json<HandoffListResponse>(`/api/v1/operator/handoffs?status=${status}`),
  detail: (api: ApiClient, sessionId: string) => api.json<HandoffDetail>(base(sessionId)),
  claim: (api: ApiClient, sessionId: string, takeOver = false) =>
    post(api, `${base(sessionId)}/claim`, takeOver ? { takeOver } : {}),
  release: (api: ApiClient, sessionId: string) => post(api, `${base(sessionId)}/release`),
  reply: (api: ApiClient, sessionId: string, body: OperatorMessageRequest) =>
    post(api, `${base(sessionId)}/messages`, body),
  upload: (api: ApiClient, sessionId: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.json<UploadedFile>(`${base(sessionId)}/files`, { method: 'POST', body: form });
  },
  typing: (api: ApiClient, sessionId: string, typing: boolean) =>
    api.request(`${base(sessionId)}/typing`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ typing }),
    }),
  note: (api: ApiClient, sessionId: string, text: string) => post(api, `${base(sessionId)}/notes`, { text }),
  handBack: (api: ApiClient, sessionId: string, body: HandBackRequest) =>
    post(api, `${base(sessionId)}/hand-back`, body),
  close: (api: ApiClient, sessionId: string, takeOver = false) =>
    post(api, `${base(sessionId)}/close`, takeOver ? { takeOver } : {}),
  fileUrl: (sessionId: string, fileId: string) => `${base(sessionId)}/files/${encodeURIComponent(fileId)}`,

  /** Calls `onEvent` for each console event (`queue`, `session`, `typing`) until `signal` aborts; reconnects when it drops. */
  async follow(api: ApiClient, onEvent: (event: OperatorEvent) => void, signal: AbortSignal): Promise<void> {
    let delay = 1000;
    while (!signal.aborted) {
      try {
        const response = await api.request('/api/v1/operator/events', {
          headers: { Accept: 'text/event-stream' },
          signal,
        });
        delay = 1000;
        for await (const message of readServerSentEvents(response.body!)) {
          onEvent({ type: message.event, ...JSON.parse(message.data) } as OperatorEvent);
        }
      } catch {
        if (signal.aborted) return;
      }
      // Missed events while away: read everything again.
      onEvent({ type: 'queue' });
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  },
};
