import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { ExploreCandidate } from '../protocol/events.js';
import type { Filter } from '../protocol/filter.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { ChunkIndex } from './chunk-index.js';
import { bestChunkIn, buildChunkMask } from './chunk-mask.js';
import type { ChunkSearch } from './chunk-search.js';
import { keepNear } from './quantized-rows.js';
import { type SignPass, SignScratch, signCandidates } from './sign-candidates.js';

/**
 * Chunks rescored exactly per hop when the index ranks by sign bits: the nearest this many by
 * Hamming distance in the node's range (more on ties). See `bench/explore-agreement.ts` for how
 * often the exact best falls outside them.
 */
export const SIGN_CANDIDATES = 512;

/**
 * Exploration over the in-memory `ChunkIndex`: one pass computes the direction's similarity to every
 * chunk (once per direction, not per hop); each hop then scans only the node's range of that array.
 * The mask of allowed chunks is rebuilt only when the blacklist or the filter changes.
 * When the index keeps sign bits (large trees of dense vectors), the pass per direction is a
 * Hamming distance per chunk instead, and each hop rescores its nearest chunks exactly.
 */
export class MemoryChunkSearch implements ChunkSearch {
  readonly #index: ChunkIndex;
  readonly #direction: () => Promise<Float32Array>;
  /** The buffers of every search on this index (`HopBuffers`). */
  readonly #buffers: HopBuffers;
  /** The direction of this search's sign pass and the pass's number (valid while `signPassValid`). */
  #signPass: { vector: Float32Array; distances: Uint16Array; pass: number } | null = null;
  #mask: { version: number; filter: Filter | null; mask: Uint8Array | null } | null = null;
  /**
   * The last sign-bit hop: its range scored whole (`scratch.scores`), or its candidates
   * (`#candidates`); `bounded`: their int8 approximations and bounds are in `scratch.approximate`
   * and `scratch.bounds` (float32 rows in a file), and `#candidates` holds the whole range's
   * allowed chunks when `scoredWhole`.
   */
  #hop: { scoredWhole: boolean; bounded: boolean; length: number } | null = null;
  readonly #exact: boolean;

  /**
   * @param direction The unit vector of the current direction (the caller caches it per text).
   * @param options `exact`: score every chunk in float32 even when the index keeps sign bits (the
   *   reference the sign-bit scan is measured against).
   */
  constructor(index: ChunkIndex, direction: () => Promise<Float32Array>, options: { exact?: boolean } = {}) {
    this.#index = index;
    this.#direction = direction;
    this.#exact = options.exact ?? false;
    let buffers = buffersByIndex.get(index);
    if (!buffers) {
      buffers = new HopBuffers(index);
      buffersByIndex.set(index, buffers);
    }
    this.#buffers = buffers;
  }

  async best(node: TreeNode, constraints: ExploreConstraints): Promise<ExploreCandidate | null> {
    // From here on nothing awaits: the shared buffers hold this search's values until it returns.
    const vector = await this.#direction();
    const bySigns = this.#index.signBits && !this.#exact;
    const found = bySigns
      ? this.#bestBySigns(vector, node, constraints)
      : this.#bestExact(vector, node, constraints);
    if (!found) return null;
    const tree = this.#index.tree;
    const chunk = tree.chunks[found.position]!;
    const child = tree.childHolding(node.id, found.position);
    const candidate: ExploreCandidate = {
      chunkId: chunk.id,
      text: chunk.text,
      nodeId: chunk.nodeId,
      childId: child.id,
      similarity: found.similarity,
    };
    // The runner-up: the best chunk outside the winning child's range, for the margin analytics
    // report (docs/analytics.md). Exact: a scan of the similarities already computed for this
    // direction, no vector math. Sign bits: from the hop's candidates (below).
    const similarities = bySigns ? null : this.#buffers.passOf(this, vector);
    const mask = this.#maskFor(constraints);
    const other = similarities
      ? better(
          bestChunkIn(similarities, mask, node.ownChunkEnd, child.chunkStart),
          bestChunkIn(similarities, mask, child.chunkEnd, node.chunkEnd),
        )
      : this.#runnerUpBySigns(vector, node.ownChunkEnd, node.chunkEnd, child, mask);
    candidate.runnerUp = other
      ? { childId: tree.childHolding(node.id, other.position).id, similarity: other.similarity }
      : null;
    return candidate;
  }

