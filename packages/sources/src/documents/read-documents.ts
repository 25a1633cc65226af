import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { IngestDocument } from '@treeagent/core/ingest';
import { decodeTextDocument } from './decode-text.js';
import { readDocx } from './read-docx.js';
import { readHtml } from './read-html.js';
import { readPdfText } from './read-pdf.js';

/** File types `readDocuments` (and `treeagent ingest`) read. */
export const DOCUMENT_EXTENSIONS = ['.txt', '.md', '.markdown', '.pdf', '.html', '.htm', '.docx'];

/** The largest file `readDocuments` and a file source read by default: 10 MiB, as the server's uploads. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/**
 * Reads one document from its bytes, by its file name's extension: text and Markdown as they are
 * (Markdown titled by its first `# ` heading), PDF page by page (each chunk keeps its `page`), HTML's
 * main content and Word (.docx) with their title and headings (each chunk keeps its heading path and
 * `anchor`). A text, Markdown or HTML file that is not text (NUL bytes, invalid UTF-8) is refused
 * with `INVALID_INPUT` naming it.
 */
export async function readDocument(name: string, data: Uint8Array, source = name): Promise<IngestDocument> {
  const extension = extname(name).toLowerCase();
  switch (extension) {
    case '.txt':
      return { source, text: decodeTextDocument(name, data) };
    case '.md':
    case '.markdown': {
      const text = decodeTextDocument(name, data);
      const title = markdownTitle(text);
      return { source, text, ...(title ? { title } : {}) };
    }
    case '.pdf':
      return { source, text: await readPdfText(data, name) };
    case '.html':
    case '.htm':
      return readHtml(decodeTextDocument(name, data, true), { source }).document;
    case '.docx':
      return readDocx(data, { source });
    default:
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${name} is not a document type that can be read (supported: ${DOCUMENT_EXTENSIONS.join(', ')}).`,
      );
  }
}

/** The first ATX heading of level 1 (`# Title`), outside fenced code; `undefined` when there is none. */
function markdownTitle(text: string): string | undefined {
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^\s{0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading) return heading[1]!.replace(/\s*\{#[^}]*\}$/, '').trim() || undefined;
  }
  return undefined;
}

/**
 * Refuses a file over `maxBytes` with `INVALID_INPUT` naming it, its size and the limit, before it
 * is read (a 70 MB text file would otherwise take gigabytes of memory and thousands of chunks).
 */
export function checkDocumentSize(name: string, bytes: number, maxBytes = MAX_DOCUMENT_BYTES): void {
  if (bytes > maxBytes)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${name} is ${bytes} bytes, over the limit of ${maxBytes} bytes (maxBytes): split it into smaller files, or raise the limit.`,
    );
}

/**
 * Reads the documents to ingest: files, or every supported file under a folder. Each document's
 * `source` is its path relative to `base`, so re-running from the same place finds its chunks again.
 * A file over `maxBytes` (default 10 MiB) is refused before anything is read.
 */
export async function readDocuments(
  paths: readonly string[],
  base = process.cwd(),
  /** `maxBytes`: the largest file read, in bytes; a bigger one is refused before it is read. Default 10 MiB. */
  options: { maxBytes?: number } = {},
): Promise<IngestDocument[]> {
  const files: string[] = [];
  for (const path of paths) collect(resolve(path), files);
  if (!files.length)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `No documents found in ${paths.join(', ')} (supported: ${DOCUMENT_EXTENSIONS.join(', ')}).`,
    );
  for (const file of files) checkDocumentSize(file, statSync(file).size, options.maxBytes);
  const documents: IngestDocument[] = [];
  for (const file of files.sort()) {
    const source = relative(base, file) || file;
    documents.push(await readDocument(file, readFileSync(file), source));
  }
  return documents;
}

function collect(path: string, files: string[]): void {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new TreeAgentError('INVALID_INPUT', `${path} does not exist.`);
  }
  if (stats.isDirectory()) {
    for (const entry of readdirSync(path)) if (!entry.startsWith('.')) collect(join(path, entry), files);
  } else if (DOCUMENT_EXTENSIONS.includes(extname(path).toLowerCase())) files.push(path);
}
