import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import {
  addSource,
  DOCUMENT_EXTENSIONS,
  refreshSource,
  removeSource,
  type SourcesContext,
  searchSources,
} from '@treeagent/sources';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { readJson } from '../http/read-json.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { SourcesOptions } from './sources-options.js';

const NewSourceBody = z.strictObject({
  kind: z.enum(['crawl', 'sitemap']),
  location: z.string().min(1).max(2000),
  nodeId: z.number().int(),
  refreshMinutes: z.number().int().min(5).max(525_600).nullable().optional(),
  options: z
    .strictObject({
      maxPages: z.number().int().min(1).max(100_000).optional(),
      maxDepth: z.number().int().min(0).max(50).optional(),
      include: z.array(z.string().min(1).max(500)).max(50).optional(),
      exclude: z.array(z.string().min(1).max(500)).max(50).optional(),
      delayMs: z.number().int().min(0).max(60_000).optional(),
      concurrency: z.number().int().min(1).max(8).optional(),
    })
    .optional(),
});
const SearchBody = z.strictObject({
  message: z.string().min(1).max(2000),
  nodeId: z.number().int(),
  limit: z.number().int().min(1).max(50).optional(),
});

/** The `SourcesContext` of a server: its agent's tree, stores and embedder. */
export function sourcesContext(services: Services, options: SourcesOptions): SourcesContext {
  const agent = services.agent;
  return {
    tree: agent.tree,
    sourceStore: options.store,
    vectorStore: agent.vectorStore,
    embedder: agent.embedder,
    embeddingCache: agent.embeddingCache,
    addressPolicy: { allowPrivateHosts: options.allowPrivateHosts ?? [] },
    // An uploaded file is read again on refresh: under the limit it was accepted with.
    ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.contact ? { contact: options.contact } : {}),
  };
}

/**
 * `/api/v1/sources` (docs/knowledge.md), behind the operator login (mounted by `createApp`): an
 * operator lists sources, their pages and searches the collections; an admin adds (URL, sitemap or
 * uploaded file), refreshes and deletes them. Changes are audited.
 */
