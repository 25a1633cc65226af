import { dirname, join } from 'node:path';
import type { Tree } from '@treeagent/core';
import type { EmbeddingCache, FittedSpace, SpaceFitRequest, SpaceFitter } from '@treeagent/core/adapter';
import { CASCADE_GAP, CASCADE_MARGIN, type ChosenBase, chooseFitBase, type FitBase } from './fit-base.js';
import { chunkClasses, trainingSet } from './fit-classes.js';
import { fitProjectionWith } from './fit-projection.js';
import { type FitOptions, fitSettings } from './fit-settings.js';
import { FittedEmbedder, fitFileName, readCachedFit } from './fitted-embedder.js';
import { handInterimFit, interimThreshold } from './interim-fit.js';
import { projectInWorker } from './project-in-worker.js';
import { projectVectors } from './project-vectors.js';
import type { Projection } from './projection.js';
import { wholePartFits } from './whole-part-basis.js';

/** The two bases of the `'cascade'` base: the student's first, USE-lite's for unsure messages. */
interface Cascade {
  first: ChosenBase;
  second: ChosenBase;
}

/** How `spaceFitter` fits: the fit's settings, where fits are cached, and the embedder's base weight. */
export interface SpaceFitterOptions
  extends Pick<
    FitOptions,
    | 'classes'
    | 'minChunksPerClass'
    | 'pcaDimensions'
    | 'wholePart'
    | 'refine'
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
   * always the agent's embedder; `'use-student'`, `'cascade'`: the USE-lite student, alone or first
   * with USE-lite for unsure messages). See `FitBase`.
   */
  base?: FitBase;
  /**
   * Where the `'auto'` base looks for a multilingual sentence encoder pulled with `treeagent models
   * pull`, for trees not in English. Default: `models/` beside the cache directory (`data/fits` →
   * `data/models`); none without a cache directory, or with `false`.
   */
  modelsDirectory?: string | false;
  /**
   * An interim fit while the final one runs, when the final base's neural part has not embedded at
   * least `minUnembeddedChunks` of the tree's chunks (default `INTERIM_FIT_MIN_UNEMBEDDED`, 2,000):
   * the agent routes sooner in a space fitted over a cheaper base (the USE-lite student + hashed
   * for an English tree, hashed otherwise), then switches to the final fit. Default: only over a
   * pulled multilingual model, whose embedding of a large tree takes minutes; USE-lite embeds
   * 15,000 chunks in about 10 s on two cores, and an interim fit first would put its final fit
   * about 30 s later (docs/routing.md, "Fitting at load"). `true` or `{ minUnembeddedChunks }`: over
   * USE-lite too. `false`: never; the agent serves unfitted until the final fit. Only the `'auto'`
   * base makes one. Apart from it, a fit whose map is refined on the chunks (`refine`) hands the
   * LDA's own fit as an interim fit while the refinement runs (`false` turns that off too).
   */
  interimFit?: boolean | { minUnembeddedChunks?: number };
}

/**
 * The calibration's `keep` in a fitted space: 0.95 (0.925 in the unfitted one). The fit brings the
 * tree's chunks closer together than new messages will be, so the calibration, which samples the
 * chunks, keeps more of them. Chosen by 5-fold cross-validation on CLINC150 `train` (+ `oos_train`),
 * by the rule that chose 0.925: the smallest keep whose held-out in-scope messages are still answered
 * 90% of the time (docs/routing.md, "Fitting at load").
 */
export const DEFAULT_FITTED_CALIBRATION_KEEP = 0.95;

/**
 * The calibration a fit's base asks for: that of a space fitted with the base's part kept whole when
 * the fit kept it (a large enough tree; with the map refined, its keep and samples per node), else
 * the base's own keep; nothing when the base asks for none.
 */
