import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { type IngestDocument, TreeAgentError } from '@treeagent/core';

/** File types `ingest` reads. */
export const DOCUMENT_EXTENSIONS = ['.txt', '.md', '.markdown', '.pdf'];

/**
 * Reads the documents to ingest: files, or every supported file under a folder. Each document's
 * `source` is its path relative to `base`, so re-running from the same place finds its chunks again.
 * PDF text is extracted with pdf.js (`pdfjs-dist`), page by page.
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
    const text = extname(file).toLowerCase() === '.pdf' ? await pdfText(file) : readFileSync(file, 'utf8');
    documents.push({ source, text });
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

async function pdfText(file: string): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    const document = await getDocument({
      data: new Uint8Array(readFileSync(file)),
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(
        content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : '')).join(''),
      );
    }
    await document.destroy();
    return pages.join('\n\n');
  } catch (error) {
    throw new TreeAgentError('INVALID_INPUT', `Cannot read the PDF ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
