import type { ApiClient } from './api-client';

/** A knowledge source as `/api/v1/sources` answers it (dates as ISO strings). */
export interface SourceView {
  id: string;
  kind: 'crawl' | 'sitemap' | 'file';
  location: string;
  nodeId: number;
  options: Record<string, unknown>;
  refreshMinutes: number | null;
  status: 'new' | 'refreshing' | 'ready' | 'failed';
  createdAt: string;
  refreshedAt: string | null;
  error: string | null;
  pages: number;
  chunks: number;
}

/** A chunk the search found, with what it cites. */
export interface SourceChunkView {
  id: string | number;
  text: string;
  similarity: number | null;
  title: string | null;
  url: string | null;
  heading: string | null;
  source: string | null;
}

/** What an admin adds from the page. */
export interface NewSourceInput {
  kind: 'crawl' | 'sitemap';
  location: string;
  nodeId: number;
  refreshMinutes: number | null;
}

const json = { 'Content-Type': 'application/json' };

/** The Sources page's calls (`/api/v1/sources`), over the app's one `ApiClient`; the operator cookie is sent by the browser. */
export const sourcesApi = {
  list: (api: ApiClient) => api.json<{ sources: SourceView[] }>('/api/v1/sources'),
  add: (api: ApiClient, input: NewSourceInput) =>
    api.json<{ source: SourceView }>('/api/v1/sources', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(input),
    }),
  upload: (api: ApiClient, file: File, nodeId: number) =>
    api.json<{ source: SourceView }>(
      `/api/v1/sources/files?${new URLSearchParams({ name: file.name, nodeId: String(nodeId) })}`,
      { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file },
    ),
  refresh: (api: ApiClient, id: string) =>
    api.json<{ source: SourceView }>(`/api/v1/sources/${encodeURIComponent(id)}/refresh`, {
      method: 'POST',
      headers: json,
      body: '{}',
    }),
  remove: (api: ApiClient, id: string) =>
    api.json<{ removed: string; pages: number }>(`/api/v1/sources/${encodeURIComponent(id)}`, {
      method: 'DELETE',
    }),
  search: (api: ApiClient, message: string, nodeId: number) =>
    api.json<{ chunks: SourceChunkView[] }>('/api/v1/sources/search', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ message, nodeId }),
    }),
};
