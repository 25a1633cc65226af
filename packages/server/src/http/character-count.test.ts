import { describe, expect, it } from 'vitest';
import { characterCount } from './character-count.js';

describe('characterCount', () => {
  it('counts code points: an emoji or a character beyond the BMP is one, accents and CJK one each', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('perché')).toBe(6);
    expect(characterCount('🚲🚲🚲')).toBe(3);
    expect(characterCount('東京 🚲!')).toBe(5);
    expect(characterCount('𝒳')).toBe(1);
  });

  it('counts a lone surrogate as one (it is not half of a pair)', () => {
    expect(characterCount('a\ud800b')).toBe(3);
    expect(characterCount('\udc00\ud800')).toBe(2);
  });
});
