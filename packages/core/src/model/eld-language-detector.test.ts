import { describe, expect, it } from 'vitest';
import { eldLanguageDetector } from './eld-language-detector.js';

describe('eldLanguageDetector: the default identifier, offline', () => {
  it('tells Italian from English in short customer messages', async () => {
    const detect = (text: string) => eldLanguageDetector.detect(text, ['it', 'en']);
    expect(await detect('dove si trova il mio ordine?')).toBe('it');
    expect(await detect('vorrei restituire il casco')).toBe('it');
    expect(await detect('where is my order?')).toBe('en');
    expect(await detect('I want to return the helmet')).toBe('en');
  });

  it('chooses only among the candidates: a Spanish message in an it/en tree is one of them', async () => {
    expect(['it', 'en']).toContain(await eldLanguageDetector.detect('¿dónde está mi pedido?', ['it', 'en']));
    expect(await eldLanguageDetector.detect('¿dónde está mi pedido?', ['es', 'en'])).toBe('es');
  });

  it('matches a regional candidate by its primary language', async () => {
    expect(await eldLanguageDetector.detect('where is my order?', ['it-IT', 'en-GB'])).toBe('en-GB');
  });

  it('a message that shows no language gives null', async () => {
    expect(await eldLanguageDetector.detect('👍', ['it', 'en'])).toBeNull();
    expect(await eldLanguageDetector.detect('12345', ['it', 'en'])).toBeNull();
  });
});
