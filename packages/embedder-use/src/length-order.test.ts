import { describe, expect, test } from 'vitest';
import { embedInLengthOrder } from './length-order.js';

describe('embedInLengthOrder', () => {
  test('embeds shortest first (ties in order) and gives each text its own vector back in the caller order', async () => {
    const seen: string[][] = [];
    const texts = ['a longer one', 'b', 'a mid', 'c', 'the longest text of all'];
    const vectors = await embedInLengthOrder(texts, async (sorted) => {
      seen.push([...sorted]);
      return sorted.map((text) => [text.length, text.charCodeAt(0)]);
    });
    expect(seen).toEqual([['b', 'c', 'a mid', 'a longer one', 'the longest text of all']]);
    expect(vectors).toEqual(texts.map((text) => [text.length, text.charCodeAt(0)]));
  });

  test('one text or none is passed through as it is', async () => {
    expect(await embedInLengthOrder([], async () => [])).toEqual([]);
    expect(await embedInLengthOrder(['x'], async (texts) => texts.map(() => [1]))).toEqual([[1]]);
  });
});
