import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import type { CalibrationOptions } from '../../explore/calibrate-thresholds.js';
import type { Tree } from '../../tree/tree.js';

/**
 * Fits the embedding space to a tree: an embedder over `base` whose similarities separate the tree's
 * nodes better (`@treeagent/fit`'s `spaceFitter` is the implementation). `TreeAgent` calls it at
 * load, in the background, and routes with the fitted embedder once it is ready (docs/routing.md,
 * "Fitting at load").
 */
export interface SpaceFitter {
  /** Names the fitter (and its settings) in logs. */
  readonly id: string;
  /** Why this tree and base embedder should not be fitted (too few nodes with chunks, an embedder already fitted); `null`: fit them. */
  skip?(tree: Tree, base: Embedder): string | null;
  /** The fitted space from the fitter's cache, without fitting; `null` when none matches the tree (`fitKey`), base and settings. */
  cached(request: SpaceFitRequest): Promise<FittedSpace | null>;
  /** Fits now (off the calling thread where it can), caches the fit, and returns it; rejects when the fit fails. */
  fit(request: SpaceFitRequest): Promise<FittedSpace>;
}

/** What a fitter is asked to fit. */
export interface SpaceFitRequest {
  tree: Tree;
  /** The agent's `embedder`: the space fitted, unless the fitter chooses another base (`FittedSpace.baseId`). */
  base: Embedder;
  /**
   * `base` is the library's default embedder (no `embedder` option): a fitter may fit over a better
   * base for the tree instead (`@treeagent/fit`: USE-lite + hashed for English trees).
   */
  baseIsDefault?: boolean;
  /** The agent's embedding cache: the base vectors of the chunks are already in it after load. */
  embeddingCache: EmbeddingCache;
  /** Aborted when the tree is replaced (`setTree`) before the fit is done. */
  signal: AbortSignal;
  /**
   * Routes in `space` until `fit` returns: a fitter whose fit will take long (a large tree whose
   * chunks a neural base has not embedded yet) may first make a quicker, less accurate one and hand
   * it here. The agent builds its runtime and switches to it (the status stays `fitting`, with
   * `interim`), then to the fit `fit` returns. Absent (`treeagent fit`, a fit made ahead): no
   * interim fit is made.
   */
  onInterim?(space: FittedSpace): Promise<void>;
}

/** A fitted space, ready to route with. */
export interface FittedSpace {
  /** Embeds exploration's chunks and the user's messages (query nodes keep the base embedder). */
  embedder: Embedder;
  /** Read from the fitter's cache rather than fitted now. */
  cached: boolean;
  /** Time the fit took when it was made (not the time to read it from the cache). */
  fitMilliseconds: number;
  /** The cache file, when the fitter keeps one. */
  file?: string;
  /**
   * What the fitter chose for this tree, in a few words (e.g. `exact PCA, 64 dimensions → 15
   * dimensions, 16 classes`): shown by `agent.space()`, the log line at the switch and the CLI.
   */
  detail?: string;
  /**
   * How to calibrate thresholds in this space. A space fitted on the tree's chunks brings them closer
   * together than new messages will be, so the calibration, which samples those chunks, should keep a
   * larger share of them. What `TreeAgentOptions.calibrateThresholds` sets wins.
   */
  calibration?: CalibrationOptions;
  /** The id of the embedder the fit was made over, when it is not the agent's (default: the agent's). */
  baseId?: string;
  /** Why the fitter chose that base, in a few words (e.g. `USE-lite + hashed n-grams 2:1 (English tree: 97% of 14,620 chunks)`). */
  baseReason?: string;
  /**
   * A cascade: a second, costlier and more accurate space for the messages this one is unsure of.
   * Each message is routed in `embedder`'s space first (without running anything); when a decision
   * on its way was close — the best child within `margin` of the runner-up, or the best similarity
   * within `gap` of the node's threshold — the turn routes in `escalation.embedder`'s space instead,
   * with that space's thresholds (docs/routing.md, "A cascade").
   */
  escalation?: SpaceEscalation;
}

/** The space of a cascade's unsure messages (`FittedSpace.escalation`). */
export interface SpaceEscalation {
  embedder: Embedder;
  /** How to calibrate thresholds in this space (as `FittedSpace.calibration`). */
  calibration?: CalibrationOptions;
  /** A decision whose best child leads the runner-up by less than this is unsure. */
  margin: number;
  /** A decision whose best similarity is within this of the node's threshold (either side) is unsure. */
  gap: number;
  /** See `FittedSpace.baseId`. */
  baseId?: string;
  /** See `FittedSpace.baseReason`. */
  baseReason?: string;
}

/**
 * Where the agent's embedding space stands (`TreeAgent.space()`):
 * - `unfitted`: routing in the base space, and no fit is coming (`reason` says why);
 * - `fitting`: routing in the base space while a fit runs in the background (or in an `interim`
 *   fitted space the fitter handed meanwhile);
 * - `fitted`: routing in the fitted space (its thresholds calibrated in it);
 * - `failed`: the fit failed; routing stays in the base space, or the `interim` one (`error` says why).
 */
export type SpaceStatus =
  | { state: 'unfitted'; embedderId: string; reason: string }
  | {
      state: 'fitting';
      /** The embedder routing now: the agent's, or the interim fitted space's. */
      embedderId: string;
      fitter: string;
      /** Routing meanwhile in a quicker fit the fitter handed (`SpaceFitRequest.onInterim`). */
      interim?: InterimSpace;
    }
  | {
      state: 'fitted';
      embedderId: string;
      baseId: string;
      fitter: string;
      cached: boolean;
      fitMilliseconds: number;
      file?: string;
      /** See `FittedSpace.detail`. */
      detail?: string;
      /** See `FittedSpace.baseReason`. */
      base?: string;
      /** A cascade's second space (`FittedSpace.escalation`). */
      escalation?: { embedderId: string; baseId: string; base?: string; margin: number; gap: number };
    }
  | {
      state: 'failed';
      embedderId: string;
      fitter: string;
      error: string;
      /** The interim fit still routing, when one was installed before the fit failed. */
      interim?: InterimSpace;
    };

/** A fit the agent routes in while the final fit runs (`SpaceFitRequest.onInterim`). */
export interface InterimSpace {
  baseId: string;
  fitMilliseconds: number;
  cached: boolean;
  /** See `FittedSpace.detail`. */
  detail?: string;
  /** See `FittedSpace.baseReason`. */
  base?: string;
}

/**
 * When the automatic fit applies (`TreeAgentOptions.fit`): `'auto'` (default) fits only the default
 * embedder, on a tree with at least `AUTO_FIT_MIN_CHUNKS` exploration chunks; `true` fits whatever
 * the embedder and the tree's size; `false` never fits.
 */
export type FitMode = 'auto' | boolean;

/**
 * Fewer exploration chunks than this: `'auto'` does not fit. A fit learns how each node's chunks vary;
 * with a handful per node there is little to learn (docs/routing.md).
 */
export const AUTO_FIT_MIN_CHUNKS = 100;
