import { describe, expect, it } from 'vitest';
import {
  callbackChoices,
  findingsOf,
  isLinkName,
  linesOf,
  numberOrUndefined,
  parseChunkExtra,
  sectionsOf,
  updateChunkAt,
  withEntry,
} from './node-form-model';

describe('the node form model', () => {
  it('changes one chunk, writing a chunk with nothing but text back as a string', () => {
    const chunks = ['hello', { text: 'bye', forRag: true }, { text: 'keep', extra: { lang: 'en' } }];
    expect(updateChunkAt(chunks, 0, (chunk) => ({ ...chunk, forRag: true }))).toEqual([
      { text: 'hello', forRag: true },
      chunks[1],
      chunks[2],
    ]);
    const { forRag: _dropped, ...plain } = chunks[1] as { text: string; forRag: boolean };
    expect(updateChunkAt(chunks, 1, () => plain)).toEqual(['hello', 'bye', chunks[2]]);
    expect(updateChunkAt(chunks, 2, (chunk) => ({ ...chunk, text: 'kept' }))[2]).toEqual({
      text: 'kept',
      extra: { lang: 'en' },
    });
  });

  it("reads a chunk's extra: blank removes it, an object is kept, anything else names the chunk and the form", () => {
    expect(parseChunkExtra('  ', 0)).toEqual({ extra: undefined });
    expect(parseChunkExtra('{"lang":"it"}', 0)).toEqual({ extra: { lang: 'it' } });
    for (const typed of ['[1]', 'null', '"x"', '{lang', '5'])
      expect(parseChunkExtra(typed, 2)).toEqual({
        error: 'The extra of chunk 3 is not a JSON object: write it as {"key": "value"}.',
      });
  });

  it('splits pasted lines, trimmed, without blanks; a blank threshold is inherited', () => {
    expect(linesOf(' one \n\n two\n   \nthree')).toEqual(['one', 'two', 'three']);
    expect(numberOrUndefined(' ')).toBeUndefined();
    expect(numberOrUndefined('0.42')).toBe(0.42);
  });

  it('sets and removes a callback or link, dropping the map when it empties', () => {
    expect(withEntry({ before: 'a' }, 'after', 'b')).toEqual({ before: 'a', after: 'b' });
    expect(withEntry({ before: 'a', after: 'b' }, 'after', '')).toEqual({ before: 'a' });
    expect(withEntry({ next: 3 }, 'next', undefined)).toBeUndefined();
    expect(callbackChoices(['a', 'b'], 'gone')).toEqual(['a', 'b', 'gone']);
    expect(callbackChoices(['a', 'b'], 'a')).toEqual(['a', 'b']);
    expect(callbackChoices(['a'], undefined)).toEqual(['a']);
  });

  it('accepts identifiers as link names only', () => {
    expect(['next', '_back', '$x', 'step2'].every(isLinkName)).toBe(true);
    expect(['2step', 'a-b', '', 'a b'].some(isLinkName)).toBe(false);
  });

  it('lists errors before warnings, and gives each type its sections', () => {
    expect(
      findingsOf(
        [{ nodeId: 1, message: 'broken', fix: 'mend it' }] as never,
        [{ nodeId: 1, message: 'odd', fix: 'look' }] as never,
      ),
    ).toEqual([
      { kind: 'error', message: 'broken', fix: 'mend it' },
      { kind: 'warning', message: 'odd', fix: 'look' },
    ]);
    expect(sectionsOf('emit')).toEqual({ routing: true, chunks: true, links: true });
    expect(sectionsOf('root')).toEqual({ routing: true, chunks: false, links: true });
    for (const type of ['component', 'head', 'tail'])
      expect(sectionsOf(type)).toEqual({ routing: false, chunks: false, links: false });
  });
});
