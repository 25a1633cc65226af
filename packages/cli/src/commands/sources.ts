import { existsSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import type { KnowledgeSource } from '@treeagent/core/adapter';
import { defaultEmbedderFor } from '@treeagent/core/adapter';
import {
  addSource,
  type RefreshReport,
  refreshDueSources,
  refreshSource,
  removeSource,
  type SourcesContext,
  searchSources,
} from '@treeagent/sources';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';
import { findQueryNode } from './ingest.js';

export interface SourcesCommandOptions {
  config?: string;
  data?: string;
  /** Hosts that may be internal (also `TREEAGENT_SOURCES_ALLOW_HOSTS`, comma-separated). */
  allowHost?: string[];
  contact?: string;
}

export interface SourcesAddOptions extends SourcesCommandOptions {
  sitemap?: boolean;
  every?: string;
  maxPages?: string;
  maxDepth?: string;
  include?: string[];
  exclude?: string[];
  delay?: string;
  maxBytes?: string;
  refresh?: boolean;
}

/** Opens the tree and the data directory as a `SourcesContext`, runs `body`, closes the file. */
async function withSources<T>(
  treePath: string,
  options: SourcesCommandOptions,
  body: (context: SourcesContext) => Promise<T>,
): Promise<T> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const data = openDataDirectory(options.data);
  const allow = [
    ...(options.allowHost ?? []),
    ...(process.env.TREEAGENT_SOURCES_ALLOW_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
  ];
  try {
    return await body({
      tree: loaded.tree,
      sourceStore: data.sourceStore,
      vectorStore: data.options.vectorStore!,
      embedder: loaded.agentOptions.embedder ?? defaultEmbedderFor(loaded.tree, loaded.agentOptions.language),
      embeddingCache: data.options.embeddingCache!,
      addressPolicy: { allowPrivateHosts: allow },
      ...(options.contact ? { contact: options.contact } : {}),
    });
  } finally {
    await data.close();
  }
}

/** `treeagent sources add <tree> <node> <url-or-file>`: adds a website, sitemap or file, then reads it. */
export async function sourcesAddCommand(
  treePath: string,
  nodeRef: string,
  location: string,
  options: SourcesAddOptions,
  out: Output,
): Promise<number> {
  return withSources(treePath, options, async (context) => {
    const node = findQueryNode(context.tree, nodeRef);
    const isFile = existsSync(location);
    if (!isFile && !/^[a-z][a-z0-9+.-]*:\/\//i.test(location))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `The file "${location}" does not exist: check the path (relative to ${process.cwd()}), or give a website's address with http:// or https://.`,
      );
    const kind = isFile ? 'file' : options.sitemap || /\.xml(\?|$)/i.test(location) ? 'sitemap' : 'crawl';
    const crawlOptions: Record<string, unknown> = {
      ...(options.maxPages ? { maxPages: integer(options.maxPages, '--max-pages') } : {}),
      ...(options.maxDepth ? { maxDepth: integer(options.maxDepth, '--max-depth') } : {}),
      ...(options.include?.length ? { include: options.include } : {}),
      ...(options.exclude?.length ? { exclude: options.exclude } : {}),
      ...(options.delay ? { delayMs: integer(options.delay, '--delay') } : {}),
      ...(options.maxBytes ? { maxBytes: integer(options.maxBytes, '--max-bytes') } : {}),
    };
    const source = await addSource(
      {
        kind,
        location,
        nodeId: node.id,
        refreshMinutes: options.every ? integer(options.every, '--every') : null,
        options: crawlOptions,
      },
      context,
    );
    out.log(`Added ${kind} source ${source.id} (${source.location}) for node ${node.id}.`);
    if (options.refresh === false) return 0;
    return printReport(await refreshSource(source.id, context), out);
  });
}

/** `treeagent sources list`: every source with its status, last refresh, pages, chunks and error. */
export async function sourcesListCommand(options: { data?: string }, out: Output): Promise<number> {
  const data = openDataDirectory(options.data);
  try {
    const sources = await data.sourceStore.listSources();
    if (!sources.length)
      out.log('No sources: add one with `treeagent sources add <tree> <node> <url-or-file>`.');
    for (const source of sources) out.log(describe(source));
    return 0;
  } finally {
    await data.close();
  }
}

/** `treeagent sources refresh <tree> [id]`: one source, or (without an id) every source; `--due` only the scheduled ones that are due. */
export async function sourcesRefreshCommand(
  treePath: string,
  id: string | undefined,
  options: SourcesCommandOptions & { due?: boolean },
  out: Output,
): Promise<number> {
  return withSources(treePath, options, async (context) => {
    let reports: RefreshReport[];
    if (id) reports = [await refreshSource(id, context)];
    else if (options.due) reports = await refreshDueSources(context);
    else {
      reports = [];
      for (const source of await context.sourceStore.listSources())
        reports.push(await refreshSource(source.id, context));
    }
    let code = 0;
    for (const report of reports) code = Math.max(code, printReport(report, out));
    if (!reports.length) out.log('Nothing to refresh.');
    return code;
  });
}

/** `treeagent sources remove <tree> <id>`: deletes a source and its chunks. */
export async function sourcesRemoveCommand(
  treePath: string,
  id: string,
  options: SourcesCommandOptions,
  out: Output,
): Promise<number> {
  return withSources(treePath, options, async (context) => {
    const pages = await removeSource(id, context);
    out.log(`Removed source ${id} and the chunks of its ${pages} page(s).`);
    return 0;
  });
}

/** `treeagent sources search <tree> <node> <message>`: what the query node would retrieve, with the citations. */
export async function sourcesSearchCommand(
  treePath: string,
  nodeRef: string,
  message: string,
  options: SourcesCommandOptions & { limit?: string },
  out: Output,
): Promise<number> {
  return withSources(treePath, options, async (context) => {
    const node = findQueryNode(context.tree, nodeRef);
    const chunks = await searchSources(message, node.id, context, {
      ...(options.limit ? { limit: integer(options.limit, '--limit') } : {}),
    });
    if (!chunks.length) out.log(`Node ${node.id} retrieves nothing for "${message}".`);
    for (const chunk of chunks) {
      const title = typeof chunk.extra.title === 'string' ? chunk.extra.title : '';
      const url = typeof chunk.extra.url === 'string' ? chunk.extra.url : '';
      out.log(
        `${(chunk.similarity ?? 0).toFixed(3)}  ${title}  ${url}\n       ${chunk.text.replace(/\s+/g, ' ').slice(0, 200)}`,
      );
    }
    return 0;
  });
}

/** Prints what a refresh did; 1 when the source or any of its pages could not be read (for CI). */
function printReport(report: RefreshReport, out: Output): number {
  out.log(describe(report.source));
  out.log(
    `  ${report.changed} page(s) changed (${report.written} chunk(s) written), ${report.unchanged} unchanged, ${report.removed} removed, ${report.failed.length} failed, ${report.skipped.length} skipped`,
  );
  for (const failure of report.failed) out.log(`  failed  ${failure.reason}`);
  return report.source.status === 'failed' || report.failed.length ? 1 : 0;
}

function describe(source: KnowledgeSource): string {
  const refreshed = source.refreshedAt ? source.refreshedAt.toISOString() : 'never';
  const every = source.refreshMinutes ? `every ${source.refreshMinutes} min` : 'on demand';
  return `${source.id}  ${source.kind}  ${source.status}  ${source.pages} page(s)  ${source.chunks} chunk(s)  refreshed ${refreshed} (${every})  node ${source.nodeId}  ${source.location}${source.error ? `\n  error: ${source.error}` : ''}`;
}

function integer(value: string, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new TreeAgentError('INVALID_INPUT', `${flag} is "${value}": give a whole number.`);
  return number;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const TREE = { name: '<tree>', description: 'tree file (.ts, .js or .json)' };
const DATA = { flags: '--data <directory>', description: 'data directory', default: '.treeagent' };
/** The options of every subcommand that reads the tree or fetches. */
const COMMON_OPTIONS = [
  { flags: '--config <file>', description: 'model configuration' },
  DATA,
  {
    flags: '--allow-host <host>',
    description: 'a host that may be internal (repeatable; also TREEAGENT_SOURCES_ALLOW_HOSTS)',
    parse: collect,
  },
  { flags: '--contact <url>', description: "contact page or mailto: in the crawler's user agent" },
];

/** `treeagent sources` and its subcommands (the command table, `command-table.ts`). */
export const sourcesDefinition = defineCommand({
  name: 'sources',
  description:
    'Knowledge sources of query nodes: websites (crawled or by sitemap) and files, refreshed when they change (docs/knowledge.md).',
  subcommands: [
    defineCommand({
      name: 'add',
      description: 'Add a website (start URL), a sitemap (.xml or --sitemap) or a file, then read it.',
      arguments: [
        TREE,
        { name: '<node>', description: 'id or name of the query node' },
        { name: '<location>', description: 'start URL, sitemap URL or file path' },
      ],
      options: [
        { flags: '--sitemap', description: 'the URL is a sitemap' },
        {
          flags: '--every <minutes>',
          description: 'refresh on a schedule (with `sources refresh --due` or the server)',
        },
        { flags: '--max-pages <n>', description: 'pages stored at most (default 200)' },
        { flags: '--max-depth <n>', description: 'links followed at most this deep (default 5)' },
        {
          flags: '--include <pattern>',
          description: 'store only pages whose path matches (repeatable; * matches anything)',
          parse: collect,
        },
        {
          flags: '--exclude <pattern>',
          description: 'neither store nor follow pages whose path matches (repeatable)',
          parse: collect,
        },
        { flags: '--delay <ms>', description: 'milliseconds between two requests to the site (default 250)' },
        {
          flags: '--max-bytes <n>',
          description: 'largest file (default 10 MiB) or web page (default 5 MiB) read, in bytes',
        },
        { flags: '--no-refresh', description: 'add it without reading it now' },
        ...COMMON_OPTIONS,
      ],
      run: ([tree, node, location], options, out) => sourcesAddCommand(tree, node, location, options, out),
    }),
    defineCommand({
      name: 'list',
      description: 'Every source: status, last refresh, pages, chunks, error.',
      options: [DATA],
      run: (_arguments, options, out) => sourcesListCommand(options, out),
    }),
    defineCommand({
      name: 'refresh',
      description: 'Read a source again (all of them without an id): only what changed is re-embedded.',
      arguments: [TREE, { name: '[id]', description: 'source id (from `sources list`)' }],
      options: [
        { flags: '--due', description: 'only the scheduled sources that are due (for cron)' },
        ...COMMON_OPTIONS,
      ],
      run: ([tree, id], options, out) => sourcesRefreshCommand(tree, id, options, out),
    }),
    defineCommand({
      name: 'remove',
      description: 'Delete a source and its chunks.',
      arguments: [TREE, { name: '<id>', description: 'source id (from `sources list`)' }],
      options: COMMON_OPTIONS,
      run: ([tree, id], options, out) => sourcesRemoveCommand(tree, id, options, out),
    }),
    defineCommand({
      name: 'search',
      description: 'What a query node would retrieve for a message, with titles and URLs.',
      arguments: [
        TREE,
        { name: '<node>', description: 'id or name of the query node' },
        { name: '<message>', description: 'the user message' },
      ],
      options: [
        { flags: '--limit <n>', description: "chunks shown (default: the node's chunkQty, else 3)" },
        ...COMMON_OPTIONS,
      ],
      run: ([tree, node, message], options, out) => sourcesSearchCommand(tree, node, message, options, out),
    }),
  ],
});