  /**
   * The runner-up of a sign-bit hop over `[from, to)`: the best chunk outside the winning child's
   * range. A range scored whole has every score already; otherwise the hop's own candidates outside
   * the child are rescored exactly (a close runner-up — the one a low margin needs — is among the
   * chunks nearest by Hamming distance), and only when none of them lies outside the child are the
   * ranges on either side searched like a hop.
   */
  #runnerUpBySigns(
    vector: Float32Array,
    from: number,
    to: number,
    child: TreeNode,
    mask: Uint8Array | null,
  ): { position: number; similarity: number } | null {
    const { scratch, candidates, candidateScores } = this.#buffers;
    const hop = this.#hop;
    if (hop === null) return null;
    if (hop.bounded) {
      // The hop's int8 approximations again, without the child's range: no row is scored twice in int8.
      const found = this.#boundedBest(vector, candidates, hop.length, child.chunkStart, child.chunkEnd);
      if (found || hop.scoredWhole) return found;
      const before =
        child.chunkStart > from ? this.#bestBySignsIn(vector, from, child.chunkStart, mask) : null;
      const after = to > child.chunkEnd ? this.#bestBySignsIn(vector, child.chunkEnd, to, mask) : null;
      return better(before, after);
    }
    if (hop.scoredWhole) {
      let best: { position: number; similarity: number } | null = null;
      for (let k = 0; k < to - from; k++) {
        const position = from + k;
        if (position >= child.chunkStart && position < child.chunkEnd) continue;
        if (mask !== null && mask[position] === 0) continue;
        if (!best || scratch.scores[k]! > best.similarity)
          best = { position, similarity: scratch.scores[k]! };
      }
      return best;
    }
    // The candidates are ascending: the first on ties, as `bestAmong` would keep.
    let best: { position: number; similarity: number } | null = null;
    for (let k = 0; k < hop.length; k++) {
      const position = candidates[k]!;
      if (position >= child.chunkStart && position < child.chunkEnd) continue;
      if (!best || candidateScores[k]! > best.similarity)
        best = { position, similarity: candidateScores[k]! };
    }
    if (best) return best;
    const before = child.chunkStart > from ? this.#bestBySignsIn(vector, from, child.chunkStart, mask) : null;
    const after = to > child.chunkEnd ? this.#bestBySignsIn(vector, child.chunkEnd, to, mask) : null;
    return better(before, after);
  }

  /**
   * One float32 pass per direction, then the best of the node's range. The pass is kept in one of
   * the index's pass buffers (`HopBuffers.passFor`), named by this search and the direction, so the
   * next hop in the same direction reads it again while concurrent turns keep theirs in others.
   */
  #bestExact(vector: Float32Array, node: TreeNode, constraints: ExploreConstraints) {
    const similarities = this.#buffers.passFor(this, vector, (into) =>
      this.#index.similarities(vector, 0, into.length, into),
    );
    return bestChunkIn(similarities, this.#maskFor(constraints), node.ownChunkEnd, node.chunkEnd);
  }

  /**
   * One sign-bit pass per direction (Hamming distances to every chunk), then per hop the nearest
   * `SIGN_CANDIDATES` of the node's range rescored in float32 (bit for bit the exact pass's values);
   * the best of them, ties keeping the first position as the exact pass does. When the float32 rows
   * are in a packed index file, only the candidates their int8 rows cannot rule out are read and
   * rescored (`ChunkIndex.bestAmong`). A range of at most
   * twice `SIGN_CANDIDATES` chunks is scored whole, exactly.
   */
  #bestBySigns(vector: Float32Array, node: TreeNode, constraints: ExploreConstraints) {
    return this.#bestBySignsIn(vector, node.ownChunkEnd, node.chunkEnd, this.#maskFor(constraints));
  }

  /** `#bestBySigns` over the positions `[from, to)`; records the hop's candidates for its runner-up. */
  #bestBySignsIn(vector: Float32Array, from: number, to: number, mask: Uint8Array | null) {
    const index = this.#index;
    this.#hop = null;
    // The distances stay in WebAssembly memory (no 2 MB copy per direction at 1M chunks); another
    // search's pass in between (another session's turn) replaces them, and the pass runs again.
    const buffers = this.#buffers;
    // Any pass in between (this index's histogram is shared too) makes `signPassValid` false.
    if (this.#signPass?.vector !== vector || !index.signPassValid(this.#signPass.pass)) {
      const { distances, pass } = index.signPass(vector, buffers.histogram);
      this.#signPass = { vector, distances, pass };
    }
    const scratch = buffers.scratch;
    const pass: SignPass = { distances: this.#signPass.distances, histogram: buffers.histogram };
    if (index.quantized) return this.#boundedHop(vector, from, to, mask, pass);
    if (to - from <= 2 * SIGN_CANDIDATES) {
      // A small range: every chunk of it scored exactly, in one kernel call.
      scratch.ensure(to - from);
      index.similaritiesRange(vector, from, to, scratch.scores);
      let best = -1;
      for (let k = 0; k < to - from; k++) {
        if (mask !== null && mask[from + k] === 0) continue;
        if (best < 0 || scratch.scores[k]! > scratch.scores[best]!) best = k;
      }
      this.#hop = { scoredWhole: true, bounded: false, length: to - from };
      return best < 0 ? null : { position: from + best, similarity: scratch.scores[best]! };
    }
    const length = signCandidates(pass, mask, from, to, SIGN_CANDIDATES, scratch, (cut, positions) =>
      index.positionsWithin(pass.distances, from, to, cut, positions),
    );
    // The candidates and their exact scores are kept for the hop's runner-up.
    buffers.keepCandidates(scratch.positions, length);
    this.#hop = { scoredWhole: false, bounded: false, length };
    if (length === 0) return null;
    const { candidates, candidateScores } = buffers;
    index.similaritiesAt(vector, candidates, length, candidateScores);
    let best = 0;
    for (let k = 1; k < length; k++) if (candidateScores[k]! > candidateScores[best]!) best = k;
    return { position: candidates[best]!, similarity: candidateScores[best]! };
  }

  /**
   * A hop of an index whose float32 rows are in a file: the hop's chunks (the allowed chunks of a
   * range of at most twice `SIGN_CANDIDATES`, else its sign-bit candidates) scored once on their
   * int8 rows with an error bound; only those that can still be the best are read and rescored in
   * float32 (`#boundedBest`), and the runner-up reuses the same int8 scores.
   */
  #boundedHop(vector: Float32Array, from: number, to: number, mask: Uint8Array | null, pass: SignPass) {
    const index = this.#index;
    const buffers = this.#buffers;
    const scratch = buffers.scratch;
    let length = 0;
    const whole = to - from <= 2 * SIGN_CANDIDATES;
    if (whole) {
      scratch.ensure(to - from);
      for (let position = from; position < to; position++)
        if (mask === null || mask[position] !== 0) scratch.positions[length++] = position;
    } else
      length = signCandidates(pass, mask, from, to, SIGN_CANDIDATES, scratch, (cut, positions) =>
        index.positionsWithin(pass.distances, from, to, cut, positions),
      );
    buffers.keepCandidates(scratch.positions, length);
    if (!index.approximateAt(vector, buffers.candidates, length, scratch.approximate, scratch.bounds)) {
      // No int8 score for this direction (another length): every chunk of the hop is read and scored.
      scratch.approximate.fill(0, 0, length);
      scratch.bounds.fill(Number.POSITIVE_INFINITY, 0, length);
    }
    this.#hop = { scoredWhole: whole, bounded: true, length };
    return this.#boundedBest(vector, buffers.candidates, length, 0, 0);
  }

  /**
   * The exact best of the hop's chunks `positions[0..length)` outside `[skipFrom, skipTo)`, from
   * their int8 approximations and bounds (`scratch.approximate`, `scratch.bounds`): the rows that
   * can still be the best are read and scored in float32, the first position kept on ties.
   */
  #boundedBest(
    vector: Float32Array,
    positions: Int32Array,
    length: number,
    skipFrom: number,
    skipTo: number,
  ): { position: number; similarity: number } | null {
    const scratch = this.#buffers.scratch;
    const kept = keepNear(
      positions,
      length,
      scratch.approximate,
      scratch.bounds,
      skipFrom,
      skipTo,
      scratch.kept,
    );
    if (kept === 0) return null;
    this.#index.similaritiesAt(vector, scratch.kept, kept, scratch.scores);
    let best = 0;
    for (let k = 1; k < kept; k++) if (scratch.scores[k]! > scratch.scores[best]!) best = k;
    return { position: scratch.kept[best]!, similarity: scratch.scores[best]! };
  }

  #maskFor(constraints: ExploreConstraints): Uint8Array | null {
    const { blacklist, filter } = constraints;
    if (this.#mask?.version !== blacklist.version || this.#mask.filter !== filter) {
      this.#mask = {
        version: blacklist.version,
        filter,
        mask: buildChunkMask(this.#index.tree, this.#index, constraints),
      };
    }
    return this.#mask.mask;
  }
}

