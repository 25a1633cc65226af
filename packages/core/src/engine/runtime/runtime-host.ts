import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import type { CalibrationOptions } from '../../explore/calibrate-thresholds.js';
import type { ExploreScan, ExploreThreads } from '../../explore/chunk-index.js';
import type { FileStore } from '../../files/file-store.js';
import type { LanguageDetector } from '../../model/language-detector.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { Tree } from '../../tree/tree.js';
import type { VectorStore } from '../../vector/vector-store.js';
import { fitBlocker, NO_SPACE_FITTER } from './fit-plan.js';
import { type ExploreIn, loadRuntime } from './load-runtime.js';
import type { MissingModelPolicy } from './missing-models.js';
import type { AgentRuntime, TurnLimits } from './runtime.js';
import type {
  FitMode,
  FittedSpace,
  InterimSpace,
  SpaceFitRequest,
  SpaceFitter,
  SpaceStatus,
} from './space-fitter.js';

/** What the host builds runtimes from: the agent's options, resolved (`TreeAgent` fills the defaults). */
export interface RuntimeHostOptions {
  tree: Tree;
  embedder: Embedder;
  /** No `embedder` option was given: the default `HashedEmbedder` runs (the automatic fit applies to it). */
  defaultEmbedder: boolean;
  embeddingCache: EmbeddingCache;
  messageCache: EmbeddingCache;
  vectorStore: VectorStore;
  fileStore: FileStore;
  models: Record<string, LanguageModel>;
  missingModels?: MissingModelPolicy;
  limits: TurnLimits;
  now: () => Date;
  languageDetector: LanguageDetector;
  exploreIn: ExploreIn;
  exploreScan: ExploreScan;
  exploreThreads: ExploreThreads;
  indexDirectory: string | undefined;
  calibrateThresholds: boolean | CalibrationOptions | undefined;
  fit: FitMode;
  spaceFitter: SpaceFitter | undefined;
  log: (level: 'info' | 'warn', message: string) => void;
}

/**
 * The runtime of the agent's tree, and the one place that changes it: loads it on first use, fits
 * its embedding space (from the fitter's cache at once, or in the background while the unfitted
 * runtime serves) and swaps a new runtime in with one assignment — a fitted space, or another tree
 * (`setTree`). A turn holds the runtime it started with.
 */
export class RuntimeHost {
  readonly #options: RuntimeHostOptions;
  #tree: Tree;
  #runtime: Promise<AgentRuntime> | null = null;
  /** The load whose runtime is installed (its space status and background fit). */
  #installed: LoadJob | null = null;

  constructor(options: RuntimeHostOptions) {
    this.#options = options;
    this.#tree = options.tree;
  }

  /** The options it was made with: another host for another tree shares them (`TreeAgent`'s session trees). */
  get options(): RuntimeHostOptions {
    return this.#options;
  }

  /** The tree of the installed runtime (or of the one the first use loads). */
  get tree(): Tree {
    return this.#tree;
  }

  /** The runtime turns start on: loaded on first use; a failed load is retried by the next call. */
  load(): Promise<AgentRuntime> {
    if (!this.#runtime) {
      const job = newLoadJob(this.#tree);
      const promise = this.#start(job);
      this.#runtime = promise;
      this.#install(job);
      promise.catch(() => {
        if (this.#runtime === promise) this.#runtime = null;
      });
    }
    return this.#runtime;
  }

  /** Loads `tree` and swaps it in once loaded; turns in progress finish on the old runtime. */
  async setTree(tree: Tree): Promise<void> {
    const job = newLoadJob(tree);
    const next = this.#start(job);
    await next;
    this.#tree = tree;
    this.#runtime = next;
    this.#install(job);
  }

  /** Where the embedding space stands (`TreeAgent.space()`). */
  space(): SpaceStatus {
    return (
      this.#installed?.status ?? {
        state: 'unfitted',
        embedderId: this.#options.embedder.id,
        reason: 'not loaded yet (ready() or the first message loads it)',
      }
    );
  }

  /** Loads, then waits until the installed load's space will not change any more (`TreeAgent.whenFitted()`). */
  async whenFitted(): Promise<SpaceStatus> {
    await this.load();
    const keepAlive = setInterval(() => {}, 1 << 30);
    try {
      let job: LoadJob | null = null;
      // A setTree during the wait starts another load: wait for the one installed at the end.
      while (job !== this.#installed) {
        job = this.#installed;
        await job?.settled;
      }
    } finally {
      clearInterval(keepAlive);
    }
    return this.space();
  }

  /** Makes `job` the installed load: its status is the agent's, the previous load's fit is stopped. */
  #install(job: LoadJob): void {
    const previous = this.#installed;
    this.#installed = job;
    if (previous && previous !== job) {
      previous.controller.abort(new Error('the tree was replaced'));
      previous.resolveSettled();
    }
    job.resolveInstalled();
  }

