import { dirname, join } from 'node:path';
import type {
  Embedder,
  EmbeddingCache,
  FittedSpace,
  SpaceFitRequest,
  SpaceFitter,
} from '@treeagent/core/adapter';
import { type ChosenBase, chooseFitBase, type FitBase } from './fit-base.js';
import { chunkClasses } from './fit-classes.js';
import { fitProjectionWith } from './fit-projection.js';
import { type FitOptions, fitSettings } from './fit-settings.js';
import { FittedEmbedder, fitFileName, readCachedFit } from './fitted-embedder.js';
import { handInterimFit, INTERIM_FIT_MIN_UNEMBEDDED } from './interim-fit.js';
import { projectInWorker } from './project-in-worker.js';
import { projectVectors } from './project-vectors.js';
import type { Projection } from './projection.js';

/** How `spaceFitter` fits: the fit's settings, where fits are cached, and the embedder's base weight. */
export interface SpaceFitterOptions
  extends Pick<
    FitOptions,
    | 'classes'
    | 'minChunksPerClass'
    | 'pcaDimensions'
    | 'shrinkage'
    | 'dimensions'
    | 'powerIterations'
    | 'seed'
    | 'exactPcaMaxChunks'
    | 'threads'
    | 'onProgress'
  > {
  /**
   * Directory of cached fits, one file per tree chunks (`fitKey`) × base embedder × settings: an
   * unchanged tree (or one whose thresholds, names or messages changed) routes in the fitted space
   * from the first message after a restart. Default: `fits/` in the agent's data directory, beside
   * the packed index files of a persistent embedding cache (`openSqlite('data')`:
   * `data/fits/`, where `treeagent fit` and `treeagent dev` keep theirs); with an in-memory cache, or
   * `false`, fits live in memory.
   */
  cacheDirectory?: string | false;
  /**
   * Fits made ahead and shipped with the project (`treeagent fit` writes `tree.fit.json` beside the
   * tree): read, in order, before the cache directory, and used when one was made for this tree's
   * chunks (`fitKey`), base embedder and settings — a stale one (the tree's chunks changed) is
   * ignored and the tree fitted again. Never written.
   */
  fitFiles?: readonly string[];
  /** See `FittedEmbedderOptions.baseWeight` (default 0.5). */
  baseWeight?: number;
  /** Runs the math in a worker thread (default true), so the agent keeps serving while it fits. */
  worker?: boolean;
  /**
   * The calibration's `keep` the fitted space asks for (default `DEFAULT_FITTED_CALIBRATION_KEEP`);
   * the agent's `calibrateThresholds` option wins.
   */
  calibrationKeep?: number;
  /**
   * What the fit is made over (default `'auto'`: an English tree on the default hashed embedder is
   * fitted over USE-lite + hashed n-grams when `@treeagent/embedder-use` is installed; `'agent'`:
   * always the agent's embedder). See `FitBase`.
   */
  base?: FitBase;
  /**
   * Where the `'auto'` base looks for a multilingual sentence encoder pulled with `treeagent models
   * pull`, for trees not in English. Default: `models/` beside the cache directory (`data/fits` →
   * `data/models`); none without a cache directory, or with `false`.
   */
  modelsDirectory?: string | false;
  /**
   * An interim fit while the final one runs, when the final base's neural part (USE-lite, a pulled
   * model) has not embedded at least `minUnembeddedChunks` of the tree's chunks (default
   * `INTERIM_FIT_MIN_UNEMBEDDED`, 2,000): the agent routes within seconds in a space fitted over a
   * cheaper base (the USE-lite student + hashed for an English tree, hashed otherwise), then
   * switches to the final fit. `false`: no interim fit, the agent serves unfitted until the final
   * one (docs/routing.md, "Fitting at load"). Only the `'auto'` base makes one.
   */
  interimFit?: false | { minUnembeddedChunks?: number };
}

/**
 * The calibration's `keep` in a fitted space: 0.95 (0.925 in the unfitted one). The fit brings the
 * tree's chunks closer together than new messages will be, so the calibration, which samples the
 * chunks, keeps more of them. Chosen by 5-fold cross-validation on CLINC150 `train` (+ `oos_train`),
 * by the rule that chose 0.925: the smallest keep whose held-out in-scope messages are still answered
 * 90% of the time (docs/routing.md, "Fitting at load").
 */