/**
 * The working arrays of the searches on one index, allocated once per index instead of once per turn
 * (a turn's search would otherwise allocate a tree-sized array, or about 40 KB of sign-bit scratch,
 * and leave it to the garbage collector). Searches share them safely because a search writes and
 * reads them only between two of its awaits (within one `best` call), except for the float32
 * passes, each named by its search and direction (`passFor`): a turn's next hop finds its own pass
 * while other turns explore in between (before, one shared pass was made again by every turn that
 * found another's there: at 16 turns at once, 1.9 passes per message instead of 1).
 */
class HopBuffers {
  /**
   * The exact passes kept: one float32 similarity per chunk each, named by the search and the
   * direction that made it; allocated as turns need them, up to `#maxPasses`, then the least
   * recently used is taken over (its search, if it runs another hop, makes its pass again).
   */
  readonly #passes: ExactPass[] = [];
  readonly #maxPasses: number;
  readonly #chunks: number;
  #clock = 0;
  /** The histogram of the last sign pass (valid while that pass is, `ChunkIndex.signPassValid`). */
  readonly histogram: Int32Array;
  readonly scratch: SignScratch;
  /** The last sign-bit hop's candidate positions. */
  candidates = new Int32Array(1024);
  /**
   * The float32 similarities of `candidates`, when the hop rescored every one of them (rows in
   * memory): its runner-up is then the best of those outside the winning child, with no row scored
   * twice.
   */
  candidateScores = new Float32Array(1024);

