import type { FileMetadata } from '../../protocol/file-metadata.js';
import type { Source } from '../../protocol/output-message.js';
import type { RetrievedChunk } from '../../protocol/retrieved-chunk.js';

/** A piece of a message as a client shows it: text, or a dynamic attachment in its place. */
export type ContentPart = { type: 'text'; text: string } | { type: 'file'; file: FileMetadata };

const PLACEHOLDER = /\{\{\s*([^{}\n]+?\.[A-Za-z0-9]+)\s*\}\}/g;

/**
 * Splits a message's text at its `{{name.ext}}` placeholders, putting the dynamic attachment with
 * that original file name in place of each one (docs/concepts.md §9, File Agent). A placeholder with no matching file stays
 * as text; a dynamic attachment that no placeholder names is not shown.
 *
 * @example
 * splitDynamicContent('Ecco la ricevuta: {{ricevuta.pdf}}', [receipt]) // [{ type: 'text', … }, { type: 'file', file: receipt }]
 */
export function splitDynamicContent(
  content: string,
  dynamicAttachments: readonly FileMetadata[],
): ContentPart[] {
  const parts: ContentPart[] = [];
  let last = 0;
  for (const match of content.matchAll(PLACEHOLDER)) {
    const file = dynamicAttachments.find((candidate) => candidate.name === match[1]!.trim());
    if (!file) continue;
    if (match.index > last) parts.push({ type: 'text', text: content.slice(last, match.index) });
    parts.push({ type: 'file', file });
    last = match.index + match[0].length;
  }
  if (last < content.length) parts.push({ type: 'text', text: content.slice(last) });
  return parts;
}

/** The file names a text refers to with `{{name.ext}}` placeholders. */
export function placeholdersIn(content: string): string[] {
  return [...content.matchAll(PLACEHOLDER)].map((match) => match[1]!.trim());
}

/**
 * Turns retrieved chunks into an emit's `sources`: the title from `extra[titleKey]` and the address
 * from `extra[urlKey]` (`title` and `url`, what ingested documents and crawled pages carry) when present.
 *
 * @example
 * emit: (self, context) => ({ message: …, sources: sourcesFromChunks(context.retrieved.get(queryId) ?? []) })
 */
export function sourcesFromChunks(
  chunks: readonly RetrievedChunk[],
  options: { titleKey?: string; urlKey?: string } = {},
): Source[] {
  const titleKey = options.titleKey ?? 'title';
  const urlKey = options.urlKey ?? 'url';
  return chunks.map((chunk) => {
    const title = chunk.extra[titleKey];
    const url = chunk.extra[urlKey];
    return {
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof url === 'string' ? { url } : {}),
      content: chunk.text,
      chunkId: chunk.id,
      extra: chunk.extra,
    };
  });
}
