import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findUiStrings, scanComponents } from './ui-strings.js';

const WEB = join(import.meta.dirname, '../../packages/server/web/src');

describe('the web app’s components take every user-visible text from the catalogs', () => {
  it('has no string literal in JSX text or in title, placeholder, aria-label, alt, label (file:line and the text)', () => {
    const found = scanComponents(WEB);
    expect(found.map((string) => `${string.at} ${string.where}: ${JSON.stringify(string.text)}`)).toEqual([]);
  });

  it('reports JSX text, literals shown as children, and the attributes users read, with their line', () => {
    const source = [
      'export function Bar({ busy, name }: { busy: boolean; name: string }) {',
      "  const t = useT('chat');",
      '  return (',
      '    <div class="bar" data-x="not read" title="Close it">',
      '      Hello there',
      "      {busy ? 'Sending…' : t('send')}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of the component under test, as written
      "      <input placeholder={`Write to ${name}`} aria-label={t('label')} />",
      "      <img alt='' src=\"/a.png\" /> · {'—'} Tree Agent",
      '      <pre>context.sessionState.serialize()</pre>',
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    expect(findUiStrings('chat/bar.tsx', source)).toEqual([
      { at: 'chat/bar.tsx:4', text: 'Close it', where: 'attribute title' },
      { at: 'chat/bar.tsx:5', text: 'Hello there', where: 'text' },
      { at: 'chat/bar.tsx:6', text: 'Sending…', where: 'expression' },
      { at: 'chat/bar.tsx:7', text: 'Write to', where: 'attribute placeholder' },
    ]);
  });
});
