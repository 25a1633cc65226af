import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Embedder, EmbeddingCache, EmbedOptions, Tree } from '@treeagent/core';
import { embedTexts, TreeAgentError } from '@treeagent/core';
import {
  type FitOptions,
  type FitSettings,
  fitProjection,
  fitSettings,
  type Projection,
} from './fit-projection.js';

const FORMAT = 'treeagent-fit';
const VERSION = 1;

/** How a fit is stored: JSON, the matrix and offset as base64 little-endian Float32. */
export interface ProjectionJSON {
  format: typeof FORMAT;
  version: number;
  baseId: string;
  treeHash: string;
  hash: string;
  inputDimensions: number;
  outputDimensions: number;
  settings: FitSettings;
  classes: Projection['classes'];
  excluded: Projection['excluded'];
  chunks: number;
  milliseconds: number;
  matrix: string;
  offset: string;
}

export interface ForTreeOptions extends FitOptions {
  /** Directory of cached fits, one file per tree content × base embedder × settings. */
  cacheDirectory?: string;
  /** One fit file (e.g. `tree.fit.json`): used when it matches the tree, base and settings, else refitted and overwritten. */
  file?: string;
}

/**
 * An embedder that maps its base embedder's vectors through a projection fitted on the tree's chunks
 * (see `fitProjection`): the base vector is normalised, then `y = Aᵀx − b`. Its id is
 * `fitted(<base id>,<fit hash>)`, so embedding caches never mix fits.
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
  readonly #baseCache: EmbeddingCache | undefined;

  /** `baseCache` caches the base embedder's vectors (e.g. the one the fit used), so a fresh fit re-embeds nothing. */
  constructor(base: Embedder, projection: Projection, options: { baseCache?: EmbeddingCache } = {}) {
    if (base.id !== projection.baseId)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `This fit was made for the embedder "${projection.baseId}", not "${base.id}".`,
      );
    this.base = base;
    this.projection = projection;
    this.#baseCache = options.baseCache;
    this.dimensions = projection.outputDimensions;
    this.id = `fitted(${base.id},${projection.hash})`;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const vectors = this.#baseCache
      ? await embedTexts(this.base, texts, this.#baseCache, options.signal)
      : await this.base.embed(texts, options);
    return vectors.map((vector) => this.project(vector));
  }

  /** Projects one base vector (any length-normalisation; a zero vector stays zero). */
  project(vector: ArrayLike<number>): Float32Array {
    const { matrix, offset, inputDimensions: d, outputDimensions: k } = this.projection;
    if (vector.length !== d)
      throw new TreeAgentError(
        'EMBEDDER',
        `Embedder "${this.base.id}" returned ${vector.length} dimensions; the fit expects ${d}.`,
      );
    let norm = 0;
    for (let i = 0; i < d; i++) norm += vector[i]! * vector[i]!;
    const out = new Float32Array(k);
    if (!(norm > 0)) return out;
    const scale = 1 / Math.sqrt(norm);
    const sum = new Float64Array(k);
    for (let i = 0; i < d; i++) {
      const value = vector[i]!;
      if (value === 0) continue;
      const x = value * scale;
      const row = i * k;
      for (let o = 0; o < k; o++) sum[o]! += x * matrix[row + o]!;
    }
    for (let o = 0; o < k; o++) out[o] = sum[o]! - offset[o]!;
    return out;
  }

  /** The fit as JSON (exact: the Float32 values round-trip bit for bit). */
  toJSON(): ProjectionJSON {
    return projectionToJSON(this.projection);
  }

  /** Writes the fit to a JSON file (atomically). */
  save(file: string): void {
    writeAtomically(file, JSON.stringify(this.toJSON()));
  }

  static fromJSON(json: ProjectionJSON, base: Embedder): FittedEmbedder {
    return new FittedEmbedder(base, projectionFromJSON(json));
  }

  /**
   * A fit saved by `save` or `treeagent fit`, for a tree module:
   * `export const embedder = await FittedEmbedder.load(new URL('./tree.fit.json', import.meta.url), new HashedEmbedder())`.
   */
  static async load(file: string | URL, base: Embedder): Promise<FittedEmbedder> {
    return FittedEmbedder.fromJSON(JSON.parse(readFileSync(file, 'utf8')) as ProjectionJSON, base);
  }

  /** Fits the projection on the tree's chunks. */
  static async fit(tree: Tree, base: Embedder, options: FitOptions = {}): Promise<FittedEmbedder> {
    return new FittedEmbedder(
      base,
      await fitProjection(tree, base, options),
      options.embeddingCache ? { baseCache: options.embeddingCache } : {},
    );
  }

  /**
   * The fitted embedder of this tree and base embedder, from the cache when the tree's content, the
   * base embedder and the settings are unchanged, else fitted now and cached: an unchanged tree does
   * not refit at start-up, a changed one refits automatically.
   */
  static async forTree(tree: Tree, base: Embedder, options: ForTreeOptions = {}): Promise<FittedEmbedder> {
    const { cacheDirectory, file, ...fitOptions } = options;
    const settings = fitSettings(fitOptions);
    const path =
      file ?? (cacheDirectory ? join(cacheDirectory, fitFileName(tree, base, settings)) : undefined);
    if (path && existsSync(path)) {
      try {
        const json = JSON.parse(readFileSync(path, 'utf8')) as ProjectionJSON;
        if (
          json.format === FORMAT &&
          json.version === VERSION &&
          json.treeHash === tree.contentHash &&
          json.baseId === base.id &&
          sameSettings(json.settings, settings)
        )
          return new FittedEmbedder(
            base,
            projectionFromJSON(json),
            fitOptions.embeddingCache ? { baseCache: fitOptions.embeddingCache } : {},
          );
      } catch {
        // An unreadable cache file is refitted and overwritten.
      }
    }
    const fitted = await FittedEmbedder.fit(tree, base, fitOptions);
    if (path) fitted.save(path);
    return fitted;
  }
}

/** File name of a cached fit: tree content, base embedder and settings. */
export function fitFileName(tree: Tree, base: Embedder, settings: FitSettings): string {
  const key = createHash('sha256')
    .update(JSON.stringify([tree.contentHash, base.id, settings]))
    .digest('hex')
    .slice(0, 16);
  return `fit-${key}.json`;
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