export function askedCalibration(
  chosen: ChosenBase,
  projection: Projection,
): { keep?: number; samplesPerNode?: number } {
  const asked = chosen.settings;
  if (!asked) return {};
  if (projection.pca?.whole === undefined || !asked.wholePart) return { keep: asked.calibrationKeep };
  const refined = projection.settings.refine ? asked.wholePart.refine : undefined;
  if (!refined) return { keep: asked.wholePart.calibrationKeep };
  return {
    keep: refined.calibrationKeep,
    ...(refined.calibrationSamples === undefined ? {} : { samplesPerNode: refined.calibrationSamples }),
  };
}

/**
 * The calibration a fitted space asks for (`FittedSpace.calibration`): the keep of the fitter's
 * option, else the base's (`askedCalibration`), else `DEFAULT_FITTED_CALIBRATION_KEEP`; the samples
 * per node the base asks for in that space.
 */
export function fittedCalibration(
  chosen: ChosenBase,
  projection: Projection,
  keepOption?: number,
): { keep: number; samplesPerNode?: number } {
  const asked = askedCalibration(chosen, projection);
  return {
    keep: keepOption ?? asked.keep ?? DEFAULT_FITTED_CALIBRATION_KEEP,
    ...(asked.samplesPerNode === undefined ? {} : { samplesPerNode: asked.samplesPerNode }),
  };
}

