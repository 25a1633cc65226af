import type { LanguageDetector } from './language-detector.js';

type Scores = Record<string, number>;
let scorer: Promise<(text: string) => Scores> | null = null;

/** Loads eld's "small" n-gram tables (1.6 MB of JavaScript, about 0.3 s) on the first detection only. */
function loadScorer(): Promise<(text: string) => Scores> {
  scorer ??= import('eld/small').then(
    ({ eld }) =>
      (text: string) =>
        eld.detect(text).getScores(),
  );
  return scorer;
}

/**
 * The default detector: eld (Efficient Language Detector, an offline n-gram identifier from npm),
 * with its "small" tables, restricted to the tree's languages. Measured on short Italian and
 * English messages in bench/language/ (docs/multilingual-trees.md): 99–100% from three words on.
 */
export const eldLanguageDetector: LanguageDetector = {
  id: 'eld-small@2.1.0',
  async detect(text, candidates) {
    const scores = (await loadScorer())(text);
    let best: string | null = null;
    let bestScore = 0;
    for (const candidate of candidates) {
      const score = scores[candidate] ?? scores[candidate.split('-')[0]!.toLowerCase()] ?? 0;
      if (score > bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    return best;
  },
};
