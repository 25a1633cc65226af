import type { TreeDocument } from '@treeagent/core/client';
import type {
  EditorAmbiguityResponse,
  EditorCheckResponse,
  EditorChunkSuggestionsResponse,
  EditorRouteResponse,
  EditorSaveResponse,
  EditorState,
  EditorSuggestionsResponse,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';

const post = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The tree editor's calls of the HTTP API (`/api/v1/editor`, docs/editor.md). */
export const editorApi = {
  state: (api: ApiClient) => api.json<EditorState>('/api/v1/editor'),
  version: (api: ApiClient) => api.json<{ version: string }>('/api/v1/editor/version'),
  /** The version on disk now and at every change, as server-sent events (`version`). */
  events: (api: ApiClient, signal: AbortSignal) =>
    api.request('/api/v1/editor/events', { headers: { Accept: 'text/event-stream' }, signal }),
  check: (api: ApiClient, document: TreeDocument, signal?: AbortSignal) =>
    api.json<EditorCheckResponse>('/api/v1/editor/check', {
      ...post({ document }),
      ...(signal ? { signal } : {}),
    }),
  route: (api: ApiClient, document: TreeDocument, text: string) =>
    api.json<EditorRouteResponse>('/api/v1/editor/route', post({ document, text })),
  ambiguity: (api: ApiClient, document: TreeDocument, nodeId: number) =>
    api.json<EditorAmbiguityResponse>('/api/v1/editor/ambiguity', post({ document, nodeId })),
  suggestions: (api: ApiClient, document: TreeDocument) =>
    api.json<EditorSuggestionsResponse>('/api/v1/editor/suggestions', post({ document })),
  /** Chunks suggested for a node (the model's paraphrases, or unmatched messages) and the eval's change. */
  suggestChunks: (api: ApiClient, document: TreeDocument, nodeId: number) =>
    api.json<EditorChunkSuggestionsResponse>('/api/v1/editor/suggest-chunks', post({ document, nodeId })),
  save: (api: ApiClient, document: TreeDocument, baseVersion: string, force = false) =>
    api.json<EditorSaveResponse>('/api/v1/editor', post({ document, baseVersion, force }, 'PUT')),
};