export const DEFAULT_FITTED_CALIBRATION_KEEP = 0.95;

/** What a fit chose, for `FittedSpace.detail`: `exact PCA, 64 dimensions → 15 dimensions, 16 classes`. */
export function describeFit(projection: Projection): string {
  const pca = projection.pca
    ? projection.pca.method === 'identity'
      ? 'no PCA'
      : `${projection.pca.method} PCA, ${projection.pca.dimensions} dimensions`
    : 'PCA';
  return `${pca} → ${projection.outputDimensions} dimensions, ${projection.classes.length} classes`;
}

/**
 * The data directory's `fits/` for a persistent embedding cache: the sibling of its packed index
 * files' `indexDirectory` (`openSqlite('data')` → `data/fits`); none for an in-memory cache.
 */
export function dataFitsDirectory(cache: EmbeddingCache): string | undefined {
  return cache.indexDirectory ? join(dirname(cache.indexDirectory), 'fits') : undefined;
}

/** Below this many chunks the fit's worker does its products alone (no worker threads of its own). */
const SMALL_FIT_CHUNKS = 2000;

/**
 * The fitter `TreeAgent` uses to fit its embedding space at load (`TreeAgentOptions.fit`; found
 * automatically when this package is installed): embeds the chunks through the agent's cache,
 * fits in a worker thread, and keeps the fit in `cacheDirectory` when one is given.
 *
 * @example
 * const agent = new TreeAgent({ tree, spaceFitter: spaceFitter({ cacheDirectory: '.treeagent/fits' }) });
 * await agent.whenFitted(); // { state: 'fitted', … }
 */