/** What a fit chose, for `FittedSpace.detail`: `exact PCA, 64 dimensions → 15 dimensions, 16 classes`. */
export function describeFit(projection: Projection): string {
  const { pca: step } = projection;
  const pca = !step
    ? 'PCA'
    : step.method === 'identity'
      ? 'no PCA'
      : step.whole
        ? `${step.whole} dimensions whole + ${step.method} PCA of the rest, ${step.dimensions - step.whole} dimensions`
        : `${step.method} PCA, ${step.dimensions} dimensions`;
  const refine = projection.settings.refine;
  const refined = refine ? `, the map refined on the chunks (${refine.epochs} passes)` : '';
  return `${pca} → ${projection.outputDimensions} dimensions, ${projection.classes.length} classes${refined}`;
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
    interimFit,
    ...fitOptions
  } = options;
  const settings = fitSettings(fitOptions);
  // The chosen base's own settings (a base weight, a calibration, a part kept whole) give way to the options.
  // The training chunks and classes of a tree (null: too few classes to fit), once per tree.
  const sizes = new WeakMap<Tree, { chunks: number; classes: number } | null>();
  const sizeOf = (tree: Tree) => {
    if (!sizes.has(tree)) {
      try {
        const training = trainingSet(tree, settings);
        sizes.set(tree, { chunks: training.texts.length, classes: training.classes.length });
      } catch {
        sizes.set(tree, null);
      }
    }
    return sizes.get(tree)!;
  };
  // A part the base asks to keep whole is in the fit's settings only for a tree large enough for
  // it: a smaller tree's fit, and the key it is cached and shipped under, stay the one PCA's.
  const optionsOver = (chosen: ChosenBase, tree: Tree): FitOptions => {
    const asked = fitOptions.wholePart ?? chosen.settings?.wholePart;
    const size = asked ? sizeOf(tree) : null;
    const whole = asked && size && wholePartFits(size.chunks, size.classes, asked);
    // The base's refinement comes with its part kept whole; the fitter's `refine` wins.
    const askedRefine = fitOptions.wholePart ? undefined : chosen.settings?.wholePart?.refine;
    const refine = fitOptions.refine ?? (whole && askedRefine ? askedRefine : false);
    return {
      ...fitOptions,
      wholePart: whole ? { dimensions: asked.dimensions, pcaOfRest: asked.pcaOfRest } : false,
      refine,
    };
  };
  const settingsOf = (chosen: ChosenBase, tree: Tree) => fitSettings(optionsOver(chosen, tree));
  const directoryOf = (request: SpaceFitRequest) =>
    cacheOption === false ? undefined : (cacheOption ?? dataFitsDirectory(request.embeddingCache));
  const fileOf = (request: SpaceFitRequest, chosen: ChosenBase) => {
    const directory = directoryOf(request);
    return directory
      ? join(directory, fitFileName(request.tree, chosen.embedder, settingsOf(chosen, request.tree)))
      : undefined;
  };
  const weightOf = (chosen: ChosenBase) => baseWeight ?? chosen.settings?.baseWeight;
  const calibrationOf = (chosen: ChosenBase, projection: Projection) =>
    fittedCalibration(chosen, projection, calibrationKeep);
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
  const choose = (request: SpaceFitRequest, base: FitBase) =>
    chooseFitBase(base, request.tree, request.base, request.baseIsDefault === true, undefined, {
      ...modelsOf(request),
    });
  const baseOf = (request: SpaceFitRequest) => choose(request, fitBase === 'cascade' ? 'auto' : fitBase);
  // 'cascade': the student's fit, and USE-lite's for unsure messages; null when the student does not
  // serve this tree (not English, the package missing): then the tree is fitted as with 'auto'.
  const cascadeOf = async (request: SpaceFitRequest): Promise<Cascade | null> => {
    if (fitBase !== 'cascade') return null;
    const first = await choose(request, 'use-student');
    if (first.isAgents) return null;
    const second = await choose(request, 'auto');
    return second.isAgents ? null : { first, second };
  };
  // A fit over `chosen` made ahead or cached: a shipped file first, then the data directory's; each
  // is used only when made for this tree's chunks, base and settings.
  const readFit = (request: SpaceFitRequest, chosen: ChosenBase) => {
    const cacheFile = fileOf(request, chosen);
    for (const file of [...fitFiles, ...(cacheFile ? [cacheFile] : [])]) {
      const projection = readCachedFit(file, request.tree, chosen.embedder, settingsOf(chosen, request.tree));
      if (projection) return { projection, file };
    }
    return null;
  };
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
  const described = (chosen: ChosenBase, projection: Projection) => ({
    calibration: calibrationOf(chosen, projection),
    baseId: chosen.embedder.id,
    ...(chosen.reason ? { baseReason: chosen.reason } : {}),
  });
  const spaceOf = (
    request: SpaceFitRequest,
    chosen: ChosenBase,
    projection: FittedEmbedder['projection'],
    cached: boolean,
    file?: string,
  ) => ({
    embedder: embedderOf(request, chosen, projection),
    cached,
    fitMilliseconds: projection.milliseconds,
    detail: describeFit(projection),
    ...described(chosen, projection),
    ...(file ? { file } : {}),
  });
  // The cascade's fitted space: the student's, with USE-lite's for its unsure messages.
  const withEscalation = (
    request: SpaceFitRequest,
    cascade: Cascade,
    first: FittedSpace,
    second: FittedEmbedder['projection'],
  ): FittedSpace => ({
    ...first,
    fitMilliseconds: first.fitMilliseconds + second.milliseconds,
    detail: `${first.detail}; USE-lite's: ${describeFit(second)}`,
    baseReason: `${cascade.first.reason}; unsure messages over ${cascade.second.reason?.replace(/ \(.*$/, '')}`,
    escalation: {
      embedder: embedderOf(request, cascade.second, second),
      calibration: calibrationOf(cascade.second, second),
      margin: CASCADE_MARGIN,
      gap: CASCADE_GAP,
      baseId: cascade.second.embedder.id,
      ...(cascade.second.reason ? { baseReason: cascade.second.reason } : {}),
    },
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
      const cascade = await cascadeOf(request);
      if (cascade) {
        const first = readFit(request, cascade.first);
        const second = first && readFit(request, cascade.second);
        if (!first || !second) return null;
        return withEscalation(
          request,
          cascade,
          spaceOf(request, cascade.first, first.projection, true, first.file),
          second.projection,
        );
      }
      const chosen = await baseOf(request);
      const found = readFit(request, chosen);
      return found ? spaceOf(request, chosen, found.projection, true, found.file) : null;
    },
    async fit(request) {
      const { signal } = request;
      const project = (chosen: ChosenBase, onUnrefined?: (projection: Projection) => void) =>
        fitProjectionWith(
          request.tree,
          chosen.embedder,
          {
            // A small tree fits in a fraction of a second: more threads only cost their start-up.
            threads: request.tree.chunks.length < SMALL_FIT_CHUNKS ? 1 : undefined,
            ...optionsOver(chosen, request.tree),
            embeddingCache: request.embeddingCache,
            signal,
          },
          (input, onStep, unrefined) =>
            worker
              ? projectInWorker(input, onStep, signal, unrefined)
              : projectVectors(input, onStep, signal, unrefined),
          onUnrefined,
        );
      // With the map refined on the chunks (seconds more), the LDA's own fit is handed as an interim
      // fit (`request.onInterim`) and routes meanwhile; the final fit waits for that hand-over, so it
      // is never overtaken by it (docs/routing.md, "A map learned on the chunks").
      let handing: Promise<void> | undefined;
      const handUnrefined = (chosen: ChosenBase) => (projection: Projection) => {
        if (!request.onInterim || signal.aborted || interimFit === false) return;
        const space = spaceOf(request, chosen, projection, false);
        handing = request.onInterim(space).catch(() => {});
      };
      // A fit over `chosen` made now, kept in the cache directory; or read back when it is there.
      const fitNow = async (chosen: ChosenBase, onUnrefined?: (projection: Projection) => void) => {
        const projection = await project(chosen, onUnrefined);
        const file = fileOf(request, chosen);
        if (file) embedderOf(request, chosen, projection).save(file);
        return { projection, cached: false, ...(file ? { file } : {}) };
      };
      const fitOver = async (chosen: ChosenBase) => {
        const found = readFit(request, chosen);
        return found ? { ...found, cached: true } : fitNow(chosen);
      };
      const cascade = await cascadeOf(request);
      if (cascade) {
        // The student's fit (cached, or made now: seconds), routed while USE-lite's is made.
        const first = await fitOver(cascade.first);
        const firstSpace = spaceOf(request, cascade.first, first.projection, first.cached, first.file);
        const second = readFit(request, cascade.second);
        if (!second) await request.onInterim?.(firstSpace);
        let secondProjection: FittedEmbedder['projection'];
        try {
          secondProjection = second?.projection ?? (await fitNow(cascade.second)).projection;
        } catch (error) {
          // USE-lite failing leaves the student's fit routing every message, and says why.
          if (signal.aborted) throw error;
          const message = error instanceof Error ? error.message : String(error);
          return { ...firstSpace, baseReason: `${cascade.first.reason} (USE-lite failed: ${message})` };
        }
        return withEscalation(request, cascade, { ...firstSpace, cached: false }, secondProjection);
      }
      let chosen = await baseOf(request);
      // A neural base that has not embedded a large tree yet: a cheaper fit first, routed meanwhile.
      const { costly } = chosen;
      const minUnembeddedChunks = costly && fitBase === 'auto' ? interimThreshold(interimFit, costly) : null;
      // 0 is a threshold too: an interim fit whatever the cache holds.
      if (costly && minUnembeddedChunks !== null)
        await handInterimFit({
          request,
          settings,
          minUnembeddedChunks,
          chosen: { ...chosen, costly },
          interimBase: () => interimBaseOf(request, costly.interim),
          fitOver,
          spaceOf: (base, projection, cached, file) => spaceOf(request, base, projection, cached, file),
        });
      let fitted: Awaited<ReturnType<typeof fitNow>>;
      try {
        fitted = await fitNow(chosen, handUnrefined(chosen));
        await handing;
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
        fitted = await fitNow(chosen);
      }
      return spaceOf(request, chosen, fitted.projection, false, fitted.file);
    },
  };
}
