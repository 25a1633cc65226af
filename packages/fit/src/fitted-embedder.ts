import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Tree } from '@treeagent/core';
import { TreeAgentError } from '@treeagent/core';
import type { Embedder, EmbeddingCache, EmbedOptions } from '@treeagent/core/adapter';
import { concatScaled, embedTexts, norm } from '@treeagent/core/adapter';
import type { LintWarning } from '@treeagent/core/evaluation';
import { DEFAULT_BASE_WEIGHT } from './base-weight.js';
import { fitKey } from './fit-classes.js';
import { fitProjection } from './fit-projection.js';
import { type FitOptions, type FitSettings, fitSettings } from './fit-settings.js';
import { lintFit } from './lint-fit.js';
import { type ProgressLineOptions, progressLine } from './progress-line.js';
import type { Projection } from './projection.js';

const FORMAT = 'treeagent-fit';
const VERSION = 1;

/** How a fit is stored: JSON, the matrix and offset as base64 little-endian Float32. */
export interface ProjectionJSON {
  format: typeof FORMAT;
  version: number;
  baseId: string;
  /** See `Projection.fitKey` (files written before it had `treeHash` instead, and are refitted). */
  fitKey: string;
  hash: string;
  inputDimensions: number;
  outputDimensions: number;
  settings: FitSettings;
  classes: Projection['classes'];
  excluded: Projection['excluded'];
  chunks: number;
  /** See `Projection.pca`. */
  pca?: Projection['pca'];
  milliseconds: number;
  matrix: string;
  offset: string;
  /** The embedder's `baseWeight` when it was saved (absent: the default). Not part of the fit's hash. */
  baseWeight?: number;
}

export interface FittedEmbedderOptions {
  /**
   * Caches the base embedder's vectors (e.g. the one the fit used), so a fresh fit re-embeds nothing.
   * Makes the embedder `cacheable: false`: the agent then hands each call the cache it embeds
   * through, and the base vectors go there (a turn's message: memory only, by default); a call
   * handed none reads this cache and writes nothing to it.
   */
  baseCache?: EmbeddingCache;
  /**
   * Weight of the base space kept beside the fitted one, ≥ 0 (default `DEFAULT_BASE_WEIGHT`, 0.5;
   * 0: the fitted space alone).
   * With `w > 0` a vector is `[fitted/|fitted|·√(1/(1+w)), base/|base|·√(w/(1+w))]`, so the cosine of
   * two vectors is `(cos_fitted + w·cos_base) / (1 + w)`. Nodes left out of the fit (too few chunks)
   * are told apart by the base part: they fall back to the base space.
   */
  baseWeight?: number;
}

export interface ForTreeOptions extends FitOptions {
  /**
   * A progress bar on stderr while a (re)fit that lasts more than a second runs, so a start-up that
   * refits a changed tree says why it waits. Default true; `false` draws nothing; an object chooses
   * the stream and delay. Ignored when `onProgress` is given.
   */
  progress?: boolean | ProgressLineOptions;
  /** See `FittedEmbedderOptions.baseWeight`; does not change the fit (nor its cache file). */
  baseWeight?: number;
  /** Directory of cached fits, one file per tree content × base embedder × settings. */
  cacheDirectory?: string;
  /** One fit file (e.g. `tree.fit.json`): used when it matches the tree, base and settings, else refitted and overwritten. */
  file?: string;
}

/**
 * An embedder that maps its base embedder's vectors through a projection fitted on the tree's chunks
 * (see `fitProjection`): the base vector is normalised, then `y = Aᵀx − b`, optionally followed by
 * the base vector itself at `baseWeight`. Its id is `fitted(<base id>,<fit hash>)` (plus
 * `,base*<w>`), so embedding caches never mix fits.
 *
 * @example
 * const embedder = await FittedEmbedder.forTree(tree, new HashedEmbedder(), { cacheDirectory: '.treeagent/fits' });
 * const agent = new TreeAgent({ tree, embedder });
 */
