import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeEmbedder } from '../conformance/embedder-conformance.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Embedder } from './embedder.js';
import { HashedEmbedder, tokenize } from './hashed-embedder.js';
import { cosineSimilarity, norm } from './vector-math.js';

const embedder = new HashedEmbedder();
const sim = (a: string, b: string, e: HashedEmbedder = embedder) =>
  cosineSimilarity(e.embedOne(a), e.embedOne(b));
const nonZero = (v: Float32Array) => Array.from(v.keys()).filter((i) => v[i] !== 0);

describe('tokenize', () => {
  it('folds case and accents and splits on anything but letters and digits', () => {
    expect(tokenize("Perché l'IVA è al 22%?")).toEqual(['perche', 'l', 'iva', 'e', 'al', '22']);
    expect(tokenize('  Città, PIÙ   caffè!! ')).toEqual(['citta', 'piu', 'caffe']);
    expect(tokenize('ﬁne—naïve')).toEqual(['fine', 'naive']);
    expect(tokenize(' ?! ')).toEqual([]);
  });
});

describe('HashedEmbedder', () => {
  it('implements Embedder and returns one Float32Array per text, in order', () => {
    const asEmbedder: Embedder = embedder;
    const texts = ['ciao', 'vorrei un reso', 'hello world'];
    const vectors = embedder.embed(texts);
    expect(asEmbedder.dimensions).toBe(embedder.dimensions);
    expect(vectors).toHaveLength(3);
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toEqual(embedder.embedOne(texts[i]!));
    });
  });

  it('is deterministic across instances', () => {
    const text = 'Vorrei restituire un prodotto difettoso';
    expect(new HashedEmbedder().embedOne(text)).toEqual(new HashedEmbedder().embedOne(text));
    expect(embedder.embedOne(text)).toEqual(embedder.embedOne(text));
  });

  it('keeps its hashing stable (bump the id version if this changes)', () => {
    const e = new HashedEmbedder({ dimensions: 1024, wordNgrams: [1, 1], charNgrams: [3, 3] });
    const v = e.embedOne('ciao'); // word "ciao" + "<ci", "cia", "iao", "ao>"
    expect(nonZero(v).map((i) => [i, Math.sign(v[i]!)])).toEqual([
      [240, 1],
      [265, -1],
      [835, 1],
      [949, -1],
      [986, 1],
    ]);
  });

  it('gives cosine 1 for the same text and unit-length vectors', () => {
    expect(sim('Dove si trova il mio ordine?', 'Dove si trova il mio ordine?')).toBeCloseTo(1, 6);
    for (const text of ['a', 'come faccio il reso di un articolo?', 'what is my credit score right now']) {
      expect(norm(embedder.embedOne(text))).toBeCloseTo(1, 5);
    }
  });

  it('is accent-, case- and punctuation-insensitive', () => {
    expect(embedder.embedOne('Perché non funziona?')).toEqual(embedder.embedOne('perche non funziona'));
    expect(embedder.embedOne('Qual è la CITTÀ più vicina')).toEqual(
      embedder.embedOne('qual e la citta piu vicina'),
    );
    expect(embedder.embedOne('RESET My Password')).toEqual(embedder.embedOne('reset my password'));
  });

  it('ranks related Italian sentences above unrelated ones', () => {
    const related = sim('vorrei restituire un prodotto', 'come posso restituire il prodotto?');
    const unrelated = sim('vorrei restituire un prodotto', 'che tempo fa domani a Milano?');
    expect(related).toBeGreaterThan(0.4);
    expect(unrelated).toBeLessThan(0.15);
  });

  it('ranks related English sentences above unrelated ones', () => {
    const related = sim('how do I reset my password', 'I forgot my password, can I reset it?');
    const unrelated = sim('how do I reset my password', "what's the weather like in London tomorrow");
    expect(related).toBeGreaterThan(0.4);
    expect(unrelated).toBeLessThan(0.15);
  });

  it('matches inflected forms through character n-grams, not through words alone', () => {
    const wordsOnly = new HashedEmbedder({ charNgrams: false });
    expect(sim('spedizione gratuita', 'spedizioni gratuite')).toBeGreaterThan(0.5);
    expect(sim('spedizione gratuita', 'spedizioni gratuite', wordsOnly)).toBeLessThan(0.05);
  });

  it('uses word bigrams, so word order matters only when they are on', () => {
    const unigrams = new HashedEmbedder({ wordNgrams: [1, 1], charNgrams: false });
    const bigrams = new HashedEmbedder({ wordNgrams: [1, 2], charNgrams: false });
    expect(sim('cane morde uomo', 'uomo morde cane', unigrams)).toBeCloseTo(1, 6);
    expect(sim('cane morde uomo', 'uomo morde cane', bigrams)).toBeLessThan(0.8);
  });

  it('applies sublinear term frequency (1 + ln tf)', () => {
    const e = new HashedEmbedder({ dimensions: 1 << 20, wordNgrams: [1, 1], charNgrams: false });
    const [alpha] = nonZero(e.embedOne('alpha'));
    const [beta] = nonZero(e.embedOne('beta'));
    const v = e.embedOne('alpha beta alpha alpha alpha');
    expect(Math.abs(v[alpha!]! / v[beta!]!)).toBeCloseTo(1 + Math.log(4), 5);
  });

  it('uses signed hashing (both signs appear)', () => {
    const v = embedder.embedOne('the quick brown fox jumps over the lazy dog');
    expect(v.some((x) => x > 0)).toBe(true);
    expect(v.some((x) => x < 0)).toBe(true);
  });

  it('returns a zero vector, never NaN, for text without letters or digits', () => {
    for (const text of ['', '   ', '?!…']) {
      const v = embedder.embedOne(text);
      expect(v).toHaveLength(embedder.dimensions);
      expect(v.every((x) => x === 0)).toBe(true);
      expect(cosineSimilarity(v, embedder.embedOne('ciao'))).toBe(0);
      expect(cosineSimilarity(v, v)).toBe(0);
    }
  });

  it('respects the configured dimensions', () => {
    for (const dimensions of [1, 300, 1024, 4096]) {
      const e = new HashedEmbedder({ dimensions });
      expect(e.dimensions).toBe(dimensions);
      expect(e.embedOne('vorrei un reso')).toHaveLength(dimensions);
    }
  });

  it('encodes the version and every option in its id', () => {
    expect(new HashedEmbedder().id).toBe(embedder.id);
    expect(embedder.id).toMatch(/^hashed-v1:/);
    const explicit = new HashedEmbedder({
      dimensions: 2048,
      wordNgrams: [1, 2],
      charNgrams: [2, 4],
      wordWeight: 2,
    });
    expect(explicit.id).toBe('hashed-v1:d=2048:w=1-2:c=2-4:ww=2');
    const variants = [
      {},
      { dimensions: 1024 },
      { wordNgrams: [1, 3] as const },
      { wordNgrams: false as const },
      { charNgrams: [2, 5] as const },
      { charNgrams: false as const },
      { wordWeight: 0.5 },
    ];
    const ids = new Set(variants.map((options) => new HashedEmbedder(options).id));
    expect(ids.size).toBe(variants.length);
  });

  it('embedSparse gives the non-zero entries of embedOne, bit for bit', () => {
    const options = [{}, { dimensions: 64 }, { wordNgrams: false as const, charNgrams: [2, 3] as const }];
    const texts = fc.sample(
      fc.oneof(
        fc.string(),
        fc
          .array(fc.constantFrom('reso', 'Perché', 'ordine', 'the', 'à', '42', '!'), { maxLength: 12 })
          .map((w) => w.join(' ')),
      ),
      { numRuns: 300, seed: 16 },
    );
    for (const option of options) {
      const hashed = new HashedEmbedder(option);
      for (const text of [...texts, '', '!!!', 'a a a a a a a a']) {
        const dense = hashed.embedOne(text);
        const sparse = hashed.embedSparse(text);
        const at = nonZero(dense);
        expect(Array.from(sparse.indices), text).toEqual(at);
        expect(Array.from(sparse.values), text).toEqual(at.map((i) => dense[i]!));
      }
    }
  });

  it('rejects invalid options', () => {
    const bad = [
      { dimensions: 0 },
      { dimensions: 10.5 },
      { wordNgrams: [0, 2] as const },
      { charNgrams: [5, 3] as const },
      { wordWeight: 0 },
    ];
    for (const options of bad) {
      expect(() => new HashedEmbedder(options)).toThrow(TreeAgentError);
    }
  });
});

