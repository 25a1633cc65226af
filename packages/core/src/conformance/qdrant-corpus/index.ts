export { CORPUS_CASES } from './cases.js';
export { CORPUS_COLLECTIONS } from './collections.js';
export type {
  CorpusCase,
  CorpusCollection,
  CorpusExpect,
  CorpusPoint,
  CorpusRequest,
  CorpusSource,
  CorpusUnsupported,
  RelativeThreshold,
} from './types.js';
