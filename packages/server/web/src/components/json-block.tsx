import type { ComponentChild } from 'preact';

const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** JSON in a `<pre>` (titled `label`), with keys, strings, numbers and literals coloured by CSS. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  const parts: ComponentChild[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [all, string, colon, literal, number] = match;
    if (string !== undefined) {
      parts.push(<span class={colon ? 'j-key' : 'j-str'}>{string}</span>);
      if (colon) parts.push(colon);
    } else if (literal !== undefined) parts.push(<span class="j-lit">{literal}</span>);
    else if (number !== undefined) parts.push(<span class="j-num">{number}</span>);
    last = match.index + all.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <pre class="json" title={label}>
      {parts}
    </pre>
  );
}
