import { type Tree, TreeAgentError } from '@treeagent/core';
import { defaultEmbedderFor } from '@treeagent/core/adapter';
import { ingestDocuments } from '@treeagent/core/ingest';
import { readDocuments } from '@treeagent/sources';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { progressBar } from '../progress.js';
import { defineCommand } from './command-definition.js';

export interface IngestCommandOptions {
  config?: string;
  data?: string;
  maxChars?: string;
  overlap?: string;
  maxBytes?: string;
}

/**
 * `treeagent ingest <tree> <node> <paths…>`: loads text, Markdown, PDF, HTML and Word (.docx) documents into a query
 * node's collection in the data directory; re-running writes only what changed.
 */
export async function ingestCommand(
  treePath: string,
  nodeRef: string,
  paths: string[],
  options: IngestCommandOptions,
  out: Output,
): Promise<number> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const node = findQueryNode(loaded.tree, nodeRef);
  const documents = await readDocuments(
    paths,
    undefined,
    options.maxBytes ? { maxBytes: maxBytesOf(options.maxBytes) } : {},
  );
  const data = openDataDirectory(options.data);
  try {
    const bar = progressBar('ingesting', documents.length);
    const report = await ingestDocuments(documents, {
      tree: loaded.tree,
      nodeId: node.id,
      vectorStore: data.options.vectorStore!,
      embedder: loaded.agentOptions.embedder ?? defaultEmbedderFor(loaded.tree, loaded.agentOptions.language),
      embeddingCache: data.options.embeddingCache!,
      ...(options.maxChars ? { maxChars: Number(options.maxChars) } : {}),
      ...(options.overlap ? { overlap: Number(options.overlap) } : {}),
      onProgress: (done) => bar.update(done),
    });
    bar.stop();
    out.log(
      `${report.documents} document(s) into node ${node.id}${node.name ? ` ("${node.name}")` : ''}: ${report.written} chunk(s) written, ${report.unchanged} unchanged, ${report.removed} removed (${data.file})`,
    );
    return 0;
  } finally {
    await data.close();
  }
}

function maxBytesOf(value: string): number {
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes <= 0)
    throw new TreeAgentError('INVALID_INPUT', `--max-bytes is "${value}": give a whole number of bytes.`);
  return bytes;
}

/** The query node a reference (an id or a name) names, or an error saying what to give. */
export function findQueryNode(tree: Tree, reference: string) {
  const byId = /^\d+$/.test(reference) ? tree.nodes.get(Number(reference)) : undefined;
  const node = byId ?? [...tree.nodes.values()].find((candidate) => candidate.name === reference);
  if (!node)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `There is no node "${reference}" in the tree (give a query node's id or name).`,
    );
  if (node.type !== 'query')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Node ${node.id} is ${node.type === 'llm' || /^[aeiou]/.test(node.type) ? 'an' : 'a'} ${node.type} node; documents go into a query node.`,
    );
  return node;
}

/** `treeagent ingest`: its help, arguments and options (the command table, `command-table.ts`). */
export const ingestDefinition = defineCommand({
  name: 'ingest',
  description:
    "Load text, Markdown, PDF, HTML and Word (.docx) documents into a query node's collection (SQLite in the data directory); re-runs write only what changed.",
  arguments: [
    { name: '<tree>', description: 'tree file (.ts, .js or .json)' },
    { name: '<node>', description: 'id or name of the query node' },
    { name: '<paths...>', description: 'files or folders (.txt, .md, .pdf, .html, .docx)' },
  ],
  options: [
    { flags: '--config <file>', description: 'model configuration' },
    { flags: '--data <directory>', description: 'data directory', default: '.treeagent' },
    { flags: '--max-chars <n>', description: 'longest chunk in characters', default: '800' },
    { flags: '--overlap <n>', description: 'characters repeated between consecutive chunks', default: '100' },
    { flags: '--max-bytes <n>', description: 'largest file read, in bytes (default 10 MiB)' },
  ],
  run: ([tree, node, paths], options, out) => ingestCommand(tree, node, paths, options, out),
});
