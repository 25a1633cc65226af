import { embedTexts } from '../../embedding/embed-texts.js';
import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import {
  type CalibrationOptions,
  calibrateThresholds,
  type ThresholdCalibration,
} from '../../explore/calibrate-thresholds.js';
import { EMBEDDER_KEY, NODE_KEY, PATH_KEY } from '../../explore/chunk-search.js';
import type { Tree } from '../../tree/tree.js';
import type { VectorRecord, VectorStore } from '../../vector/vector-store.js';
import { PackedVectors } from './packed-vectors.js';
import { syncCollection } from './sync-collection.js';

/** Version of the manifest record; another version is treated as no manifest. */
export const EXPLORE_MANIFEST_FORMAT = 1;
const MANIFEST_ID = 'manifest';
/** Texts embedded per call while loading. */
const LOAD_BATCH = 512;

/**
 * What the exploration collection holds, stored beside it (in the collection `<collection>-manifest`,
 * one record) after a complete sync: the tree version (`Tree.contentHash`, which covers every
 * chunk's id, text and extra and the tree's structure, hence each stored payload), the embedder,
 * the number of records, and the thresholds calibrated from those vectors.
 */
export interface ExploreManifest {
  format: number;
  contentHash: string;
  embedderId: string;
  dimensions: number;
  chunks: number;
  /** `calibrationKey` of the calibration below, `null` when none is stored. */
  calibration: string | null;
  calibrations: ThresholdCalibration[];
}

/** The collection holding the manifest of exploration collection `collection`. */
export function manifestCollection(collection: string): string {
  return `${collection}-manifest`;
}

/** The manifest of `collection`, or `null` when there is none (or one of another format). */
export async function readExploreManifest(
  store: VectorStore,
  collection: string,
): Promise<ExploreManifest | null> {
  const page = await store.scroll({ collection: manifestCollection(collection), limit: 1, offset: null });
  const record = page.chunks.find((chunk) => chunk.id === MANIFEST_ID);
  if (!record) return null;
  try {
    const manifest = JSON.parse(record.text) as ExploreManifest;
    return manifest.format === EXPLORE_MANIFEST_FORMAT ? manifest : null;
  } catch {
    return null;
  }
}

async function writeManifest(store: VectorStore, collection: string, manifest: ExploreManifest) {
  // Stores take vectors of one size per collection (pgvector's `vector(n)`): a unit vector of the
  // collection's size, never searched.
  const vector = new Float32Array(manifest.dimensions);
  vector[0] = 1;
  await store.upsert(manifestCollection(collection), [
    {
      id: MANIFEST_ID,
      text: JSON.stringify(manifest),
      vector,
      payload: {
        format: manifest.format,
        contentHash: manifest.contentHash,
        embedderId: manifest.embedderId,
        chunks: manifest.chunks,
      },
    },
  ]);
}

export interface ExploreCollectionInput {
  tree: Tree;
  embedder: Embedder;
  cache: EmbeddingCache;
  store: VectorStore;
  collection: string;
  calibration: CalibrationOptions | false;
  /** `calibrationKey(calibration)`. */
  calibrationKey: string;
}

/** What loading the exploration collection did. */
export interface ExploreCollectionLoad {
  /** Thresholds for the routing nodes (`[]` with `calibration: false`). */
  calibrations: ThresholdCalibration[];
  /** `true` when the manifest matched: nothing was read from the collection, nothing written to it. */
  inSync: boolean;
  /** Whether the calibration was read from the manifest instead of being computed. */
  calibrationStored: boolean;
  written: number;
  removed: number;
}

/**
 * Makes the exploration collection of `exploreIn: 'vector-store'` hold exactly the tree's
 * exploration chunks, and calibrates the thresholds from their vectors.
 *
 * A restart whose manifest matches the tree (same content hash, embedder, dimensions and number of
 * chunks) touches nothing: no chunk is embedded, no record read or written, and the thresholds come
 * from the manifest when they were calibrated with the same options — a million-chunk collection
 * starts in the time it takes to read one record. Otherwise the manifest is removed first, every
 * chunk is embedded (through the cache) into one packed buffer, the collection is synced (only new
 * or changed records written, stale ones removed: `syncCollection`), the thresholds calibrated with
 * the WebAssembly kernel, and the manifest written last. A load interrupted anywhere (the store down,
 * the process killed) therefore leaves no manifest, and the next start compares record by record.
 * Writing to the collection by other means must delete the manifest record (docs/deployment.md).
 */
