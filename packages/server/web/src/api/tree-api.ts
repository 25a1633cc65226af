import type { RouteResponse, TreeView } from '../../../src/api-types';
import { tOf } from '../i18n/use-t';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';

/** The effective tree's calls (`/api/v1/tree`, `/api/v1/route`: the server's tree routes). */
export const treeApi = {
  /**
   * The whole effective tree (chunk texts in debug mode), read page by page from `GET /api/v1/tree`
   * (`pageSize` nodes at a time, 5000 at most). Pages of a tree that changed meanwhile (a reload
   * of `treeagent dev`) are not mixed: the reading starts again, three times at most.
   */
  async tree(api: ApiClient, pageSize = 5000): Promise<TreeView> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const first = await api.json<TreeView>(`/api/v1/tree?offset=0&limit=${pageSize}`);
      const nodes = [...first.nodes];
      let next = first.nextOffset;
      while (next !== null) {
        const page = await api.json<TreeView>(`/api/v1/tree?offset=${next}&limit=${pageSize}`);
        if (page.contentHash !== first.contentHash) break;
        nodes.push(...page.nodes);
        next = page.nextOffset;
      }
      if (next === null) return { ...first, nodes, offset: 0, nextOffset: null };
    }
    throw new ApiError(0, 'TREE_CHANGED', tOf('tree')('changing'));
  },

  /** `POST /api/v1/route` (debug only): where `text` would go on a fresh session. */
  route(api: ApiClient, text: string, startNodeId?: number): Promise<RouteResponse> {
    return api.json<RouteResponse>('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(startNodeId === undefined ? { text } : { text, startNodeId }),
    });
  },
};
