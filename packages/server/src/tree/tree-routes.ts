import { Hono } from 'hono';
import { z } from 'zod';
import type { RouteResponse } from '../api-types.js';
import { invalidRequest, notFound } from '../errors/api-error.js';
import { characterCount } from '../http/character-count.js';
import { readJson, validate } from '../http/read-json.js';
import type { Services } from '../services.js';
import { describeTree } from './tree-view.js';

/** Default and largest page of `GET /tree`. */
export const TREE_PAGE_DEFAULT = 1000;
export const TREE_PAGE_MAX = 5000;

const TreeQuery = z.strictObject({
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(TREE_PAGE_MAX).optional(),
});

const RouteBody = z.strictObject({
  text: z.string().min(1),
  startNodeId: z.number().int().optional(),
});

/**
 * `GET /tree?offset=&limit=`: one page of the effective tree for the tree view, nodes in depth-first
 * order (`limit` default 1000, at most 5000; `nextOffset` is the next page's `offset`, `null` at the
 * end), with `totalNodes` and `totalChunks`; chunk texts only in debug mode. Under `/api`, so it
 * needs the API key when keys are configured.
 * `POST /route` `{ text, startNodeId? }` (debug only): where exploration takes `text` on a fresh
 * session, with every explore decision. No callback runs and no session changes.
 */
export function treeRoutes(services: Services): Hono {
  const routes = new Hono();

  routes.get('/tree', (c) => {
    const query = validate(TreeQuery, c.req.query(), 'query');
    return c.json(
      describeTree(services.agent.tree, {
        chunks: services.debug,
        offset: query.offset ?? 0,
        limit: query.limit ?? TREE_PAGE_DEFAULT,
      }),
    );
  });

  routes.post('/route', async (c) => {
    if (!services.debug) {
      throw notFound('POST /api/v1/route is available only when the server runs with debug: true.');
    }
    const { text, startNodeId } = await readJson(c, RouteBody);
    const { maxMessageLength } = services.limits;
    if (characterCount(text) > maxMessageLength)
      throw invalidRequest(`The text is longer than ${maxMessageLength} characters.`);
    if (startNodeId !== undefined && !services.agent.tree.has(startNodeId)) {
      throw invalidRequest(`There is no node ${startNodeId} in the tree.`, { startNodeId });
    }
    const result = await services.agent.route(text, startNodeId);
    const route: RouteResponse = {
      nodeId: result.node.id,
      nodeType: result.node.type,
      nodeName: result.node.name ?? null,
      noMatch: result.noMatch,
      decisions: result.decisions,
    };
    return c.json(route);
  });

  return routes;
}
