import type { ApiClient } from './api-client';

/** An operator's presence: `online` gets new conversations and alerts, `away` keeps theirs, `offline` neither. */
export type PresenceStatusName = 'online' | 'away' | 'offline';

/** `GET /api/v1/operator/routing/presence`. */
export interface PresenceResponse {
  presence: { operatorId: string; name: string; teams: string[]; status: PresenceStatusName; at: string }[];
  teams: { team: string; policy: string; open: boolean }[];
}

/** Teams and presence (`/api/v1/operator/routing`, operators). */
export const routingApi = {
  presence: (api: ApiClient) => api.json<PresenceResponse>('/api/v1/operator/routing/presence'),
  setPresence: (api: ApiClient, status: PresenceStatusName) =>
    api.json<unknown>('/api/v1/operator/routing/presence', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status }),
    }),
};
