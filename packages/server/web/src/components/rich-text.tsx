import type { ComponentChild } from 'preact';

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]])/g;

/**
 * A message text: line breaks kept (CSS `pre-wrap`), `code`, **bold** and links made into
 * elements. Never interprets HTML.
 */
export function richText(text: string): ComponentChild[] {
  const parts: ComponentChild[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [all, code, bold, url] = match;
    if (code) parts.push(<code>{code.slice(1, -1)}</code>);
    else if (bold) parts.push(<strong>{bold.slice(2, -2)}</strong>);
    else if (url)
      parts.push(
        <a href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>,
      );
    last = match.index + all.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
