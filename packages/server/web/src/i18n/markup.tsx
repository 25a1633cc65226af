import type { ComponentChildren } from 'preact';

const TAG = /<(strong|kbd|code|em)>(.*?)<\/\1>/g;

/**
 * A catalog text with a few inline tags (`<strong>`, `<kbd>`, `<code>`, `<em>`) as Preact children;
 * everything else stays text (never parsed as HTML), so a translation can move the emphasis.
 *
 * @example
 * markup(t('emptyDebug')) // "Open <strong>Debug</strong> on any turn" → ["Open ", <strong>Debug</strong>, " on any turn"]
 */
export function markup(text: string): ComponentChildren[] {
  const children: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    if (match.index > last) children.push(text.slice(last, match.index));
    const [, tag, inner] = match as unknown as [string, 'strong' | 'kbd' | 'code' | 'em', string];
    const Tag = tag;
    children.push(<Tag key={match.index}>{inner}</Tag>);
    last = match.index + match[0].length;
  }
  if (last < text.length) children.push(text.slice(last));
  return children;
}
