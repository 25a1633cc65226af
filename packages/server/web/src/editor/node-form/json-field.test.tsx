// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../test-support/render';
import { JsonField } from './json-field';

/** Types `text` into the textarea and commits it, as a blur does (input, then change). */
async function typeAndCommit(area: HTMLTextAreaElement, text: string) {
  await act(() => {
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(() => {
    area.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('a JSON field of the editor', () => {
  it('keeps text that does not parse, with the error, until it is fixed; then commits it', async () => {
    const committed: unknown[] = [];
    const root = await renderInApp(
      <JsonField label="Sources" value={undefined} onChange={(value) => committed.push(value)} />,
    );
    const area = root.querySelector('textarea')!;
    const typed = '[{"title": "Warranty", "url": "https://x.example/w",}]';
    await typeAndCommit(area, typed);
    expect(committed).toEqual([]);
    expect(area.value).toBe(typed);
    expect(root.querySelector('.finding.is-error')?.textContent).toMatch(/^Not JSON/);
    await typeAndCommit(area, '[{"title": "Warranty", "url": "https://x.example/w"}]');
    expect(committed).toEqual([[{ title: 'Warranty', url: 'https://x.example/w' }]]);
    expect(root.querySelector('.finding.is-error')).toBeNull();
  });
});
