import type {
  CallbackRequestBody,
  CallbackRequestView,
  SessionCallbackResponse,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';

/** Callback requests left out of hours: the user's (`/api/v1/sessions/:id/callback`) and the operators' (`/api/v1/operator/callbacks`). */
export const callbackApi = {
  /** Whether the form is offered now (the team is closed), and the open request. */
  offer: (api: ApiClient) => api.json<SessionCallbackResponse>(api.sessionPath('/callback')),
  /** Leaves a callback request for the session. */
  request: (api: ApiClient, body: CallbackRequestBody) =>
    api.json<{ request: CallbackRequestView }>(api.sessionPath('/callback'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  /** The callback requests of the operator's teams. */
  list: (api: ApiClient, status: 'open' | 'done') =>
    api.json<{ callbacks: CallbackRequestView[] }>(`/api/v1/operator/callbacks?status=${status}`),
  /** Marks one done. */
  done: (api: ApiClient, id: string) =>
    api.json<{ callback: CallbackRequestView }>(`/api/v1/operator/callbacks/${encodeURIComponent(id)}/done`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({}),
    }),
};
