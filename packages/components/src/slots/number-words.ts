/*
 * Numbers written in words, Italian and English: "quattro", "ventitré", "centoventi", "duemila",
 * "twenty-one", "one hundred and five". Used by the integer, number, date and time parsers.
 */

const IT_UNITS: Record<string, number> = {
  zero: 0,
  uno: 1,
  un: 1,
  una: 1,
  due: 2,
  tre: 3,
  quattro: 4,
  cinque: 5,
  sei: 6,
  sette: 7,
  otto: 8,
  nove: 9,
  dieci: 10,
  undici: 11,
  dodici: 12,
  tredici: 13,
  quattordici: 14,
  quindici: 15,
  sedici: 16,
  diciassette: 17,
  diciotto: 18,
  diciannove: 19,
};
const IT_TENS: [string, number][] = [
  ['venti', 20],
  ['trenta', 30],
  ['quaranta', 40],
  ['cinquanta', 50],
  ['sessanta', 60],
  ['settanta', 70],
  ['ottanta', 80],
  ['novanta', 90],
];

/** An Italian number written as one word ("trentotto", "centoventicinque", "duemila"), accents folded. */
export function italianWordNumber(word: string): number | null {
  if (word in IT_UNITS) return IT_UNITS[word]!;
  if (word === 'mille') return 1000;
  const mila = /^(.+)mila(.*)$/.exec(word);
  if (mila) {
    const thousands = italianWordNumber(mila[1]!);
    const rest = mila[2] ? italianWordNumber(mila[2]) : 0;
    return thousands !== null && thousands > 1 && rest !== null && rest < 1000
      ? thousands * 1000 + rest
      : null;
  }
  if (word.startsWith('mille')) {
    const rest = italianWordNumber(word.slice(5));
    return rest !== null && rest < 1000 ? 1000 + rest : null;
  }
  const cento = word.indexOf('cento');
  if (cento >= 0) {
    const before = word.slice(0, cento);
    const hundreds = before === '' ? 1 : italianWordNumber(before);
    if (hundreds === null || hundreds < 1 || hundreds > 9 || (before !== '' && hundreds === 1)) return null;
    const after = word.slice(cento + 5);
    const rest = after === '' ? 0 : italianWordNumber(after);
    return rest !== null && rest < 100 ? hundreds * 100 + rest : null;
  }
  for (const [tens, value] of IT_TENS) {
    // "venti", "ventuno" (elided vowel before uno/otto), "ventitre", "trentotto".
    const stem = tens.slice(0, -1);
    if (word === tens) return value;
    if (word.startsWith(tens) || word.startsWith(stem)) {
      const rest = word.startsWith(tens) ? word.slice(tens.length) : word.slice(stem.length);
      const unit = IT_UNITS[rest];
      if (unit !== undefined && unit >= 1 && unit <= 9 && rest !== 'un' && rest !== 'una') {
        const elided = !word.startsWith(tens);
        // Italian elides the vowel before "uno" and "otto" only.
        if (elided !== (rest === 'uno' || rest === 'otto')) return null;
        return value + unit;
      }
    }
  }
  return null;
}

/** English numbers of one word below twenty ("a"/"an" are one before "hundred"/"thousand"). */
export const EN_SMALL: Readonly<Record<string, number>> = {
  zero: 0,
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const EN_TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/**
 * An English number of one or more words, hyphens allowed ("twenty-one", "one hundred and five",
 * "two thousand"). `a`/`an` count only before "hundred"/"thousand".
 */
export function englishWordsNumber(words: readonly string[]): number | null {
  const parts = words.flatMap((word) => word.split('-')).filter((word) => word !== 'and');
  if (!parts.length) return null;
  let total = 0;
  let current = 0;
  let seen = false;
  for (const [index, part] of parts.entries()) {
    if ((part === 'a' || part === 'an') && !['hundred', 'thousand'].includes(parts[index + 1] ?? ''))
      return null;
    if (part in EN_SMALL) {
      if (current % 10 !== 0 && current < 100) return null;
      if (current % 100 !== 0 && EN_SMALL[part]! >= 10) return null;
      current += EN_SMALL[part]!;
    } else if (part in EN_TENS) {
      if (current % 100 !== 0) return null;
      current += EN_TENS[part]!;
    } else if (part === 'hundred') {
      if (current === 0 || current >= 10) return null;
      current *= 100;
    } else if (part === 'thousand') {
      if (current === 0) return null;
      total += current * 1000;
      current = 0;
    } else return null;
    seen = true;
  }
  return seen ? total + current : null;
}

const NUMBER_WORD = /[a-z]+(?:-[a-z]+)*/g;
const ARTICLES = new Set(['un', 'una', 'a', 'an', 'e']);
const EN_WORDS = new Set([...Object.keys(EN_SMALL), ...Object.keys(EN_TENS), 'hundred', 'thousand', 'and']);

/** A number written in words found in folded text, with its span. */
export interface WordNumber {
  value: number;
  start: number;
  end: number;
}

/** Every number written in words in `folded` text (Italian single words, English word runs). */
export function findWordNumbers(folded: string): WordNumber[] {
  const found: WordNumber[] = [];
  const words = [...folded.matchAll(NUMBER_WORD)].map((match) => ({
    text: match[0],
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    // Articles ("un tavolo", "a table") are no numbers; "per una persona" is read through the slot's keywords.
    if (ARTICLES.has(word.text) && !['hundred', 'thousand'].includes(words[index + 1]?.text ?? '')) continue;
    const italian = ARTICLES.has(word.text) ? null : italianWordNumber(word.text);
    if (italian !== null) {
      found.push({ value: italian, start: word.start, end: word.end });
      continue;
    }
    // The longest run of English number words starting here.
    let end = index;
    while (
      end < words.length &&
      word.text.split('-').every(() => true) &&
      isEnglishRunWord(words[end]!.text)
    ) {
      if (end > index && !/^[\s-]+$/.test(folded.slice(words[end - 1]!.end, words[end]!.start))) break;
      end++;
    }
    for (let last = end; last > index; last--) {
      const run = words.slice(index, last);
      if (run.at(-1)!.text === 'and') continue;
      const value = englishWordsNumber(run.map((item) => item.text));
      if (value !== null) {
        found.push({ value, start: word.start, end: run.at(-1)!.end });
        index = last - 1;
        break;
      }
    }
  }
  return found;
}

function isEnglishRunWord(word: string): boolean {
  return word.split('-').every((part) => EN_WORDS.has(part) || part === 'a' || part === 'an');
}