  /**
   * Loads `job.tree`: in the fitted space at once when the fitter has this tree's fit cached; else in
   * the unfitted space, with the fit started in the background (`#fitInBackground`).
   */
  async #start(job: LoadJob): Promise<AgentRuntime> {
    const fitter = this.#fitterFor(job);
    if (fitter) {
      const cached = await fitter.cached(this.#fitRequest(job)).catch(() => null);
      if (cached) {
        const runtime = await this.#build(job.tree, cached);
        job.status = fittedStatus(this.#options.embedder, fitter, cached);
        job.resolveSettled();
        return runtime;
      }
    }
    const runtime = await this.#build(job.tree);
    if (fitter) void this.#fitInBackground(job, fitter);
    else job.resolveSettled();
    return runtime;
  }

  /** The fitter for this load, or `null` with the reason in the job's status. */
  #fitterFor(job: LoadJob): SpaceFitter | null {
    const { embedder } = this.#options;
    const unfitted = (reason: string) => {
      job.status = { state: 'unfitted', embedderId: embedder.id, reason };
      return null;
    };
    const blocker = fitBlocker({
      mode: this.#options.fit,
      tree: job.tree,
      defaultEmbedder: this.#options.defaultEmbedder,
      exploreIn: this.#options.exploreIn,
    });
    if (blocker) return unfitted(blocker);
    const fitter = this.#options.spaceFitter;
    if (!fitter) return unfitted(NO_SPACE_FITTER);
    const skip = fitter.skip?.(job.tree, embedder) ?? null;
    return skip ? unfitted(skip) : fitter;
  }

