import { describe, expect, it } from 'vitest';
import { optionOfAnswer, splitText } from './channel.js';

describe('splitText: a text in platform messages', () => {
  it('cuts at a line or word break, each piece within the length', () => {
    const text = `${'word '.repeat(30)}\n${'more '.repeat(30)}`;
    const pieces = splitText(text, 100);
    expect(pieces.every((piece) => piece.length <= 100)).toBe(true);
    expect(pieces.join(' ').replace(/\s+/g, ' ').trim()).toBe(text.replace(/\s+/g, ' ').trim());
    // At the line break (the first piece ends where the words end), no piece starts with a space.
    expect(pieces[1]).toBe('word '.repeat(10).trim());
    expect(pieces.every((piece) => !piece.startsWith(' '))).toBe(true);
  });

  it('never cuts an emoji in two (its surrogate pair stays whole)', () => {
    const text = `a${'🚲'.repeat(3000)}`;
    const pieces = splitText(text, 4096);
    expect(pieces.length).toBe(2);
    expect(pieces.every((piece) => piece.length <= 4096)).toBe(true);
    expect(pieces.join('')).toBe(text);
    // No lone surrogate at either end of a piece (what arrives as U+FFFD).
    for (const piece of pieces) expect(encodeURIComponent(piece)).toBeTruthy();
  });

  it('only the last piece keeps to the shorter limit of a message with buttons', () => {
    const text = 'x '.repeat(5000).trim(); // 9,999 characters
    const pieces = splitText(text, 4096, 1024);
    // Two full pieces, then what is left cut to 1,024: not ten pieces of 1,024.
    expect(pieces.slice(0, 2).every((piece) => piece.length > 3000)).toBe(true);
    expect(pieces.at(-1)!.length).toBeLessThanOrEqual(1024);
    expect(pieces.length).toBeLessThanOrEqual(5);
    expect(pieces.join(' ')).toBe(text);
    expect(splitText('short', 4096, 1024)).toEqual(['short']);
    expect(splitText('', 4096, 1024)).toEqual(['']);
  });
});

describe('optionOfAnswer', () => {
  it('reads a number of the list or an option written out', () => {
    expect(optionOfAnswer(' 2 ', ['Orders', 'Returns'])).toBe('Returns');
    expect(optionOfAnswer('returns', ['Orders', 'Returns'])).toBe('Returns');
    expect(optionOfAnswer('3', ['Orders', 'Returns'])).toBeNull();
  });
});
