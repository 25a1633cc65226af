/** How `htmlToText` writes a heading's anchor. */
export interface HtmlToTextOptions {
  /**
   * Give a heading with no `id` (nor an `<a id|name>` inside it) an anchor made from its text
   * (`Opening hours` → `opening-hours`): right for a converted document, whose reader makes them,
   * wrong for a web page, where the link would lead nowhere. Default false.
   */
  slugAnchors?: boolean;
}

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
]);
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'button',
  'select',
  'input',
  'textarea',
]);

/** A DOM node as far as this walker needs it (linkedom's nodes, a browser's, jsdom's). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

/**
 * Writes an HTML element's text as Markdown-like text for `splitText`: headings as `#` lines with
 * their anchor (`## Refunds {#refunds}`), blocks and list items as paragraphs, table rows as cells
 * joined by ` | `, scripts and styles left out.
 */
export function htmlToText(root: DomNode, options: HtmlToTextOptions = {}): string {
  const out: string[] = [];
  let line = '';
  const used = new Set<string>();
  const endBlock = () => {
    const text = line.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (text) out.push(text);
    line = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const tag = node.nodeName.toLowerCase();
    if (SKIPPED.has(tag)) return;
    const level = /^h([1-6])$/.exec(tag);
    if (level) {
      endBlock();
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!text) return;
      const anchor = anchorOf(node) ?? (options.slugAnchors ? uniqueSlug(text, used) : null);
      if (anchor) used.add(anchor);
      out.push(`${'#'.repeat(Number(level[1]))} ${text.replace(/^#+/, '')}${anchor ? ` {#${anchor}}` : ''}`);
      return;
    }
    if (tag === 'br') {
      line += '\n';
      return;
    }
    if (tag === 'td' || tag === 'th') {
      if (line.trim()) line += ' | ';
      for (const child of Array.from(node.childNodes)) walk(child);
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) endBlock();
    if (tag === 'li') line += '- ';
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) endBlock();
  };
  walk(root);
  endBlock();
  return out.join('\n\n');
}

function anchorOf(heading: DomNode): string | null {
  const own = heading.getAttribute?.('id');
  if (own) return own;
  const stack = Array.from(heading.childNodes);
  while (stack.length) {
    const node = stack.shift()!;
    if (node.nodeType !== 1) continue;
    if (node.nodeName.toLowerCase() === 'a') {
      const named = node.getAttribute?.('id') || node.getAttribute?.('name');
      if (named) return named;
    }
    stack.push(...Array.from(node.childNodes));
  }
  return null;
}

function uniqueSlug(text: string, used: ReadonlySet<string>): string | null {
  const base = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if (!base) return null;
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}