export function spaceFitter(options: SpaceFitterOptions = {}): SpaceFitter {
  const {
    cacheDirectory: cacheOption,
    fitFiles = [],
    baseWeight,
    worker = true,
    calibrationKeep,
    base: fitBase = 'auto',
    modelsDirectory,
    interimFit = {},
    ...fitOptions
  } = options;
  const settings = fitSettings(fitOptions);
  const directoryOf = (request: SpaceFitRequest) =>
    cacheOption === false ? undefined : (cacheOption ?? dataFitsDirectory(request.embeddingCache));
  const fileOf = (request: SpaceFitRequest, base: Embedder) => {
    const directory = directoryOf(request);
    return directory ? join(directory, fitFileName(request.tree, base, settings)) : undefined;
  };
  // The chosen base's own settings (a base weight, a calibration) give way to the options.
  const weightOf = (chosen: ChosenBase) => baseWeight ?? chosen.settings?.baseWeight;
  const calibrationOf = (chosen: ChosenBase) => ({
    keep: calibrationKeep ?? chosen.settings?.calibrationKeep ?? DEFAULT_FITTED_CALIBRATION_KEEP,
  });
  const embedderOf = (
    request: SpaceFitRequest,
    chosen: ChosenBase,
    projection: FittedEmbedder['projection'],
  ) => {
    const weight = weightOf(chosen);
    return new FittedEmbedder(chosen.embedder, projection, {
      baseCache: request.embeddingCache,
      ...(weight === undefined ? {} : { baseWeight: weight }),
    });
  };
  const baseOf = (request: SpaceFitRequest) =>
    chooseFitBase(fitBase, request.tree, request.base, request.baseIsDefault === true, undefined, {
      ...modelsOf(request),
    });
  const modelsOf = (request: SpaceFitRequest) => {
    if (modelsDirectory === false) return {};
    const directory = modelsDirectory ?? directoryOf(request);
    return directory ? { directory: modelsDirectory ?? join(dirname(directory), 'models') } : {};
  };
  // The base of an interim fit (`handInterimFit`): the student for an English tree, else the agent's.
  const interimBaseOf = async (
    request: SpaceFitRequest,
    interim: 'use-student' | 'agent',
  ): Promise<ChosenBase | null> => {
    if (interim === 'agent')
      return { embedder: request.base, isAgents: true, reason: 'hashed n-grams (interim)' };
    const student = await chooseFitBase('use-student', request.tree, request.base, true);
    return student.isAgents ? null : { ...student, reason: `${student.reason} (interim)` };
  };
  const described = (chosen: ChosenBase) => ({
    calibration: calibrationOf(chosen),
    baseId: chosen.embedder.id,
    ...(chosen.reason ? { baseReason: chosen.reason } : {}),
  });
  return {
    id: `@treeagent/fit (shrinkage ${settings.shrinkage}${cacheOption ? `, cache ${cacheOption}` : ''})`,
    skip(tree, base) {
      if (base instanceof FittedEmbedder || base.id.startsWith('fitted('))
        return `the embedder "${base.id}" is already fitted`;
      const counts = new Map<number, number>();
      const labels = chunkClasses(tree, settings.classes);
      for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
      const classes = [...counts.values()].filter((count) => count >= settings.minChunksPerClass).length;
      return classes < 2
        ? `only ${classes} node(s) hold ${settings.minChunksPerClass} chunks or more; a fit needs 2`
        : null;
    },
    async cached(request) {
      const chosen = await baseOf(request);
      const cacheFile = fileOf(request, chosen.embedder);
      // A shipped fit first, then the data directory's; each is used only when made for this tree.
      const candidates = [...fitFiles, ...(cacheFile ? [cacheFile] : [])];
      let file: string | undefined;
      let projection: FittedEmbedder['projection'] | null = null;
      for (const candidate of candidates) {
        projection = readCachedFit(candidate, request.tree, chosen.embedder, settings);
        if (projection) {
          file = candidate;
          break;
        }
      }
      if (!projection) return null;
      return {
        embedder: embedderOf(request, chosen, projection),
        cached: true,
        fitMilliseconds: projection.milliseconds,
        detail: describeFit(projection),
        ...described(chosen),
        ...(file ? { file } : {}),
      } satisfies FittedSpace;
    },
    async fit(request) {
      const { signal } = request;
      const project = (base: Embedder) =>
        fitProjectionWith(
          request.tree,
          base,
          {
            // A small tree fits in a fraction of a second: more threads only cost their start-up.
            threads: request.tree.chunks.length < SMALL_FIT_CHUNKS ? 1 : undefined,
            ...fitOptions,
            embeddingCache: request.embeddingCache,
            signal,
          },
          (input, onStep) =>
            worker ? projectInWorker(input, onStep, signal) : projectVectors(input, onStep, signal),
        );
      const spaceOf = (
        chosen: ChosenBase,
        projection: FittedEmbedder['projection'],
        cached: boolean,
        file?: string,
      ) => ({
        embedder: embedderOf(request, chosen, projection),
        cached,
        fitMilliseconds: projection.milliseconds,
        detail: describeFit(projection),
        ...described(chosen),
        ...(file ? { file } : {}),
      });
      let chosen = await baseOf(request);
      // A neural base that has not embedded a large tree yet: a cheaper fit first, routed meanwhile.
      if (chosen.costly && fitBase === 'auto' && interimFit !== false) {
        const { costly } = chosen;
        await handInterimFit({
          request,
          settings,
          minUnembeddedChunks: interimFit.minUnembeddedChunks ?? INTERIM_FIT_MIN_UNEMBEDDED,
          chosen: { ...chosen, costly },
          interimBase: () => interimBaseOf(request, costly.interim),
          project,
          fileOf: (base) => fileOf(request, base),
          spaceOf,
        });
      }
      let projection: FittedEmbedder['projection'];
      try {
        projection = await project(chosen.embedder);
      } catch (error) {
        // A base 'auto' chose (USE-lite; the student with 'use-student') that fails to embed never
        // leaves the tree unfitted: the fit is made over the agent's embedder, as without it, and the
        // status says why.
        if ((fitBase !== 'auto' && fitBase !== 'use-student') || chosen.isAgents || signal.aborted)
          throw error;
        const message = error instanceof Error ? error.message : String(error);
        chosen = {
          embedder: request.base,
          isAgents: true,
          reason: `hashed n-grams (${chosen.reason} failed: ${message})`,
        };
        projection = await project(chosen.embedder);
      }
      const file = fileOf(request, chosen.embedder);
      const space = spaceOf(chosen, projection, false, file);
      if (file) space.embedder.save(file);
      return space;
    },
  };
}