describe('HashedEmbedder with a language', () => {
  const italian = new HashedEmbedder({ language: 'it' });

  it('has its own space id, so caches and fits of two languages never mix', () => {
    expect(italian.id).toBe(`${embedder.id}:lang=it`);
    expect(new HashedEmbedder({ language: 'es' }).id).not.toBe(italian.id);
  });

  it('brings inflected forms and elided words together that words as written keep apart', () => {
    const a = "vorrei annullare l'ordine della bicicletta";
    const b = 'annullo gli ordini delle biciclette';
    expect(sim(a, b, italian)).toBeGreaterThan(sim(a, b) + 0.05);
    // and an unrelated message stays unrelated
    expect(sim(a, 'quanto costa la spedizione in Sicilia', italian)).toBeLessThan(0.2);
  });

  it('embeds sparse exactly as it embeds dense', () => {
    const text = "Dov'è il mio ordine? Perché non arriva?";
    const dense = italian.embedOne(text);
    const sparse = italian.embedSparse(text);
    const rebuilt = new Float32Array(italian.dimensions);
    sparse.indices.forEach((at, k) => {
      rebuilt[at] = sparse.values[k]!;
    });
    expect(rebuilt).toEqual(dense);
  });

  it('rejects a language it cannot analyse, naming the ones it can', () => {
    expect(() => new HashedEmbedder({ language: 'xx' as 'it' })).toThrow(/'it', 'es', 'fr', 'de', 'pt'/);
  });
});

const LOCAL = 'local and synchronous: it answers before a signal could abort anything';

describeEmbedder('HashedEmbedder', async () => ({ embedder: new HashedEmbedder() }), {
  skip: [{ reason: LOCAL, tests: ['an aborted signal rejects the call with its reason'] }],
});

describeEmbedder(
  'HashedEmbedder (Italian)',
  async () => ({ embedder: new HashedEmbedder({ language: 'it' }) }),
  {
    skip: [{ reason: LOCAL, tests: ['an aborted signal rejects the call with its reason'] }],
  },
);
