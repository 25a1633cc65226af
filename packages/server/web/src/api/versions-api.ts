import type {
  EnvironmentState,
  ExperimentResponse,
  PublishResponse,
  VersionDiffResponse,
  VersionsResponse,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The tree's versions and environments (`/api/v1/versions`, admins only; docs/versions.md). */
export const versionsApi = {
  list: (api: ApiClient) => api.json<VersionsResponse>('/api/v1/versions'),
  diff: (api: ApiClient, from: string, to: string) =>
    api.json<VersionDiffResponse>(
      `/api/v1/versions/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    ),
  environments: (api: ApiClient) =>
    api.json<{ tree: string; environments: EnvironmentState[] }>('/api/v1/versions/environments'),
  publish: (api: ApiClient, environment: string, version: string, message: string) =>
    api.json<PublishResponse>('/api/v1/versions/publish', post({ environment, version, message })),
  rollback: (api: ApiClient, environment: string) =>
    api.json<{ rolledBack: boolean; from: string; versionId: string }>(
      '/api/v1/versions/rollback',
      post({ environment }),
    ),
  promote: (api: ApiClient, environment: string, version: string, message: string) =>
    api.json<{ promoted: boolean; environment: string; versionId: string; experiment: string }>(
      `/api/v1/versions/experiments/${encodeURIComponent(environment)}/promote`,
      post({ version, message }),
    ),
  experiment: (api: ApiClient, environment: string) =>
    api.json<ExperimentResponse>(`/api/v1/versions/experiments/${encodeURIComponent(environment)}`),
};
