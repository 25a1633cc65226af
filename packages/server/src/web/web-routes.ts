import { resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { MiddlewareHandler } from 'hono';
import { isOpenAiPath } from '../errors/error-response.js';

/** Options of the web page the server hosts (the chat client lives in `packages/server/web/`). */
export interface WebOptions {
  /** Directory of the page's static files; `/` serves its `index.html`. */
  directory: string;
}

/**
 * Serves the web page's static files (GET and HEAD), `/` being `index.html`. Requests under
 * `/api` and `/v1` never reach the files; paths with `..` are refused by `serveStatic`.
 */
export function webPage(options: WebOptions): MiddlewareHandler {
  const files = serveStatic({ root: resolve(options.directory), index: 'index.html' });
  return (c, next) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/') || isOpenAiPath(path)) return next();
    return files(c, next);
  };
}
