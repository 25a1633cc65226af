/** An element with attributes and, optionally, its text (never HTML: sites may require Trusted Types). */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An inline SVG icon of one path, hidden from assistive technology (its button has the name). */
export function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const shape = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  shape.setAttribute('fill', 'currentColor');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}

/** The chat bubble icon of the launcher, and the paper clip of the attach button. */
export const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';
export const CLIP_ICON =
  'M16.5 6.5 8.4 14.6a1.5 1.5 0 0 0 2.1 2.1l8.1-8.1a3 3 0 0 0-4.2-4.2l-8.3 8.3a4.5 4.5 0 0 0 6.4 6.4l7.4-7.4 1.4 1.4-7.4 7.4a6.5 6.5 0 0 1-9.2-9.2l8.3-8.3a5 5 0 0 1 7 7l-8.1 8.1a3.5 3.5 0 0 1-4.9-4.9l8.1-8.1z';

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]])/g;

/**
 * A message's text as the chat page shows it: line breaks kept (CSS `pre-wrap`), `code`, **bold**
 * and web links made into elements; `{{name.ext}}` replaced by `file(name)` when it gives one.
 */
export function appendRichText(parent: HTMLElement, text: string, file: (name: string) => Node | null): void {
  const parts = text.split(/\{\{([^{}\n]+)\}\}/);
  parts.forEach((part, index) => {
    const placed = index % 2 === 1 ? file(part) : null;
    if (index % 2 === 1) {
      parent.append(placed ?? `{{${part}}}`);
      return;
    }
    let last = 0;
    for (const match of part.matchAll(INLINE)) {
      if (match.index > last) parent.append(part.slice(last, match.index));
      const [all, code, bold, url] = match;
      if (code) parent.append(element('code', {}, code.slice(1, -1)));
      else if (bold) parent.append(element('strong', {}, bold.slice(2, -2)));
      else if (url)
        parent.append(element('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url));
      last = match.index + all.length;
    }
    if (last < part.length) parent.append(part.slice(last));
  });
}

/** Runs `then` once the next frame has been painted (the second animation frame after now). */
export function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(then));
}