export class FittedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly base: Embedder;
  readonly projection: Projection;
  /** Scratch for `project`: the positions of a vector's non-zero inputs. */
  #rows: Int32Array | null = null;
  /** Weight of the base space beside the fitted one (0: fitted space only). */
  readonly baseWeight: number;
  /**
   * With a `baseCache`, the fitted vectors are not cached again by the agent: they are derived from
   * the cached base vectors in a fraction of a millisecond, and a cache of them would grow with every
   * refit (and hold `baseWeight > 0` vectors as long as the base's).
   */
  readonly cacheable: boolean;
  readonly #baseCache: EmbeddingCache | undefined;

  constructor(base: Embedder, projection: Projection, options: FittedEmbedderOptions = {}) {
    if (base.id !== projection.baseId)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `This fit was made for the embedder "${projection.baseId}", not "${base.id}".`,
      );
    const baseWeight = options.baseWeight ?? DEFAULT_BASE_WEIGHT;
    if (!(baseWeight >= 0 && Number.isFinite(baseWeight)))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `FittedEmbedder: baseWeight must be a finite number ≥ 0; got ${options.baseWeight}.`,
      );
    this.base = base;
    this.projection = projection;
    this.baseWeight = baseWeight;
    this.#baseCache = options.baseCache;
    this.cacheable = options.baseCache === undefined;
    this.dimensions = projection.outputDimensions + (baseWeight > 0 ? projection.inputDimensions : 0);
    this.id = `fitted(${base.id},${projection.hash}${baseWeight > 0 ? `,base*${baseWeight}` : ''})`;
  }

  /** The same fit with another `baseWeight` (no refit). */
  withBaseWeight(baseWeight: number): FittedEmbedder {
    return new FittedEmbedder(this.base, this.projection, {
      baseWeight,
      ...(this.#baseCache ? { baseCache: this.#baseCache } : {}),
    });
  }

  /**
   * The fitted vectors of `texts`. The base vectors come through the cache the caller embeds
   * through (`options.cache`, which `embedTexts` hands over): the agent's embedding cache for the
   * tree's chunks, its in-memory message cache for a turn's message (`messageEmbeddings: 'memory'`,
   * the default: a message's base vector is not persisted). Without one, the `baseCache` is read
   * but never written.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const cache = options.cache ?? (this.#baseCache ? readOnly(this.#baseCache) : undefined);
    const vectors = cache
      ? await embedTexts(this.base, texts, cache, options.signal)
      : await this.base.embed(texts, options.signal ? { signal: options.signal } : {});
    return vectors.map((vector) => this.apply(vector));
  }

  /** This embedder's vector for one base vector: the projection, and the base part when `baseWeight > 0`. */
  apply(vector: ArrayLike<number>): Float32Array {
    return this.baseWeight > 0 ? this.#withBase(vector) : this.project(vector);
  }

  /** `[fitted, base]`, each unit length, scaled so that cosines add up as `(fitted + w·base) / (1 + w)`. */
  #withBase(vector: ArrayLike<number>): Float32Array {
    const w = this.baseWeight;
    return concatScaled([this.project(vector), vector], [Math.sqrt(1 / (1 + w)), Math.sqrt(w / (1 + w))]);
  }

  /**
   * Lint warnings about this fit for `tree` (called by `lintTree` / `treeagent lint`): nodes whose
   * chunks are too few to be classes of the fit, and a fit made for another version of the tree.
   */
  lint(tree: Tree): LintWarning[] {
    return lintFit(tree, this);
  }

  /** Projects one base vector (any length-normalisation; a zero vector stays zero). */
  project(vector: ArrayLike<number>): Float32Array {
    const { matrix, offset, inputDimensions: d, outputDimensions: k } = this.projection;
    if (vector.length !== d)
      throw new TreeAgentError(
        'EMBEDDER',
        `Embedder "${this.base.id}" returned ${vector.length} dimensions; the fit expects ${d}.`,
      );
    const length = norm(vector);
    const out = new Float32Array(k);
    if (!(length > 0)) return out;
    const scale = 1 / length;
    const sum = new Float64Array(k);
    // The non-zero inputs (a hashed part is sparse), their matrix rows added eight at a time: one
    // pass over `sum` per eight rows instead of per row, about twice as fast on a fit at load.
    this.#rows ??= new Int32Array(d);
    const rows = this.#rows;
    let count = 0;
    for (let i = 0; i < d; i++) if (vector[i] !== 0) rows[count++] = i;
    let next = 0;
    for (; next + 8 <= count; next += 8) {
      // Scalars, not arrays: this loop is the fit's hot path at load.
      const r0 = rows[next]! * k;
      const r1 = rows[next + 1]! * k;
      const r2 = rows[next + 2]! * k;
      const r3 = rows[next + 3]! * k;
      const r4 = rows[next + 4]! * k;
      const r5 = rows[next + 5]! * k;
      const r6 = rows[next + 6]! * k;
      const r7 = rows[next + 7]! * k;
      const x0 = vector[rows[next]!]! * scale;
      const x1 = vector[rows[next + 1]!]! * scale;
      const x2 = vector[rows[next + 2]!]! * scale;
      const x3 = vector[rows[next + 3]!]! * scale;
      const x4 = vector[rows[next + 4]!]! * scale;
      const x5 = vector[rows[next + 5]!]! * scale;
      const x6 = vector[rows[next + 6]!]! * scale;
      const x7 = vector[rows[next + 7]!]! * scale;
      for (let o = 0; o < k; o++)
        sum[o]! +=
          x0 * matrix[r0 + o]! +
          x1 * matrix[r1 + o]! +
          x2 * matrix[r2 + o]! +
          x3 * matrix[r3 + o]! +
          x4 * matrix[r4 + o]! +
          x5 * matrix[r5 + o]! +
          x6 * matrix[r6 + o]! +
          x7 * matrix[r7 + o]!;
    }
    for (; next < count; next++) {
      const i = rows[next]!;
      const x = vector[i]! * scale;
      const row = i * k;
      for (let o = 0; o < k; o++) sum[o]! += x * matrix[row + o]!;
    }
    for (let o = 0; o < k; o++) out[o] = sum[o]! - offset[o]!;
    return out;
  }

  /** The fit as JSON (exact: the Float32 values round-trip bit for bit), with its `baseWeight`. */
  toJSON(): ProjectionJSON {
    return { ...projectionToJSON(this.projection), baseWeight: this.baseWeight };
  }

  /** Writes the fit to a JSON file (atomically). */
  save(file: string): void {
    writeAtomically(file, JSON.stringify(this.toJSON()));
  }

  /** A saved fit; `options.baseWeight` overrides the saved one. */
  static fromJSON(json: ProjectionJSON, base: Embedder, options: FittedEmbedderOptions = {}): FittedEmbedder {
    return new FittedEmbedder(base, projectionFromJSON(json), {
      ...(json.baseWeight === undefined ? {} : { baseWeight: json.baseWeight }),
      ...options,
    });
  }

  /**
   * A fit saved by `save` or `treeagent fit`, for a tree module:
   * `export const embedder = await FittedEmbedder.load(new URL('./tree.fit.json', import.meta.url), new HashedEmbedder())`.
   */
  static async load(
    file: string | URL,
    base: Embedder,
    options: FittedEmbedderOptions = {},
  ): Promise<FittedEmbedder> {
    return FittedEmbedder.fromJSON(JSON.parse(readFileSync(file, 'utf8')) as ProjectionJSON, base, options);
  }

  /** Fits the projection on the tree's chunks. */
  static async fit(
    tree: Tree,
    base: Embedder,
    options: FitOptions & { baseWeight?: number } = {},
  ): Promise<FittedEmbedder> {
    const { baseWeight, ...fitOptions } = options;
    return new FittedEmbedder(base, await fitProjection(tree, base, fitOptions), {
      ...(options.embeddingCache ? { baseCache: options.embeddingCache } : {}),
      ...(baseWeight === undefined ? {} : { baseWeight }),
    });
  }

  /**
   * The fitted embedder of this tree and base embedder, from the cache when the tree's content, the
   * base embedder and the settings are unchanged, else fitted now and cached: an unchanged tree does
   * not refit at start-up, a changed one refits automatically.
   */
  static async forTree(tree: Tree, base: Embedder, options: ForTreeOptions = {}): Promise<FittedEmbedder> {
    const { cacheDirectory, file, baseWeight, progress = true, ...fitOptions } = options;
    const settings = fitSettings(fitOptions);
    const path =
      file ?? (cacheDirectory ? join(cacheDirectory, fitFileName(tree, base, settings)) : undefined);
    const cached = path ? readCachedFit(path, tree, base, settings) : null;
    if (cached)
      return new FittedEmbedder(base, cached, {
        ...(fitOptions.embeddingCache ? { baseCache: fitOptions.embeddingCache } : {}),
        ...(baseWeight === undefined ? {} : { baseWeight }),
      });
    const onProgress =
      fitOptions.onProgress ??
      (progress === false
        ? undefined
        : progressLine(
            `fitting the embedding space to tree "${tree.name}" (${tree.chunks.length} chunks)`,
            progress === true ? {} : progress,
          ));
    const fitted = await FittedEmbedder.fit(tree, base, {
      ...fitOptions,
      ...(onProgress ? { onProgress } : {}),
      ...(baseWeight === undefined ? {} : { baseWeight }),
    });
    if (path) fitted.save(path);
    return fitted;
  }
}

