import type { PointId } from '../../protocol/filter.js';

/**
 * Types of the Qdrant behaviour corpus: cases written from Qdrant's own OpenAPI integration tests
 * (`tests/openapi/*.py` in github.com/qdrant/qdrant), each naming the test it comes from. The facts
 * (points, requests, responses) are Qdrant's; the cases are written for Tree Agent. A few cases come
 * from Qdrant's Rust unit tests of the condition checker (their `file` is a path from the repository
 * root); a bare file name is under `tests/openapi/`.
 */

/** One point of a corpus collection, as Qdrant's test upserts it. */
export interface CorpusPoint {
  id: PointId;
  /** The dense vector; `null` when Qdrant's test gives the point only a sparse vector. */
  vector: readonly number[] | null;
  /** The payload; absent when Qdrant's test gives none. */
  payload?: Record<string, unknown>;
}

/** The points of one Qdrant test fixture. */
export interface CorpusCollection {
  /** Short name used by the cases. */
  name: string;
  /** Where the fixture is built in Qdrant's tests (file and function). */
  source: string;
  /** The distance of the Qdrant collection: `Dot` ranks by raw dot product. */
  distance: 'Dot' | 'Cosine';
  points: readonly CorpusPoint[];
}

/** Where a case comes from: Qdrant's test file (under `tests/openapi/`) and test function. */
export interface CorpusSource {
  file: string;
  test: string;
}

/** A relative score threshold: the score of the `rank`-th point of the same query without threshold, plus `delta`. */
export interface RelativeThreshold {
  rank: number;
  delta: number;
}

/** The request of a case, in Qdrant's terms. */
export interface CorpusRequest {
  /** `scroll` (id order), `query` (best score first) or `count`. */
  endpoint: 'scroll' | 'query' | 'count';
  /** The filter exactly as Qdrant's test sends it. */
  filter?: unknown;
  /** Page size; Qdrant's default is 10. */
  limit?: number;
  /** `scroll` only: the id to start from (Tree Agent stores take it as the cursor `encodeOffset(id)`). */
  offset?: PointId;
  /** The query vector (`query` only). Qdrant's test may send none: points come in id order then. */
  query?: readonly number[];
  /** `score_threshold`, absolute or relative to the unthresholded result. */
  scoreThreshold?: number | RelativeThreshold;
}

/** What Qdrant answers. */
export type CorpusExpect =
  | {
      /**
       * The ids Qdrant returns, in its order: id order for `scroll` and `count`, best score first for
       * `query`. Where Qdrant's test asserts less (a count, some ids), `asserted` says what, and the
       * remaining ids follow from the fixture (the reasoning is in `note`).
       */
      ids: readonly PointId[];
      asserted?: string;
      /** `scroll` only, when the page is full: Qdrant's `next_page_offset` (the first id of the next page). */
      next?: PointId;
    }
  | {
      /** Qdrant rejects the request: HTTP status and a fragment of its message when the test checks one. */
      error: { status: 400 | 422; message?: string };
    };

/** Why Tree Agent does not run a case as is. */
export interface CorpusUnsupported {
  /** The Qdrant feature the case needs. */
  feature: 'slice' | 'has_vector' | 'full-text index';
  /** What Tree Agent does instead: `rejected` (validation error `FILTER`) or `not-applicable` (needs Qdrant-side configuration Tree Agent never creates). */
  outcome: 'rejected' | 'not-applicable';
  /** For `not-applicable`: what Tree Agent's back-ends answer, as Qdrant does without that configuration. */
  ids?: readonly PointId[];
}

/** One case: a collection, a request, Qdrant's answer. */
export interface CorpusCase {
  /** Unique, readable name. */
  name: string;
  source: CorpusSource;
  /** Name of the {@link CorpusCollection}. */
  collection: string;
  request: CorpusRequest;
  expect: CorpusExpect;
  /** Set when the case uses a feature Tree Agent's filters do not have. */
  unsupported?: CorpusUnsupported;
  /** How ids that Qdrant's test does not assert were derived, or any other remark. */
  note?: string;
}
