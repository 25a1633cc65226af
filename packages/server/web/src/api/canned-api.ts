import type { CannedResponseView } from '../../../src/api-types';
import type { ApiClient } from './api-client';

const base = '/api/v1/operator/canned';

/** What an admin writes of a canned response. */
export interface CannedResponseInput {
  shortcut: string;
  team: string | null;
  text: string;
}

function send(api: ApiClient, method: string, path: string, body: CannedResponseInput) {
  return api.json<{ response: CannedResponseView }>(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Canned responses (`/api/v1/operator/canned`: operators read, admins change). */
export const cannedApi = {
  list: (api: ApiClient) => api.json<{ responses: CannedResponseView[] }>(base),
  create: (api: ApiClient, body: CannedResponseInput) => send(api, 'POST', base, body),
  update: (api: ApiClient, id: string, body: CannedResponseInput) =>
    send(api, 'PUT', `${base}/${encodeURIComponent(id)}`, body),
  remove: async (api: ApiClient, id: string): Promise<void> => {
    await api.request(`${base}/${encodeURIComponent(id)}`, { method: 'DELETE' });
  },
};
