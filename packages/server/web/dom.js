/** Small DOM helpers: elements are built with `h()`, never from HTML strings. */

/**
 * Creates an element. `props`: `class`, `text`, `dataset`, `on<Event>` handlers, `aria-*`/other
 * attributes (strings), and properties such as `hidden`, `disabled`, `type`, `value`.
 * Children: nodes, strings, or falsy values (skipped); arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    else if (key === 'text') element.textContent = String(value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key in element && !key.includes('-')) element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** An inline SVG icon from the sprite in index.html. */
export function icon(name, label) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', `icon icon-${name}`);
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', `#i-${name}`);
  svg.append(use);
  return svg;
}

/** Milliseconds as a short human text: `0.42 ms`, `12 ms`, `1.3 s`. */
export function formatMs(ms) {
  if (typeof ms !== 'number' || Number.isNaN(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A byte count as a short human text. */
export function formatBytes(bytes) {
  if (typeof bytes !== 'number') return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A similarity with three decimals. */
export function formatSimilarity(value) {
  return typeof value === 'number' ? value.toFixed(3) : '—';
}

/** JSON shown in a `<pre>`, with keys, strings, numbers and literals coloured by CSS. */
export function jsonBlock(value, label) {
  const pre = h('pre', { class: 'json', tabIndex: 0, 'aria-label': label ?? 'JSON' });
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  const token = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  let last = 0;
  for (const match of text.matchAll(token)) {
    if (match.index > last) pre.append(text.slice(last, match.index));
    const [all, string, colon, literal, number] = match;
    if (string !== undefined) {
      pre.append(h('span', { class: colon ? 'j-key' : 'j-str', text: string }));
      if (colon) pre.append(colon);
    } else if (literal !== undefined) pre.append(h('span', { class: 'j-lit', text: literal }));
    else if (number !== undefined) pre.append(h('span', { class: 'j-num', text: number }));
    last = match.index + all.length;
  }
  if (last < text.length) pre.append(text.slice(last));
  return pre;
}

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]])/g;

/**
 * Appends a message text: line breaks kept (CSS `pre-wrap`), `code`, **bold** and links made
 * into elements. Never interprets HTML.
 */
export function appendRichText(parent, text) {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const [all, code, bold, url] = match;
    if (code) parent.append(h('code', { text: code.slice(1, -1) }));
    else if (bold) parent.append(h('strong', { text: bold.slice(2, -2) }));
    else if (url)
      parent.append(h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: url }));
    last = match.index + all.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

/** Removes every child of an element. */
export function clear(element) {
  element.replaceChildren();
  return element;
}
