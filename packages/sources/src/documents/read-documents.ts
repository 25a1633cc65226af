import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { IngestDocument } from '@treeagent/core/ingest';
import { readDocx } from './read-docx.js';
import { readHtml } from './read-html.js';
import { readPdfText } from './read-pdf.js';

/** File types `readDocuments` (and `treeagent ingest`) read. */
export const DOCUMENT_EXTENSIONS = ['.txt', '.md', '.markdown', '.pdf', '.html', '.htm', '.docx'];

/**
 * Reads one document from its bytes, by its file name's extension: text and Markdown as they are,
 * PDF page by page (each chunk keeps its `page`), HTML's main content and Word (.docx) with their
 * title and headings (each chunk keeps its heading path and `anchor`).
 */
export async function readDocument(name: string, data: Uint8Array, source = name): Promise<IngestDocument> {
  const extension = extname(name).toLowerCase();
  switch (extension) {
    case '.txt':
    case '.md':
    case '.markdown':
      return { source, text: new TextDecoder().decode(data) };
    case '.pdf':
      return { source, text: await readPdfText(data, name) };
    case '.html':
    case '.htm':
      return readHtml(new TextDecoder().decode(data), { source }).document;
    case '.docx':
      return readDocx(data, { source });
    default:
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${name} is not a document type that can be read (supported: ${DOCUMENT_EXTENSIONS.join(', ')}).`,
      );
  }
}

/**
 * Reads the documents to ingest: files, or every supported file under a folder. Each document's
 * `source` is its path relative to `base`, so re-running from the same place finds its chunks again.
 */
export async function readDocuments(
  paths: readonly string[],
  base = process.cwd(),
): Promise<IngestDocument[]> {
  const files: string[] = [];
  for (const path of paths) collect(resolve(path), files);
  if (!files.length)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `No documents found in ${paths.join(', ')} (supported: ${DOCUMENT_EXTENSIONS.join(', ')}).`,
    );
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