  #fitRequest(job: LoadJob, onInterim?: SpaceFitRequest['onInterim']): SpaceFitRequest {
    return {
      tree: job.tree,
      base: this.#options.embedder,
      baseIsDefault: this.#options.defaultEmbedder,
      embeddingCache: this.#options.embeddingCache,
      signal: job.controller.signal,
      ...(onInterim ? { onInterim } : {}),
    };
  }

  /**
   * Swaps in the runtime of `job`'s tree in `space` when `job` is still the installed load; false
   * when it is not (the tree was replaced meanwhile).
   */
  async #switchTo(job: LoadJob, space: FittedSpace): Promise<boolean> {
    const runtime = await this.#build(job.tree, space);
    await job.installed;
    if (job.controller.signal.aborted || this.#installed !== job) return false;
    this.#runtime = Promise.resolve(runtime);
    return true;
  }

  /**
   * Fits while the unfitted runtime serves; when the fit is ready and this load is still the
   * installed one, builds the fitted runtime (thresholds calibrated again in the fitted space) and
   * swaps it in: turns in progress finish on the runtime they started with. A failure is logged and
   * leaves the unfitted runtime serving.
   */
  async #fitInBackground(job: LoadJob, fitter: SpaceFitter): Promise<void> {
    const { embedder, log } = this.#options;
    const tree = job.tree;
    const started = performance.now();
    job.status = { state: 'fitting', embedderId: embedder.id, fitter: fitter.id };
    // The space routing while the fit runs: the agent's, or an interim fit the fitter handed.
    let meanwhile = `the unfitted space (${embedder.id})`;
    const onInterim = async (space: FittedSpace) => {
      if (!(await this.#switchTo(job, space))) return;
      job.status = {
        state: 'fitting',
        embedderId: space.embedder.id,
        fitter: fitter.id,
        interim: interimStatus(space),
      };
      meanwhile = `the interim fitted space (${space.embedder.id})`;
      log(
        'info',
        `Tree Agent: routing tree "${tree.name}" in an interim fitted space while the fit runs (${space.cached ? 'from the cache' : `fitted in ${(space.fitMilliseconds / 1000).toFixed(1)} s`}${space.baseReason ? `; over ${space.baseReason}` : ''}); thresholds calibrated in it.`,
      );
    };
    try {
      const fitted = await fitter.fit(this.#fitRequest(job, onInterim));
      if (!(await this.#switchTo(job, fitted))) return;
      job.status = fittedStatus(embedder, fitter, fitted);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log(
        'info',
        `Tree Agent: routing tree "${tree.name}" in the fitted space (${fitted.cached ? 'from the cache' : `fitted in ${seconds} s`}${fitted.file ? `, ${fitted.file}` : ''}${fitted.detail ? `; ${fitted.detail}` : ''}${fitted.baseReason ? `; over ${fitted.baseReason}` : ''}); thresholds calibrated again in it.`,
      );
    } catch (error) {
      if (job.controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const interim = job.status.state === 'fitting' ? job.status.interim : undefined;
      job.status = {
        state: 'failed',
        embedderId: job.status.embedderId,
        fitter: fitter.id,
        error: message,
        ...(interim ? { interim } : {}),
      };
      log(
        'warn',
        `Tree Agent: fitting the embedding space to tree "${tree.name}" failed (${message}); still routing in ${meanwhile}. It is retried at the next load; fit: false turns automatic fitting off.`,
      );
    } finally {
      job.resolveSettled();
    }
  }

  /**
   * The runtime of `tree`, in the fitted space when one is given (else the embedder's); with a
   * cascade (`fitted.escalation`), the runtime of its second space too, built first.
   */
  async #build(tree: Tree, fitted?: FittedSpace): Promise<AgentRuntime> {
    const escalation = fitted?.escalation;
    const second = escalation
      ? await this.#runtimeIn(tree, escalation.embedder, escalation.calibration)
      : undefined;
    const runtime = await this.#runtimeIn(tree, fitted?.embedder, fitted?.calibration);
    return escalation && second
      ? { ...runtime, escalation: { runtime: second, margin: escalation.margin, gap: escalation.gap } }
      : runtime;
  }

  /** The runtime of `tree` routing with `exploreEmbedder` (default: the agent's embedder). */
  #runtimeIn(
    tree: Tree,
    exploreEmbedder: Embedder | undefined,
    calibration: CalibrationOptions | undefined,
  ): Promise<AgentRuntime> {
    const options = this.#options;
    const calibrate = options.calibrateThresholds;
    return loadRuntime({
      tree,
      embedder: options.embedder,
      ...(exploreEmbedder ? { exploreEmbedder } : {}),
      embeddingCache: options.embeddingCache,
      messageCache: options.messageCache,
      vectorStore: options.vectorStore,
      fileStore: options.fileStore,
      models: options.models,
      ...(options.missingModels ? { missingModels: options.missingModels } : {}),
      limits: options.limits,
      now: options.now,
      languageDetector: options.languageDetector,
      exploreIn: options.exploreIn,
      exploreScan: options.exploreScan,
      exploreThreads: options.exploreThreads,
      indexDirectory: options.indexDirectory,
      log: options.log,
      // The fitter's advice for its space first; what the options set wins.
      calibration:
        calibrate === false ? false : { ...calibration, ...(typeof calibrate === 'object' ? calibrate : {}) },
    });
  }
}

/** One load of a tree: its space status, its background fit and when that is settled. */
interface LoadJob {
  tree: Tree;
  controller: AbortController;
  status: SpaceStatus;
  /** Resolves when the runtime of this load is installed (`#install`). */
  installed: Promise<void>;
  resolveInstalled(): void;
  /** Resolves when the space of this load will not change any more (fitted, failed, unfitted, replaced). */
  settled: Promise<void>;
  resolveSettled(): void;
}

function newLoadJob(tree: Tree): LoadJob {
  let resolveInstalled = () => {};
  let resolveSettled = () => {};
  const installed = new Promise<void>((resolve) => {
    resolveInstalled = resolve;
  });
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });
  return {
    tree,
    controller: new AbortController(),
    status: { state: 'unfitted', embedderId: '', reason: 'loading' },
    installed,
    resolveInstalled,
    settled,
    resolveSettled,
  };
}

function interimStatus(space: FittedSpace): InterimSpace {
  return {
    baseId: space.baseId ?? space.embedder.id,
    fitMilliseconds: space.fitMilliseconds,
    cached: space.cached,
    ...(space.detail ? { detail: space.detail } : {}),
    ...(space.baseReason ? { base: space.baseReason } : {}),
  };
}

function fittedStatus(base: Embedder, fitter: SpaceFitter, space: FittedSpace): SpaceStatus {
  return {
    state: 'fitted',
    embedderId: space.embedder.id,
    baseId: space.baseId ?? base.id,
    fitter: fitter.id,
    cached: space.cached,
    fitMilliseconds: space.fitMilliseconds,
    ...(space.file ? { file: space.file } : {}),
    ...(space.detail ? { detail: space.detail } : {}),
    ...(space.baseReason ? { base: space.baseReason } : {}),
    ...(space.escalation
      ? {
          escalation: {
            embedderId: space.escalation.embedder.id,
            baseId: space.escalation.baseId ?? base.id,
            ...(space.escalation.baseReason ? { base: space.escalation.baseReason } : {}),
            margin: space.escalation.margin,
            gap: space.escalation.gap,
          },
        }
      : {}),
  };
}
