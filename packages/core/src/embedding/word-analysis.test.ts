import { describe, expect, it } from 'vitest';
import { type AnalysedLanguage, analyseWords } from './word-analysis.js';

// Per language: an elision (where the language writes them), accents folded, inflections of one
// word stemmed alike, stop words dropped.
const cases: Record<
  AnalysedLanguage,
  {
    elided?: [string, string];
    accented: [string, string];
    inflected: string[];
    stopWords: [string, string[]];
  }
> = {
  it: {
    elided: ["dell'ordine", 'ordine'],
    accented: ['perché città', 'perche citta'],
    inflected: ['ordine', 'ordini', 'ordinare', 'ordinato'],
    stopWords: ['vorrei il mio ordine con la bici', ['vorrei', 'ordine', 'bici']],
  },
  fr: {
    elided: ["l'annulation", 'annulation'],
    accented: ['livrée à Québec', 'livree a Quebec'],
    inflected: ['commande', 'commandes', 'commander', 'commandé'],
    stopWords: ['je voudrais la commande de mon vélo', ['voudrais', 'commande', 'vélo']],
  },
  es: {
    accented: ['devolución rápida', 'devolucion rapida'],
    inflected: ['pedido', 'pedidos', 'pedir'],
    stopWords: ['quiero el pedido de mi bicicleta', ['quiero', 'pedido', 'bicicleta']],
  },
  pt: {
    accented: ['devolução rápida', 'devolucao rapida'],
    inflected: ['encomenda', 'encomendas', 'encomendar'],
    stopWords: ['quero a encomenda da minha bicicleta', ['quero', 'encomenda', 'bicicleta']],
  },
  de: {
    accented: ['Rückgabe möglich', 'Ruckgabe moglich'],
    inflected: ['Bestellung', 'Bestellungen', 'bestellen'],
    stopWords: ['ich möchte die Bestellung für mein Fahrrad', ['möchte', 'Bestellung', 'Fahrrad']],
  },
};

describe.each(Object.entries(cases) as [AnalysedLanguage, (typeof cases)[AnalysedLanguage]][])(
  'analyseWords(%s)',
  (language, { elided, accented, inflected, stopWords }) => {
    it.runIf(elided)('drops the elided article before an apostrophe', () => {
      const [withElision, bare] = elided!;
      expect(analyseWords(withElision, language)).toEqual(analyseWords(bare, language));
      expect(analyseWords(withElision, language)).toHaveLength(1);
    });

    it('folds accents before stemming, so a word typed without them stems alike', () => {
      const words = analyseWords(accented[0], language);
      expect(words.join(' ')).toMatch(/^[a-z ]+$/);
      expect(words).toEqual(analyseWords(accented[1], language));
    });

    it('stems the inflections of a word to one word', () => {
      const stems = new Set(inflected.flatMap((word) => analyseWords(word, language)));
      expect([...stems]).toHaveLength(1);
    });

    it('drops stop words and keeps the content words', () => {
      const [text, content] = stopWords;
      expect(analyseWords(text, language)).toEqual(content.map((word) => analyseWords(word, language)[0]));
    });
  },
);

describe('analyseWords', () => {
  it('keeps the stop words of a message made only of them, so it still says something', () => {
    expect(analyseWords('dove?', 'it')).toHaveLength(1);
    expect(analyseWords('', 'it')).toEqual([]);
  });

  it('splits on apostrophes it does not know as elisions, keeping both words', () => {
    expect(analyseWords("rock'and'roll", 'it')).toEqual(['rock', 'and', 'roll']);
  });
});
