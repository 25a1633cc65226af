import { describe, expect, it } from 'vitest';
import {
  AttachmentTooLargeError,
  optionOfAnswer,
  readBodyWithin,
  refuseDeclaredOver,
  splitText,
} from './channel.js';

/** An answer whose body streams `chunks` pieces of 1 KiB (endless when `chunks` is Infinity), counting those read. */
function streamedAnswer(chunks: number, headers: Record<string, string> = {}) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(1024).fill(state.pulled % 256));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), state };
}

describe('readBodyWithin: a user’s file read to at most maxBytes', () => {
  it('stops an endless body just past maxBytes and cancels it, never holding more', async () => {
    const { response, state } = streamedAnswer(Number.POSITIVE_INFINITY);
    const error = await readBodyWithin(response, 10 * 1024, 'file F1').catch((caught) => caught);
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect(error.maxBytes).toBe(10 * 1024);
    expect(error.bytes).toBeNull();
    expect(error.message).toContain('file F1');
    // The stream's queue reads ahead by at most a piece or two.
    expect(state.pulled).toBeLessThanOrEqual(13);
    expect(state.cancelled).toBe(true);
  });

  it('refuses a body whose Content-Length is over maxBytes without reading it', async () => {
    const { response, state } = streamedAnswer(100, { 'content-length': String(100 * 1024) });
    const error = await readBodyWithin(response, 1024, 'file F2').catch((caught) => caught);
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect(error.bytes).toBe(100 * 1024);
    expect(state.pulled).toBeLessThanOrEqual(1);
    expect(state.cancelled).toBe(true);
  });

  it('reads a body within maxBytes whole, byte for byte; without maxBytes, any size', async () => {
    const exact = await readBodyWithin(streamedAnswer(3).response, 3 * 1024, 'file F3');
    expect(exact.byteLength).toBe(3 * 1024);
    expect([exact[0], exact[1024], exact[2048]]).toEqual([1, 2, 3]);
    expect((await readBodyWithin(streamedAnswer(50).response, undefined, 'file F4')).byteLength).toBe(
      50 * 1024,
    );
    expect((await readBodyWithin(new Response(null), 10, 'file F5')).byteLength).toBe(0);
  });
});

describe('refuseDeclaredOver: a size the platform declared, checked before the download', () => {
  it('throws for a declared size over maxBytes, as a number or a numeric string', () => {
    const error = (() => {
      try {
        refuseDeclaredOver('file F6', 1000, 1001);
      } catch (caught) {
        return caught as AttachmentTooLargeError;
      }
    })();
    expect(error).toBeInstanceOf(AttachmentTooLargeError);
    expect(error?.bytes).toBe(1001);
    expect(error?.message).toContain('file F6');
    expect(() => refuseDeclaredOver('file F7', 1000, '2048')).toThrow(AttachmentTooLargeError);
  });

  it('lets through a size within maxBytes, a missing or unreadable size, and any size without maxBytes', () => {
    for (const declared of [1000, 0, undefined, null, '', 'many', Number.NaN, { size: 5000 }])
      expect(() => refuseDeclaredOver('file F8', 1000, declared)).not.toThrow();
    expect(() => refuseDeclaredOver('file F9', undefined, 10 ** 12)).not.toThrow();
  });
});

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
