/** A piece of a document ready to be embedded. */
export interface TextPiece {
  text: string;
  /** The Markdown heading path the piece sits under (`Resi > Rimborsi`), when there is one. */
  heading?: string;
}

export interface SplitOptions {
  /** Longest piece, in characters. Default 800. */
  maxChars?: number;
  /** Characters repeated from the end of one piece at the start of the next. Default 100. */
  overlap?: number;
}

/**
 * Splits plain text or Markdown into pieces for retrieval: by Markdown sections first (each piece
 * keeps its heading path), then by paragraphs, then by sentences, so that no piece exceeds
 * `maxChars`; long runs are cut with some overlap so no sentence is lost at a boundary.
 */
export function splitText(text: string, options: SplitOptions = {}): TextPiece[] {
  const maxChars = options.maxChars ?? 800;
  const overlap = Math.min(options.overlap ?? 100, Math.floor(maxChars / 2));
  const pieces: TextPiece[] = [];
  for (const section of sections(text.replace(/\r\n?/g, '\n'))) {
    let current = '';
    const flush = () => {
      if (current.trim())
        pieces.push({ text: current.trim(), ...(section.heading ? { heading: section.heading } : {}) });
      current = '';
    };
    for (const paragraph of section.body
      .split(/\n{2,}/)
      .map((item) => item.trim())
      .filter(Boolean)) {
      for (const unit of paragraph.length > maxChars
        ? sentences(paragraph, maxChars, overlap)
        : [paragraph]) {
        if (current && current.length + unit.length + 2 > maxChars) flush();
        current = current ? `${current}\n\n${unit}` : unit;
      }
    }
    flush();
  }
  return pieces;
}

function sections(text: string): { heading: string; body: string }[] {
  const out: { heading: string; body: string }[] = [];
  const trail: string[] = [];
  let body: string[] = [];
  let heading = '';
  for (const line of text.split('\n')) {
    const match = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) {
      body.push(line);
      continue;
    }
    out.push({ heading, body: body.join('\n') });
    body = [];
    trail.length = match[1]!.length - 1;
    trail[match[1]!.length - 1] = match[2]!;
    heading = trail.filter(Boolean).join(' > ');
  }
  out.push({ heading, body: body.join('\n') });
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
