import type { ApiClient } from './api-client';

/** An operator's presence: `online` gets new conversations and alerts, `away` keeps theirs, `offline` neither. */
export type PresenceStatusName = 'online' | 'away' | 'offline';

/** `GET /api/v1/operator/routing/presence`. */
export interface PresenceResponse {
  presence: { operatorId: string; name: string; teams: string[]; status: PresenceStatusName; at: string }[];
  teams: { team: string; policy: string; open: boolean }[];
}

/** Where `POST /api/v1/operator/routing/handoffs/:id/transfer` passes a session: an operator or a team, with an internal note. */
export type TransferRequest = ({ operatorId: string } | { team: string }) & { note?: string };

/** Teams and presence (`/api/v1/operator/routing`, operators). */
export const routingApi = {
  presence: (api: ApiClient) => api.json<PresenceResponse>('/api/v1/operator/routing/presence'),
  setPresence: (api: ApiClient, status: PresenceStatusName) =>
    api.json<unknown>('/api/v1/operator/routing/presence', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status }),
    }),
  /** Passes a session on (the holder, or an admin); the note becomes an internal note of the session. */
  transfer: (api: ApiClient, sessionId: string, request: TransferRequest) =>
    api.json<unknown>(`/api/v1/operator/routing/handoffs/${encodeURIComponent(sessionId)}/transfer`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    }),
};
