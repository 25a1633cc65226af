import type { WebhookDeadLettersResponse, WebhookRetryResponse } from '../../../src/api-types';
import type { ApiClient } from './api-client';

/** The handoff webhook's calls (`/api/v1/operator/webhook…`: the server's webhook routes), for admins. */
export const webhookApi = {
  /** The handoff webhook's counts and dead letters. */
  deadLetters: (api: ApiClient) =>
    api.json<WebhookDeadLettersResponse>('/api/v1/operator/webhook/dead-letters'),
  /** Puts a dead-lettered webhook event back in line. */
  retryDeadLetter: (api: ApiClient, eventId: string) =>
    api.json<WebhookRetryResponse>(
      `/api/v1/operator/webhook/dead-letters/${encodeURIComponent(eventId)}/retry`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({}) },
    ),
};
