import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { type RetrievedChunk, TreeAgentError } from '@treeagent/core';
import type { KnowledgeSource, KnowledgeSourceKind } from '@treeagent/core/adapter';
import { embedTexts } from '@treeagent/core/adapter';
import { checkAddress } from '../crawl/address-guard.js';
import { deletePageChunks, storedIds } from './source-chunks.js';
import { type SourcesContext, unknownSource } from './sources-context.js';

/** A source to add: what to read, into which query node, and how often. */
export interface NewSource {
  kind: KnowledgeSourceKind;
  /** The start URL (`crawl`), the sitemap's URL (`sitemap`) or the file's path (`file`). */
  location: string;
  /** The query node (id) whose collection receives the chunks. */
  nodeId: number;
  /** Refreshed every this many minutes (at least 5); absent or `null`: on demand only. */
  refreshMinutes?: number | null;
  /** Crawl options: maxPages, maxDepth, include, exclude, hosts, concurrency, delayMs, mainContent; for a file, its `name`. */
  options?: Record<string, unknown>;
}

const CRAWL_OPTIONS = new Set([
  'maxPages',
  'maxDepth',
  'include',
  'exclude',
  'hosts',
  'concurrency',
  'delayMs',
  'timeoutMs',
  'maxBytes',
  'mainContent',
  'name',
]);

/**
 * Adds a source (status `new`; nothing is read until `refreshSource`). Checks what can be checked
 * now: a query node of the tree, an http(s) URL whose host may be fetched, a refresh period of at
 * least 5 minutes, known options. Errors say which field is wrong and how to fix it.
 */
export async function addSource(input: NewSource, context: SourcesContext): Promise<KnowledgeSource> {
  const node = context.tree.nodes.get(input.nodeId);
  if (node?.type !== 'query')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Node ${input.nodeId} is not a query node of the tree "${context.tree.name}": a source's chunks go into a query node's collection.`,
    );
  if (!['crawl', 'sitemap', 'file'].includes(input.kind))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The kind "${input.kind}" is unknown: give crawl, sitemap or file.`,
    );
  let location = input.location.trim();
  if (input.kind === 'file') location = resolve(location);
  else {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `"${input.location}" is not a URL: give an address with http:// or https://, such as https://help.example.com/ (a file is a source of kind file).`,
      );
    }
    url.hash = '';
    await checkAddress(url, context.addressPolicy);
    location = url.href;
  }
  const minutes = input.refreshMinutes ?? null;
  if (minutes !== null && (!Number.isInteger(minutes) || minutes < 5))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `refreshMinutes is ${minutes}: give a whole number of minutes, at least 5, or none to refresh on demand.`,
    );
  const options = input.options ?? {};
  const unknown = Object.keys(options).filter((key) => !CRAWL_OPTIONS.has(key));
  if (unknown.length)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Unknown source option(s) ${unknown.join(', ')}: the options are ${[...CRAWL_OPTIONS].join(', ')}.`,
    );
  const source: KnowledgeSource = {
    id: randomUUID(),
    kind: input.kind,
    location,
    nodeId: input.nodeId,
    collection: `${context.tree.name}:${input.nodeId}`,
    options,
    refreshMinutes: minutes,
    status: 'new',
    createdAt: (context.now ?? (() => new Date()))(),
    refreshedAt: null,
    error: null,
    pages: 0,
    chunks: 0,
  };
  await context.sourceStore.saveSource(source);
  return source;
}

/** Deletes a source and every chunk it put in the collection. Resolves to how many pages it had. */
export async function removeSource(id: string, context: SourcesContext): Promise<number> {
  const source = await context.sourceStore.getSource(id);
  if (!source) throw unknownSource(id);
  const pages = await context.sourceStore.listPages(id);
  const ids = pages.length ? await storedIds(context, source) : new Set<string>();
  for (const page of pages) await deletePageChunks(context, source, page.url, ids);
  await context.sourceStore.deleteSource(id);
  return pages.length;
}

/**
 * What a query node would retrieve for a message: the message embedded with the agent's embedder and
 * searched in the node's collection with the node's `chunkQty` and `threshold` when its `query` is
 * static (defaults 3 and 0.25 otherwise, or as given).
 */
export async function searchSources(
  message: string,
  nodeId: number,
  context: SourcesContext,
  options: { limit?: number; threshold?: number } = {},
): Promise<RetrievedChunk[]> {
  const node = context.tree.nodes.get(nodeId);
  if (node?.type !== 'query')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Node ${nodeId} is not a query node of the tree "${context.tree.name}": search a query node's collection.`,
    );
  const query = node.definition.type === 'query' ? node.definition.query : undefined;
  const fixed =
    query && typeof query === 'object' ? (query as { chunkQty?: number; threshold?: number }) : {};
  const [vector] = await embedTexts(context.embedder, [message], context.embeddingCache);
  return context.vectorStore.search({
    collection: `${context.tree.name}:${nodeId}`,
    vector: vector!,
    limit: options.limit ?? fixed.chunkQty ?? 3,
    threshold: options.threshold ?? fixed.threshold ?? 0.25,
  });
}
