import { TreeAgentError } from '@treeagent/core';
import type { IngestDocument } from '@treeagent/core/ingest';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import { htmlToText } from './html-to-text.js';

export interface ReadDocxOptions {
  /** The document's name across runs (its path): the chunks' `_source`. */
  source: string;
  /** What chunks cite (default none); a heading's anchor is appended (`manual.docx#returns`). */
  url?: string;
}

/**
 * Reads a Word document (.docx) with mammoth: headings (Word's Heading 1–6 styles) become the
 * heading path, each with an anchor (its bookmark, else made from its text); the title is the
 * first heading, else the file name.
 *
 * @example
 * const document = await readDocx(readFileSync('manual.docx'), { source: 'manual.docx' });
 */
export async function readDocx(data: Uint8Array, options: ReadDocxOptions): Promise<IngestDocument> {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(data) })).value;
  } catch (error) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Cannot read the Word document ${options.source}: ${(error as Error).message}. Give a .docx file (Word 2007 or later; an old .doc must be saved as .docx first).`,
      { cause: error },
    );
  }
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const text = htmlToText(document.body, { slugAnchors: true });
  const heading = document.querySelector('h1,h2,h3')?.textContent?.trim();
  const title = heading || (options.source.split(/[\\/]/).pop() ?? options.source);
  return { source: options.source, title, text, ...(options.url ? { url: options.url } : {}) };
}
