import type { AnalyticsStore } from '@treeagent/core/adapter';
import type { TreeDocument } from '@treeagent/core/document';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { readJson } from '../http/read-json.js';
import type { Services } from '../services.js';
import type { TreeEditorService } from './tree-editor-service.js';

const Body = z.strictObject({
  document: z.looseObject({ nodes: z.array(z.unknown()) }),
  nodeId: z.number().int(),
});

/** Unmatched messages read for suggestions without a model (the most frequent). */
const UNMATCHED_READ = 500;

/**
 * `POST /suggest-chunks` `{ document, nodeId }` of the tree editor (mounted in its area, so admins
 * only when operators are configured, else dev's debug mode): chunks for a node — the configured
 * model's paraphrases, or without a model the unmatched messages closest to it — and the routing
 * eval without and with them (docs/editor.md, *Suggest chunks*). 422 `INVALID_TREE` when the draft
 * does not build.
 */
export function chunkSuggestionRoutes(services: Services, editor: TreeEditorService): Hono {
  const routes = new Hono();
  routes.post('/suggest-chunks', async (c) => {
    const body = await readJson(c, Body);
    const unmatched = async () => {
      const store = (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.();
      if (!store) return [];
      const messages = await store.unmatched({ limit: UNMATCHED_READ });
      return messages.map((item) => ({ message: item.message, count: item.count }));
    };
    const result = await editor.chunkSuggestions(body.document as TreeDocument, body.nodeId, unmatched);
    if (Array.isArray(result))
      throw new ApiError(
        422,
        'INVALID_TREE',
        `Chunks can be suggested for a tree that builds; the first problem: ${result[0]?.message} Fix: ${result[0]?.fix}`,
        { details: { problems: result } },
      );
    return c.json(result, 200, { 'Cache-Control': 'no-store' });
  });
  return routes;
}