/** File name of a cached fit: what the fit depends on in the tree (`fitKey`), base embedder and settings. */
export function fitFileName(tree: Tree, base: Embedder, settings: FitSettings): string {
  const key = createHash('sha256')
    .update(JSON.stringify([fitKey(tree, settings.classes), base.id, settings]))
    .digest('hex')
    .slice(0, 16);
  return `fit-${key}.json`;
}

/**
 * The fit saved in `path` when it was made for this tree (`fitKey`), base embedder and settings;
 * `null` when the file is missing, unreadable, or for something else (it is then refitted and
 * overwritten).
 */
export function readCachedFit(
  path: string,
  tree: Tree,
  base: Embedder,
  settings: FitSettings,
): Projection | null {
  if (!existsSync(path)) return null;
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as ProjectionJSON;
    if (
      json.format === FORMAT &&
      json.version === VERSION &&
      json.fitKey === fitKey(tree, settings.classes) &&
      json.baseId === base.id &&
      sameSettings(json.settings, settings)
    )
      return projectionFromJSON(json);
  } catch {
    // An unreadable cache file is refitted and overwritten.
  }
  return null;
}

function sameSettings(a: FitSettings | undefined, b: FitSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function projectionToJSON(projection: Projection): ProjectionJSON {
  const { matrix, offset, ...rest } = projection;
  return {
    format: FORMAT,
    version: VERSION,
    ...rest,
    matrix: toBase64(matrix),
    offset: toBase64(offset),
  };
}

export function projectionFromJSON(json: ProjectionJSON): Projection {
  if (json?.format !== FORMAT || json.version !== VERSION)
    throw new TreeAgentError('INVALID_INPUT', `Not a Tree Agent fit (format ${FORMAT} version ${VERSION}).`);
  const matrix = fromBase64(json.matrix);
  const offset = fromBase64(json.offset);
  if (
    matrix.length !== json.inputDimensions * json.outputDimensions ||
    offset.length !== json.outputDimensions
  )
    throw new TreeAgentError('INVALID_INPUT', 'The fit file is damaged: its matrix has the wrong size.');
  const { format: _format, version: _version, matrix: _matrix, offset: _offset, ...rest } = json;
  return { ...rest, matrix, offset };
}

function toBase64(values: Float32Array): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i]!, i * 4);
  return bytes.toString('base64');
}

function fromBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const values = new Float32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}

function writeAtomically(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}

/** `cache` for reading only: what is embedded through it is not stored. */
function readOnly(cache: EmbeddingCache): EmbeddingCache {
  return { getMany: (modelId, texts) => cache.getMany(modelId, texts), setMany: async () => {} };
}