export function sourcesRoutes(services: Services, options: SourcesOptions): Hono {
  const routes = new Hono();
  const admin = services.operatorAuth.require('admin');
  const context = () => sourcesContext(services, options);
  const refreshing = new Map<string, Promise<unknown>>();
  const refreshLater = (id: string) => {
    if (refreshing.has(id)) return;
    refreshing.set(
      id,
      refreshSource(id, context())
        .catch((error) => services.logger.error(`Refreshing knowledge source ${id} failed`, error))
        .finally(() => refreshing.delete(id)),
    );
  };

  routes.get('/', async (c) => c.json({ sources: await options.store.listSources() }));

  routes.get('/:id/pages', async (c) => {
    const source = await options.store.getSource(c.req.param('id'));
    if (!source) throw new ApiError(404, 'NOT_FOUND', `There is no knowledge source "${c.req.param('id')}".`);
    return c.json({ source, pages: await options.store.listPages(source.id) });
  });

  routes.post('/search', async (c) => {
    const body = await readJson(c, SearchBody);
    const chunks = await searchSources(
      body.message,
      body.nodeId,
      context(),
      body.limit ? { limit: body.limit } : {},
    );
    return c.json({
      chunks: chunks.map((chunk) => ({
        id: chunk.id,
        text: chunk.text,
        similarity: chunk.similarity,
        title: typeof chunk.extra.title === 'string' ? chunk.extra.title : null,
        url: typeof chunk.extra.url === 'string' ? chunk.extra.url : null,
        heading: typeof chunk.extra.heading === 'string' ? chunk.extra.heading : null,
        source: typeof chunk.extra._source === 'string' ? chunk.extra._source : null,
      })),
    });
  });

  routes.post('/', admin, async (c) => {
    const body = await readJson(c, NewSourceBody);
    const source = await addSource(
      {
        kind: body.kind,
        location: body.location,
        nodeId: body.nodeId,
        refreshMinutes: body.refreshMinutes ?? null,
        options: body.options ?? {},
      },
      context(),
    );
    await services.operatorAuth.audit(operatorOf(c), 'sources.add', {
      detail: { sourceId: source.id, kind: source.kind, location: source.location },
    });
    refreshLater(source.id);
    return c.json({ source }, 201);
  });

  routes.post('/files', admin, async (c) => {
    if (!options.fileDirectory)
      throw new ApiError(
        501,
        'NOT_CONFIGURED',
        'File sources need sources.fileDirectory in the server options (where uploaded files are kept).',
      );
    const name = basename(c.req.query('name') ?? '');
    const nodeId = Number(c.req.query('nodeId'));
    if (!name)
      throw invalidRequest(
        `Send the file's bytes as the body, and its name as ?name= (ending in ${DOCUMENT_EXTENSIONS.join(', ')}): this route takes no multipart form.`,
      );
    if (!DOCUMENT_EXTENSIONS.includes(extname(name).toLowerCase()))
      throw invalidRequest(
        `The file name "${name.slice(0, 200)}" has no supported extension: give ?name= ending in ${DOCUMENT_EXTENSIONS.join(', ')}.`,
      );
    if (!Number.isInteger(nodeId)) throw invalidRequest('Give the query node as ?nodeId=<id>.');
    const limit = options.maxFileBytes ?? 10 * 1024 * 1024;
    const data = new Uint8Array(await c.req.arrayBuffer());
    if (data.byteLength > limit)
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The file is ${data.byteLength} bytes, over the limit of ${limit} (sources.maxFileBytes).`,
        {
          details: { maxBytes: limit },
        },
      );
    if (!data.byteLength) throw invalidRequest('The file is empty: send its bytes as the request body.');
    // Private to the server's user, as the rest of the data directory: the folder 0700, the file 0600.
    mkdirSync(options.fileDirectory, { recursive: true, mode: 0o700 });
    chmodSync(options.fileDirectory, 0o700);
    const path = join(options.fileDirectory, `${randomUUID()}${extname(name).toLowerCase()}`);
    writeFileSync(path, data, { mode: 0o600 });
    let source: Awaited<ReturnType<typeof addSource>>;
    try {
      source = await addSource({ kind: 'file', location: path, nodeId, options: { name } }, context());
    } catch (error) {
      // Refused (not a query node…): the upload is not kept.
      rmSync(path, { force: true });
      throw error;
    }
    const { source: read } = await refreshSource(source.id, context());
    if (read.status === 'failed') {
      // A file that cannot be read (corrupt PDF, binary behind a text extension…) would stay a failed
      // source no refresh can mend: nothing is kept, and the uploader is told why.
      await removeSource(source.id, context());
      rmSync(path, { force: true });
      throw invalidRequest(`The file "${name}" cannot be read, so it was not added: ${read.error}`);
    }
    await services.operatorAuth.audit(operatorOf(c), 'sources.add', {
      detail: { sourceId: source.id, kind: 'file', location: name },
    });
    return c.json({ source: read }, 201);
  });

  routes.post('/:id/refresh', admin, async (c) => {
    const id = c.req.param('id');
    if (!(await options.store.getSource(id)))
      throw new ApiError(404, 'NOT_FOUND', `There is no knowledge source "${id}".`);
    await refreshing.get(id);
    const report = await refreshSource(id, context());
    await services.operatorAuth.audit(operatorOf(c), 'sources.refresh', { detail: { sourceId: id } });
    return c.json(report);
  });

  routes.delete('/:id', admin, async (c) => {
    const id = c.req.param('id');
    const source = await options.store.getSource(id);
    if (!source) throw new ApiError(404, 'NOT_FOUND', `There is no knowledge source "${id}".`);
    await refreshing.get(id);
    const pages = await removeSource(id, context());
    // A file uploaded here goes with its source; a file the CLI named (the user's own) stays.
    if (source.kind === 'file' && options.fileDirectory && isInside(source.location, options.fileDirectory))
      rmSync(source.location, { force: true });
    await services.operatorAuth.audit(operatorOf(c), 'sources.remove', { detail: { sourceId: id, pages } });
    return c.json({ removed: id, pages });
  });
  return routes;
}

/** Whether `path` lies inside `directory` (not the directory itself, nor outside it through `..`). */
function isInside(path: string, directory: string): boolean {
  const inner = relative(resolve(directory), resolve(path));
  return inner !== '' && !inner.startsWith('..') && !inner.startsWith('/');
}

/** `/api/v1/sources` without the option `sources`: 501 `NOT_CONFIGURED` for every request. */
export function notConfiguredRoutes(): Hono {
  return new Hono().all('*', () => {
    throw new ApiError(
      501,
      'NOT_CONFIGURED',
      'Knowledge sources need the server option sources.store (treeagent dev and serve set it).',
    );
  });
}