  constructor(index: ChunkIndex) {
    this.histogram = new Int32Array(index.codeBits + 1);
    this.scratch = new SignScratch(index.codeBits);
    this.#chunks = index.tree.chunks.length;
    const fit = Math.floor(KEPT_PASSES_BYTES / (4 * Math.max(1, this.#chunks)));
    this.#maxPasses = Math.max(1, Math.min(MAX_KEPT_PASSES, fit));
  }

  /** The pass `search` made for `vector`, while it is kept. */
  passOf(search: MemoryChunkSearch, vector: Float32Array): Float32Array | null {
    const pass = this.#passes.find((entry) => entry.of === search && entry.for === vector);
    if (!pass) return null;
    pass.used = ++this.#clock;
    return pass.similarities;
  }

  /**
   * `search`'s pass for `vector`: the kept one, or one `compute` makes now — in the buffer of the
   * search's earlier direction, a new buffer while fewer than `#maxPasses` exist, or the least
   * recently used one.
   */
  passFor(
    search: MemoryChunkSearch,
    vector: Float32Array,
    compute: (into: Float32Array) => void,
  ): Float32Array {
    const kept = this.passOf(search, vector);
    if (kept) return kept;
    let pass = this.#passes.find((entry) => entry.of === search);
    if (!pass && this.#passes.length < this.#maxPasses) {
      pass = { similarities: new Float32Array(this.#chunks), of: null, for: null, used: 0 };
      this.#passes.push(pass);
    }
    pass ??= this.#passes.reduce((oldest, entry) => (entry.used < oldest.used ? entry : oldest));
    compute(pass.similarities);
    pass.of = search;
    pass.for = vector;
    pass.used = ++this.#clock;
    return pass.similarities;
  }

  /** Copies a hop's candidate positions into `candidates` (growing it and `candidateScores`). */
  keepCandidates(positions: Int32Array, length: number): void {
    if (this.candidates.length < length) {
      this.candidates = new Int32Array(Math.max(length, 2 * this.candidates.length));
      this.candidateScores = new Float32Array(this.candidates.length);
    }
    this.candidates.set(positions.subarray(0, length));
  }
}

/** An exact pass: one float32 similarity per chunk, for `for` as `of` asked it; `used`: when last read. */
interface ExactPass {
  similarities: Float32Array;
  of: MemoryChunkSearch | null;
  for: Float32Array | null;
  used: number;
}

/**
 * Exact passes kept per index: as many as turns exploring at once (each keeps its pass between its
 * hops, which await in between), within `KEPT_PASSES_BYTES`: a 15,000-chunk tree keeps 32 (1.9 MB),
 * a million-chunk one 8.
 */
const MAX_KEPT_PASSES = 32;
const KEPT_PASSES_BYTES = 32 * 1024 * 1024;

/** The shared buffers of each index (collected with it). */
const buffersByIndex = new WeakMap<ChunkIndex, HopBuffers>();

/** The more similar of two chunks (the first on a tie, as the exact scan keeps the first position). */
function better<T extends { similarity: number }>(a: T | null, b: T | null): T | null {
  return a && (!b || a.similarity >= b.similarity) ? a : b;
}
