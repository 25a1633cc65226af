import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import type { ThresholdCalibration } from '../../explore/calibrate-thresholds.js';
import type { ChunkIndex } from '../../explore/chunk-index.js';
import type { ChunkSearch } from '../../explore/chunk-search.js';
import type { FileStore } from '../../files/file-store.js';
import type { LanguageDetector } from '../../model/language-detector.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { Tree } from '../../tree/tree.js';
import type { VectorStore } from '../../vector/vector-store.js';
import type { MissingModelPolicy } from './missing-models.js';

/** Limits that guarantee every turn ends (docs/concepts.md §10, Decisions). */
export interface TurnLimits {
  /** Nodes a turn may execute before `LOOP`. Default 50. */
  maxSteps: number;
  /** Fallbacks a turn may run before the error is returned instead. Default 3. */
  maxFallbacks: number;
  /** Longest an author callback may take, in ms, before `TIMEOUT`; 0: no limit. Default 30 000. */
  callbackTimeoutMs: number;
  /** Longest one model call (generate, or a whole stream) may take, in ms, before it is aborted with `TIMEOUT`; 0: no limit. Default 120 000. */
  modelTimeoutMs: number;
}

/** What a turn needs from the agent: the loaded tree and the pluggable parts. */
export interface AgentRuntime {
  /** The tree as it runs: with the calibrated thresholds in place (`thresholdSource: 'calibrated'`). */
  tree: Tree;
  /** The thresholds calibrated automatically at load, one per routing node without a hand-set one. */
  calibrations: readonly ThresholdCalibration[];
  /** Exploration's chunk search for one direction (a function returning its unit vector). */
  chunkSearch(direction: () => Promise<Float32Array>): ChunkSearch;
  /** The in-memory index exploration searches (`exploreIn: 'memory'`), else `null`. */
  chunkIndex: ChunkIndex | null;
  /** Embeds query nodes' searches (retrieval). */
  embedder: Embedder;
  /** Embeds exploration's directions: the fitted space once the fit is ready, else `embedder`. */
  exploreEmbedder: Embedder;
  embeddingCache: EmbeddingCache;
  /**
   * Caches what turns embed (messages, directions, retrieval queries): a `RecentEmbeddingCache` in
   * front of `embeddingCache` unless `messageEmbeddings: 'embedding-cache'`. Default: `embeddingCache`.
   */
  messageCache?: EmbeddingCache;
  vectorStore: VectorStore;
  fileStore: FileStore;
  /** Language models by name; `default` is used by nodes that name none. */
  models: Readonly<Record<string, LanguageModel>>;
  /** What to do about a model a node needs and `models` lacks; absent: fail (`MODEL_NOT_CONFIGURED`) naming `new TreeAgent`. */
  missingModels?: MissingModelPolicy;
  limits: TurnLimits;
  now: () => Date;
  /** Detects a session's language from its first messages when the tree declares several (docs/multilingual-trees.md). */
  languageDetector: LanguageDetector;
  /** Vector store collection of a query node. */
  collectionOf(nodeId: number): string;
  /**
   * A cascade (`FittedSpace.escalation`): the runtime of the second space, and when a message is
   * unsure enough to route there (`routingRuntime`).
   */
  escalation?: { runtime: AgentRuntime; margin: number; gap: number };
}
