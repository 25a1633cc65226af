import type {
  CallbackDiagnostic,
  CallbacksModuleState,
  CallbacksSaveResponse,
  CallbacksTypeEnvironment,
} from '../../../src/api-types';
import type { ApiClient } from './api-client';

const BASE = '/api/v1/editor/callbacks';

/** The Callbacks panel's calls of the HTTP API (`/api/v1/editor/callbacks`, docs/editor.md). */
export const callbacksApi = {
  read: (api: ApiClient) => api.json<CallbacksModuleState>(BASE),
  /** The files and options the browser's compiler checks the module with. */
  types: (api: ApiClient) => api.json<CallbacksTypeEnvironment>(`${BASE}/types`),
  /** The TypeScript compiler the server checks with (its `typescript.js`), as text for the worker. */
  compiler: async (api: ApiClient) => (await api.request(`${BASE}/typescript.js`)).text(),
  check: (api: ApiClient, text: string) =>
    api.json<{ diagnostics: CallbackDiagnostic[] }>(`${BASE}/check`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text }),
    }),
  save: (api: ApiClient, text: string, baseVersion: string) =>
    api.json<CallbacksSaveResponse>(BASE, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text, baseVersion }),
    }),
};
