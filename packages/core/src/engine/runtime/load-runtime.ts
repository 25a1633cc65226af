import { availableParallelism } from 'node:os';
import { embedTexts } from '../../embedding/embed-texts.js';
import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import {
  type CalibrationOptions,
  calibrateThresholds,
  type ThresholdCalibration,
  withCalibratedThresholds,
} from '../../explore/calibrate-thresholds.js';
import {
  ChunkIndex,
  type ExploreScan,
  type ExploreThreads,
  SIGN_WORKER_FROM,
} from '../../explore/chunk-index.js';
import { MemoryChunkSearch } from '../../explore/memory-chunk-search.js';
import {
  calibrationKey,
  closeWhenCollected,
  type PackedIndex,
  type PackedIndexKey,
  readPackedIndex,
  StalePackedIndex,
  writePackedIndex,
} from '../../explore/packed-index-file.js';
import { StoreChunkSearch } from '../../explore/store-chunk-search.js';
import type { FileStore } from '../../files/file-store.js';
import { SOURCE_KEY } from '../../ingest/ingest-documents.js';
import { eldLanguageDetector } from '../../model/eld-language-detector.js';
import type { LanguageDetector } from '../../model/language-detector.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { Chunk } from '../../tree/chunk.js';
import { modelNeeds } from '../../tree/model-needs.js';
import type { Tree } from '../../tree/tree.js';
import type { VectorRecord, VectorStore } from '../../vector/vector-store.js';
import { loadExploreCollection } from './explore-collection.js';
import { DEFAULT_MISSING_MODELS, type MissingModelPolicy } from './missing-models.js';
import type { AgentRuntime, TurnLimits } from './runtime.js';
import { syncCollection } from './sync-collection.js';

/** Where exploration searches the tree's chunks: an in-memory index, or the vector store. */
export type ExploreIn = 'memory' | 'vector-store';

