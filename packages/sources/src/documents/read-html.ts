import { Readability } from '@mozilla/readability';
import type { IngestDocument } from '@treeagent/core/ingest';
import { parseHTML } from 'linkedom';
import { htmlToText } from './html-to-text.js';

/** What `readHtml` found in a page: the document to ingest and what a crawler follows. */
export interface HtmlPage {
  /** The main content as text with its headings (`source`, `title`, `url` set). */
  document: IngestDocument;
  title: string;
  /** `<link rel="canonical">`, resolved against the page's URL; `null` when absent. */
  canonical: string | null;
  /** Every `<a href>` of the whole page (navigation included), resolved, fragments dropped. */
  links: string[];
  /** `<meta name="robots">` says `noindex` (do not store) / `nofollow` (do not follow its links). */
  noindex: boolean;
  nofollow: boolean;
}

export interface ReadHtmlOptions {
  /** The document's name across runs (its URL or path): the chunks' `_source`. */
  source: string;
  /** The page's address: links and the canonical URL are resolved against it; chunks cite it. */
  url?: string;
  /**
   * Keep only the main content (Mozilla's Readability drops navigation, footers, sidebars). Default
   * true; when Readability finds no article, the whole `<body>` is read.
   */
  mainContent?: boolean;
}

/**
 * Reads an HTML page or file with a DOM parser (linkedom): its title (the first `<h1>`, else
 * `<title>`), its main content as text with headings and their anchors (`## Refunds {#refunds}`,
 * so chunks cite `url#refunds`), its canonical URL, links and robots meta.
 *
 * @example
 * const page = readHtml(html, { source: 'https://help.example/returns', url: 'https://help.example/returns' });
 * await ingestDocuments([page.document], { tree, nodeId: 3, vectorStore, embedder });
 */
export function readHtml(html: string, options: ReadHtmlOptions): HtmlPage {
  // Text without a single element (or nothing at all) parses to a document without <html>, which
  // neither Readability nor the text walk can read: give it a body.
  let { document } = parseHTML(html);
  if (!document.documentElement)
    ({ document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`));
  const base = options.url;
  const resolve = (href: string | null | undefined): string | null => {
    if (!href?.trim()) return null;
    try {
      return base ? new URL(href.trim(), base).href : new URL(href.trim()).href;
    } catch {
      return null;
    }
  };
  const canonical = resolve(document.querySelector('link[rel~="canonical"]')?.getAttribute('href'));
  const links = new Set<string>();
  const anchors = document.querySelectorAll('a[href]') as unknown as ArrayLike<{
    getAttribute(name: string): string | null;
  }>;
  for (const anchor of Array.from(anchors)) {
    const link = resolve(anchor.getAttribute('href'));
    if (link && /^https?:/.test(link)) links.add(link.replace(/#.*$/, ''));
  }
  const robots = (
    document.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? ''
  ).toLowerCase();
  const heading = document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
  const title =
    heading || document.querySelector('title')?.textContent?.replace(/\s+/g, ' ').trim() || options.source;
  let text = '';
  if (options.mainContent !== false) {
    const article = mainArticle(document);
    if (article?.content)
      text = htmlToText(
        parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document.body,
      );
  }
  if (!text.trim()) text = htmlToText(document.body ?? document);
  return {
    document: { source: options.source, title, text, ...(base ? { url: base } : {}) },
    title,
    canonical,
    links: [...links],
    noindex: /\bnoindex\b|\bnone\b/.test(robots),
    nofollow: /\bnofollow\b|\bnone\b/.test(robots),
  };
}

/** Readability's article, or `null` when it finds none or cannot read the page (the whole body is read then). */
function mainArticle(document: ReturnType<typeof parseHTML>['document']): { content?: string | null } | null {
  try {
    return new Readability(
      document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0],
      {
        keepClasses: false,
      },
    ).parse();
  } catch {
    return null;
  }
}