export async function loadExploreCollection(input: ExploreCollectionInput): Promise<ExploreCollectionLoad> {
  const { tree, embedder, store, collection } = input;
  const manifest = await readExploreManifest(store, collection);
  const inSync =
    manifest !== null &&
    manifest.contentHash === tree.contentHash &&
    manifest.embedderId === embedder.id &&
    manifest.chunks === tree.chunks.length &&
    (embedder.dimensions === undefined || manifest.dimensions === embedder.dimensions);
  const stored = inSync && manifest.calibration === input.calibrationKey ? manifest.calibrations : null;
  if (inSync && (input.calibration === false || stored))
    return {
      calibrations: input.calibration === false ? [] : stored!,
      inSync,
      calibrationStored: stored !== null,
      written: 0,
      removed: 0,
    };

  const vectors = await embedPacked(embedder, input.cache, tree);
  let written = 0;
  let removed = 0;
  if (!inSync) {
    // Removed before the first write: a sync cut short leaves no manifest claiming it finished.
    if (manifest) await store.delete(manifestCollection(collection), [MANIFEST_ID]);
    ({ written, removed } = await syncCollection(store, collection, recordsOf(tree, embedder, vectors), {
      skipUnchanged: true,
    }));
  }
  let calibrations: ThresholdCalibration[] = [];
  if (input.calibration !== false && vectors) {
    // One buffer for every call: the calibration reads [from, to) before asking again.
    const scratch = new Float32Array(vectors.count);
    calibrations = calibrateThresholds(
      tree,
      (position, from, to) => {
        vectors.similaritiesRange(position, from, to, scratch);
        return scratch;
      },
      input.calibration,
    );
  }
  const dimensions = vectors?.dimensions ?? embedder.dimensions;
  if (dimensions !== undefined && dimensions > 0) {
    const keepStored = input.calibration === false && inSync;
    await writeManifest(store, collection, {
      format: EXPLORE_MANIFEST_FORMAT,
      contentHash: tree.contentHash,
      embedderId: embedder.id,
      dimensions,
      chunks: tree.chunks.length,
      calibration: keepStored
        ? manifest!.calibration
        : input.calibration === false
          ? null
          : input.calibrationKey,
      calibrations: keepStored ? manifest!.calibrations : calibrations,
    });
  }
  return { calibrations, inSync, calibrationStored: false, written, removed };
}

/** The tree's exploration chunks embedded `LOAD_BATCH` at a time into one packed buffer (`null`: no chunks). */
async function embedPacked(
  embedder: Embedder,
  cache: EmbeddingCache,
  tree: Tree,
): Promise<PackedVectors | null> {
  const chunks = tree.chunks;
  let packed: PackedVectors | null = null;
  for (let start = 0; start < chunks.length; start += LOAD_BATCH) {
    const texts = chunks.slice(start, start + LOAD_BATCH).map((chunk) => chunk.text);
    const batch = await embedTexts(embedder, texts, cache);
    packed ??= new PackedVectors(chunks.length, batch[0]!.length);
    batch.forEach((vector, k) => {
      if (vector.length !== packed!.dimensions)
        throw new TreeAgentError(
          'EMBEDDER',
          `Embedder "${embedder.id}" returned vectors of different lengths (${packed!.dimensions} and ${vector.length}).`,
        );
      packed!.set(start + k, vector);
    });
  }
  return packed;
}

/** The records of the exploration collection: each chunk with its node, its path from the root and the embedder. */
function recordsOf(tree: Tree, embedder: Embedder, vectors: PackedVectors | null): VectorRecord[] {
  const paths = new Map(
    [...tree.nodes.values()].map((node) => [node.id, tree.pathTo(node.id).map((item) => item.id)]),
  );
  return tree.chunks.map((chunk, position) => ({
    id: chunk.id,
    text: chunk.text,
    vector: vectors!.row(position),
    payload: {
      ...chunk.extra,
      [NODE_KEY]: chunk.nodeId,
      [PATH_KEY]: paths.get(chunk.nodeId)!,
      [EMBEDDER_KEY]: embedder.id,
    },
  }));
}
