import { TreeAgentError } from '@treeagent/core';

/**
 * Decodes an HTML page's bytes by its character set, as browsers do: a byte-order mark, else the
 * `Content-Type` header's `charset`, else a `<meta charset>` (or `http-equiv` Content-Type) in the
 * first 1024 bytes, else UTF-8. An unknown label is ignored (TextDecoder knows the WHATWG labels).
 *
 * @example
 * decodeHtml(bytes, 'text/html; charset=iso-8859-1'); // "Caffè", not "Caff\uFFFD"
 */
export function decodeHtml(bytes: Uint8Array, contentType = ''): string {
  const label =
    byteOrderMark(bytes) ?? knownLabel(charsetIn(contentType)) ?? knownLabel(metaCharset(bytes)) ?? 'utf-8';
  return new TextDecoder(label).decode(bytes);
}

/**
 * Decodes a text document (.txt, .md, .html) that must be text: one with NUL bytes or that is not
 * valid UTF-8 (or the `charset` it declares) is refused with `INVALID_INPUT` naming the file, so a
 * binary file with a text extension is not indexed as replacement characters.
 */
export function decodeTextDocument(name: string, bytes: Uint8Array, html = false): string {
  if (bytes.includes(0))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${name} is not text: it contains NUL bytes (a binary file with a text extension?). Give the document in its real format (.pdf, .docx…) or as UTF-8 text.`,
    );
  const declared = html ? (byteOrderMark(bytes) ?? knownLabel(metaCharset(bytes))) : byteOrderMark(bytes);
  try {
    return new TextDecoder(declared ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${name} is not valid ${declared ?? 'UTF-8'} text (a binary file, or another encoding?): save it as UTF-8${html ? ', or declare its charset with <meta charset>' : ''}.`,
    );
  }
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function charsetIn(text: string): string | undefined {
  return /charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text)?.[1];
}

/** The charset a `<meta>` in the first 1024 bytes declares. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  for (const meta of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const label = charsetIn(meta);
    // A page that says UTF-16 in ASCII bytes is not UTF-16 (WHATWG): read it as UTF-8.
    if (label) return /^utf-16/i.test(label) ? 'utf-8' : label;
  }
  return undefined;
}

function knownLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}
