/** A piece of a document ready to be embedded. */
export interface TextPiece {
  text: string;
  /** The Markdown heading path the piece sits under (`Resi > Rimborsi`), when there is one. */
  heading?: string;
  /** The anchor of the piece's nearest heading, from a `{#anchor}` at the end of the heading line. */
  anchor?: string;
  /** The page (from 1) of the piece, when the text marks its pages with form feeds (`\f`). */
  page?: number;
}

export interface SplitOptions {
  /** Longest piece, in characters. Default 800. */
  maxChars?: number;
  /** Characters repeated from the end of one piece at the start of the next. Default 100. */
  overlap?: number;
}

/** A paragraph of its own standing for a page break (a form feed, which `trim` would remove). */
const PAGE_BREAK = '\uE000';

interface Section {
  heading: string;
  anchor: string;
  body: string;
}

/**
 * Splits plain text or Markdown into pieces for retrieval: by Markdown sections first (each piece
 * keeps its heading path, and the anchor of a heading written `## Title {#anchor}`), then by
 * paragraphs, then by sentences, so that no piece exceeds `maxChars`; long runs are cut with some
 * overlap so no sentence is lost at a boundary. A text whose pages are separated by form feeds
 * (`\f`, as PDF text is) gives each piece its page: no piece spans a page break.
 */
export function splitText(text: string, options: SplitOptions = {}): TextPiece[] {
  const maxChars = options.maxChars ?? 800;
  const overlap = Math.min(options.overlap ?? 100, Math.floor(maxChars / 2));
  const normalized = text.replace(/\r\n?/g, '\n');
  const paged = normalized.includes('\f');
  let page = 1;
  const pieces: TextPiece[] = [];
  for (const section of sections(normalized.replace(/\f/g, `\n\n${PAGE_BREAK}\n\n`))) {
    let current = '';
    let currentPage = page;
    const flush = () => {
      if (current.trim())
        pieces.push({
          text: current.trim(),
          ...(section.heading ? { heading: section.heading } : {}),
          ...(section.anchor ? { anchor: section.anchor } : {}),
          ...(paged ? { page: currentPage } : {}),
        });
      current = '';
    };
    for (const paragraph of section.body
      .split(/\n{2,}/)
      .map((item) => item.trim())
      .filter(Boolean)) {
      if (paragraph === PAGE_BREAK) {
        flush();
        page++;
        continue;
      }
      for (const unit of paragraph.length > maxChars
        ? sentences(paragraph, maxChars, overlap)
        : [paragraph]) {
        if (current && current.length + unit.length + 2 > maxChars) flush();
        if (!current) currentPage = page;
        current = current ? `${current}\n\n${unit}` : unit;
      }
    }
    flush();
  }
  return pieces;
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  const trail: string[] = [];
  let body: string[] = [];
  let heading = '';
  let anchor = '';
  for (const line of text.split('\n')) {
    const match = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) {
      body.push(line);
      continue;
    }
    out.push({ heading, anchor, body: body.join('\n') });
    body = [];
    const titled = /^(.*?)\s*\{#([^\s{}]+)\}$/.exec(match[2]!);
    anchor = titled ? titled[2]! : '';
    trail.length = match[1]!.length - 1;
    trail[match[1]!.length - 1] = titled ? titled[1]! : match[2]!;
    heading = trail.filter(Boolean).join(' > ');
  }
  out.push({ heading, anchor, body: body.join('\n') });
  return out.filter((section) => section.body.trim());
}

/** Sentences grouped up to `maxChars`; a single sentence longer than that is cut with overlap. */
function sentences(paragraph: string, maxChars: number, overlap: number): string[] {
  const parts = paragraph.match(/[^.!?…]+[.!?…]+["')\]]*\s*|[^.!?…]+$/g) ?? [paragraph];
  const out: string[] = [];
  for (const sentence of parts.map((part) => part.trim()).filter(Boolean)) {
    if (sentence.length <= maxChars) {
      out.push(sentence);
      continue;
    }
    for (let start = 0; start < sentence.length; start += maxChars - overlap) {
      out.push(sentence.slice(start, start + maxChars));
      if (start + maxChars >= sentence.length) break;
    }
  }
  return out;
}