export interface RuntimeParts {
  tree: Tree;
  /** Embeds query nodes' chunks and searches (retrieval), and exploration's unless `exploreEmbedder` is given. */
  embedder: Embedder;
  /** Embeds exploration's chunks and directions: the fitted space (`TreeAgentOptions.fit`). Default: `embedder`. */
  exploreEmbedder?: Embedder;
  embeddingCache: EmbeddingCache;
  /** Caches what turns embed (`AgentRuntime.messageCache`); default `embeddingCache`. */
  messageCache?: EmbeddingCache;
  vectorStore: VectorStore;
  fileStore: FileStore;
  models: Record<string, LanguageModel>;
  /** What to do about models the tree needs and `models` lacks (`TreeAgentOptions.missingModels`). Default: fail, naming `new TreeAgent`'s `models`. */
  missingModels?: MissingModelPolicy;
  limits: TurnLimits;
  now: () => Date;
  /** Default: `eldLanguageDetector`. */
  languageDetector?: LanguageDetector;
  exploreIn: ExploreIn;
  /** How the in-memory index reads the vectors (`ExploreScan`); default `auto`. */
  exploreScan?: ExploreScan;
  /** Threads of the sign-bit pass (`ExploreThreads`); default `auto`. */
  exploreThreads?: ExploreThreads;
  /** Automatic thresholds for the routing nodes without one set by hand; `false`: none. */
  calibration: CalibrationOptions | false;
  /**
   * Where the packed index files are kept (`TreeAgentOptions.indexDirectory`): read at load instead
   * of the per-chunk cache lookups when one matches the tree, written after a load without one.
   */
  indexDirectory?: string | undefined;
  /** Warnings about the packed index (a file ignored and why, a file that could not be written). */
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** Texts embedded per call while loading a tree. */
const LOAD_BATCH = 512;

/**
 * Prepares a tree to run: checks that the models it needs statically are configured, embeds every
 * chunk once (through the cache), puts each query node's `forRag` chunks in its collection and,
 * with `exploreIn: 'vector-store'`, exploration's chunks (`tree.chunks`: not the `forRag` ones
 * unless the root sets `exploreForRagChunks`) in the exploration collection — removing chunks that
 * are no longer in the tree; a collection whose manifest says it already holds this tree is left
 * alone (`loadExploreCollection`).
 */
export async function loadRuntime(parts: RuntimeParts): Promise<AgentRuntime> {
  const { models, vectorStore } = parts;
  let tree = parts.tree;
  const exploreEmbedder = parts.exploreEmbedder ?? parts.embedder;
  checkStaticModels(tree, models, parts.missingModels ?? DEFAULT_MISSING_MODELS);
  const collectionOf = (nodeId: number) => `${tree.name}:${nodeId}`;
  const exploreCollection = `${tree.name}:explore`;
  let index: ChunkIndex | null = null;
  let storeCalibrations: ThresholdCalibration[] | null = null;
  let packed: PackedIndex | null = null;
  const packedKey: PackedIndexKey = {
    tree,
    embedderId: exploreEmbedder.id,
    dimensions: exploreEmbedder.dimensions,
    scan: parts.exploreScan ?? 'auto',
  };
  if (parts.exploreIn === 'memory') {
    if (parts.indexDirectory) packed = readPacked(parts.indexDirectory, packedKey, parts.log);
    index =
      packed?.index ??
      (await ChunkIndex.build(tree, exploreEmbedder, parts.embeddingCache, {
        scan: parts.exploreScan ?? 'auto',
      }));
  } else {
    // The collection synced (or found in sync by its manifest) and the thresholds calibrated there.
    const loaded = await loadExploreCollection({
      tree,
      embedder: exploreEmbedder,
      cache: parts.embeddingCache,
      store: vectorStore,
      collection: exploreCollection,
      calibration: parts.calibration,
      calibrationKey: calibrationKey(parts.calibration),
    });
    storeCalibrations = loaded.calibrations;
  }
  for (const node of tree.nodes.values()) {
    if (node.type !== 'query') continue;
    // forRag chunks are not in exploration's index (unless exploreForRagChunks): embedded here, through the cache.
    const vectors = await embedInBatches(parts.embedder, parts.embeddingCache, node.ragChunks);
    const records: VectorRecord[] = node.ragChunks.map((chunk, position) => ({
      id: chunk.id,
      text: chunk.text,
      vector: vectors[position]!,
      payload: chunk.extra,
    }));
    // Documents loaded by ingestion (payload `_source`) live beside the tree's chunks: keep them.
    await syncCollection(vectorStore, collectionOf(node.id), records, {
      owned: { must: [{ is_empty: { key: SOURCE_KEY } }] },
    });
  }
  // Thresholds calibrated from the tree's own chunks for the routing nodes that have none set by hand.
  const calibration = calibrationKey(parts.calibration);
  const calibrations =
    storeCalibrations ??
    (packed && packed.calibration === calibration
      ? packed.calibrations
      : parts.calibration === false || !index
        ? []
        : calibrateThresholds(
            tree,
            (position, from, to) => index!.similarities(index!.vector(position), from, to),
            parts.calibration,
          ));
  if (index && parts.indexDirectory && !packed)
    writePacked(parts.indexDirectory, packedKey, index, { key: calibration, calibrations }, parts.log);
  if (index && wantsSignWorker(parts.exploreThreads ?? 'auto', index))
    index.useSignWorker((message) => parts.log?.('warn', message));
  tree = withCalibratedThresholds(tree, calibrations);
  const routed = tree;
  const chunkSearch = index
    ? (direction: () => Promise<Float32Array>) => new MemoryChunkSearch(index!, direction)
    : (direction: () => Promise<Float32Array>) =>
        new StoreChunkSearch(routed, vectorStore, exploreCollection, direction);
  const {
    exploreIn: _exploreIn,
    exploreScan: _exploreScan,
    exploreThreads: _exploreThreads,
    calibration: _calibration,
    indexDirectory: _indexDirectory,
    log: _log,
    ...rest
  } = parts;
  const languageDetector = parts.languageDetector ?? eldLanguageDetector;
  return {
    ...rest,
    languageDetector,
    exploreEmbedder,
    tree,
    calibrations,
    chunkSearch,
    chunkIndex: index,
    collectionOf,
  };
}

/** The packed index of `key` in `directory`, or `null` (none, or one that does not match: logged, and ignored). */
function readPacked(directory: string, key: PackedIndexKey, log: RuntimeParts['log']): PackedIndex | null {
  try {
    // Silent when it works (command-line tools print the agent's information lines on stdout).
    return readPackedIndex(directory, key);
  } catch (error) {
    if (!(error instanceof StalePackedIndex)) throw error;
    log?.(
      'warn',
      `Tree Agent: ignoring the packed index ${error.file} of tree "${key.tree.name}": ${error.message}. Loading chunk by chunk through the embedding cache; the file is written again after the load.`,
    );
    return null;
  }
}

/**
 * Writes the packed index of a freshly built `index`; with sign bits, the index then reads its
 * float32 rows from the file and releases them from memory. A failure to write is logged: the agent
 * runs on the index in memory.
 */
function writePacked(
  directory: string,
  key: PackedIndexKey,
  index: ChunkIndex,
  calibration: { key: string; calibrations: readonly ThresholdCalibration[] },
  log: RuntimeParts['log'],
): void {
  try {
    const written = writePackedIndex(directory, key, index, calibration);
    if (written.reader && written.quantized) {
      if (index.useRowFile(written.reader, written.quantized)) closeWhenCollected(index, written.reader);
      else written.reader.close();
    }
  } catch (error) {
    log?.(
      'warn',
      `Tree Agent: could not write the packed index of tree "${key.tree.name}" in ${directory} (${(error as Error).message}); the next start loads chunk by chunk again. Check that the directory is writable, or set indexDirectory: false.`,
    );
  }
}

/** The unit vectors of `chunks`, embedded `LOAD_BATCH` at a time through the cache. */
async function embedInBatches(
  embedder: Embedder,
  cache: EmbeddingCache,
  chunks: readonly Chunk[],
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < chunks.length; start += LOAD_BATCH) {
    const texts = chunks.slice(start, start + LOAD_BATCH).map((chunk) => chunk.text);
    vectors.push(...(await embedTexts(embedder, texts, cache)));
  }
  return vectors;
}

function checkStaticModels(
  tree: Tree,
  models: Record<string, LanguageModel>,
  policy: MissingModelPolicy,
): void {
  if (policy.mode === 'notice') return;
  const missing = modelNeeds(tree).filter((need) => !models[need.model]);
  if (missing.length) {
    const lines = missing
      .map((need) => `node ${need.nodeId} (${need.what}) needs model "${need.model}"`)
      .join('; ');
    const names = [...new Set(missing.map((need) => need.model))];
    throw new TreeAgentError(
      'MODEL_NOT_CONFIGURED',
      `The tree needs language models that are not configured: ${lines}. ${names.map(policy.help).join(' ')}`,
      { nodeId: missing[0]!.nodeId, details: { model: names[0]! } },
    );
  }
}

/** Whether the index's sign-bit pass gets a worker thread (`ExploreThreads`). */
function wantsSignWorker(threads: ExploreThreads, index: ChunkIndex): boolean {
  if (threads !== 'auto' && threads !== 1 && threads !== 2)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `exploreThreads is ${JSON.stringify(threads)}: use 'auto', 1 (the main thread only) or 2 (a worker thread takes part in each sign-bit pass).`,
    );
  if (!index.signBits || threads === 1) return false;
  return threads === 2 || (index.tree.chunks.length >= SIGN_WORKER_FROM && availableParallelism() >= 2);
}
