import { availableParallelism } from 'node:os';
import { ConcatEmbedder, type Tree } from '@treeagent/core';
import { type Embedder, isEnglishTree } from '@treeagent/core/adapter';
import type { ProxyRefinement, WholePart } from './fit-settings.js';
import { type MultilingualSource, multilingualEmbedder } from './multilingual-base.js';

/**
 * What the fit is made over (`SpaceFitterOptions.base`):
 * - `'auto'` (default): the agent's embedder, except that an English tree routed by the library's
 *   default hashed embedder is fitted over USE-lite + hashed n-grams (2:1) when
 *   `@treeagent/embedder-use` is installed — the best offline base for English (docs/routing.md,
 *   "The base of the fit");
 *   — and a tree in another language is fitted over a multilingual sentence encoder pulled with
 *   `treeagent models pull` + hashed n-grams (2:1) when one is in the models directory and
 *   `@treeagent/embedder-transformers` is installed;
 * - `'use-student'`: as `'auto'`, except that the English tree is fitted over the distilled student of
 *   USE-lite (`UseStudentEmbedder`) + hashed n-grams 2:1: far cheaper per message (plain JavaScript,
 *   no model thread), and less accurate than USE-lite (docs/routing.md, "The base of the fit");
 * - `'cascade'`: an English tree is fitted over both: each message is routed over the student first,
 *   and over USE-lite when that routing is unsure (`CASCADE_MARGIN`, `CASCADE_GAP`); most messages
 *   cost the student's price, the unsure ones USE-lite's too; any other tree as with `'auto'`;
 * - `'agent'`: always the agent's embedder;
 * - an `Embedder`: that one (its vectors must describe the same texts as the agent's).
 */
export type FitBase = 'auto' | 'use-student' | 'cascade' | 'agent' | Embedder;

/**
 * The gate of the `'cascade'` base: a message routed over the student whose decisions include one
 * with the best child less than `CASCADE_MARGIN` ahead of the runner-up, or a best similarity within
 * `CASCADE_GAP` of the threshold, is routed again over USE-lite. Chosen by 5-fold cross-validation on
 * CLINC150 `train` (+ `oos_train`), by a rule fixed before the run: the fewest messages escalated
 * among the gates within 0.005 of USE-lite + hashed alone, in-scope right and out-of-scope declined
 * (docs/routing.md, "A cascade").
 */
export const CASCADE_MARGIN = 0.05;
export const CASCADE_GAP = 0.06;

/** The package whose `UseEmbedder` the `'auto'` base uses for English trees. */
export const USE_PACKAGE = '@treeagent/embedder-use';

/**
 * The base weight of a space fitted over USE-lite + hashed 2:1, chosen with the calibration's keep
 * (below) by cross-validation on CLINC150 `train` (docs/routing.md, "The base of the fit").
 */
export const USE_BASE_WEIGHT = 0.25;

/**
 * The calibration's `keep` in a space fitted over USE-lite + hashed. With the base weight, chosen by
 * cross-validation on CLINC150 `train` (+ `oos_train`, never `val`) by the rule "the most held-out
 * in-scope messages right among the settings that still decline 90% of held-out out-of-scope
 * messages" (docs/routing.md, "The base of the fit").
 */
export const USE_BASE_CALIBRATION_KEEP = 0.965;

/**
 * The base weight and calibration keep of a space fitted over the USE-lite student + hashed 2:1
 * (`base: 'use-student'`): USE-lite's base weight, and the keep chosen by 5-fold cross-validation on
 * CLINC150 `train` with USE-lite's rule (the most in-scope right among the keeps that still decline
 * 90% of `oos_train`; docs/routing.md, "The base of the fit").
 */
export const STUDENT_BASE_WEIGHT = 0.25;
export const STUDENT_BASE_CALIBRATION_KEEP = 0.95;

/**
 * Over USE-lite + hashed, the fit keeps USE-lite's 512 dimensions whole and reduces the hashed
 * n-grams alone to `USE_HASHED_PCA_DIMENSIONS` (`FitOptions.wholePart`) when the tree has chunks
 * enough for both (about 3,100 or more; smaller trees get the one PCA). The calibration's keep in
 * that space is `USE_WHOLE_PART_CALIBRATION_KEEP`. Both chosen by 5-fold cross-validation on
 * CLINC150 `train` (+ `oos_train`, never `val`) with the rule of `USE_BASE_CALIBRATION_KEEP`
 * (docs/routing.md, "The base of the fit").
 */
export const USE_HASHED_PCA_DIMENSIONS = 256;
export const USE_WHOLE_PART_CALIBRATION_KEEP = 0.97;

/**
 * In that space the LDA's map is then sharpened on the chunks (`FitOptions.refine`: a normalised
 * softmax against one proxy per class, scale 12, Adam for 3 passes of 512-chunk steps at 0.1), and
 * the calibration samples `USE_REFINED_CALIBRATION_SAMPLES` chunks per routing node (its keep then
 * acts in finer steps) and keeps `USE_REFINED_CALIBRATION_KEEP`: in-scope right at 0.90 declined
 * 0.925 → 0.940 by the same 5-fold cross-validation with the refinement, → 0.943 at 0.912 declined
 * with the finer calibration, the keep by the same rule (docs/routing.md, "A map learned on the
 * chunks").
 */
export const USE_PROXY_REFINEMENT: ProxyRefinement = { scale: 12, epochs: 3, batch: 512, learningRate: 0.1 };
export const USE_REFINED_CALIBRATION_KEEP = 0.99;
export const USE_REFINED_CALIBRATION_SAMPLES = 512;

/** The base a fit is made over, and why. */
export interface ChosenBase {
  /** The embedder the fit is made over. */
  embedder: Embedder;
  /** The agent's embedder itself, or another one. */
  isAgents: boolean;
  /**
   * Why this base, in a few words, when `'auto'` chose it for the default embedder (shown by
   * `agent.space()`, the switch's log line and the CLI); none for an embedder the user chose.
   */
  reason?: string;
  /**
   * Settings this base asks for (the fitter's options win): the base weight, the calibration's keep,
   * and a part of the base to keep whole, with the keep of a space fitted that way.
   */
  settings?: {
    baseWeight: number;
    calibrationKeep: number;
    wholePart?: WholePart & {
      calibrationKeep: number;
      /**
       * The map sharpened on the chunks in that space (`FitOptions.refine`), and the calibration's
       * keep and chunks sampled per routing node then.
       */
      refine?: ProxyRefinement & { calibrationKeep: number; calibrationSamples?: number };
    };
  };
  /**
   * A neural part of the base (USE-lite, a pulled model), and the cheaper base an interim fit can be
   * made over meanwhile when its vectors of the chunks are not cached (`SpaceFitRequest.onInterim`;
   * docs/routing.md, "Fitting at load"). `interimByDefault`: whether one is made without
   * `SpaceFitterOptions.interimFit` asking — for a pulled model, whose embedding of a large tree takes
   * minutes; not for USE-lite, which embeds 15,000 chunks in about 10 s on two cores since it runs on
   * ONNX Runtime, so that an interim fit would delay the final one more than it routes fitted sooner.
   */
  costly?: { part: Embedder; interim: 'use-student' | 'agent'; interimByDefault: boolean };
}

/** Imports `@treeagent/embedder-use`'s `UseEmbedder` (and its student), or says why it cannot. */
export type UseImporter = () => Promise<{
  UseEmbedder: new (options?: { batchSize?: number; workers?: number }) => Embedder;
  UseStudentEmbedder?: new () => Embedder;
}>;

/**
 * USE-lite's worker threads for a fit's base: one per core, at most 2. A fit at load embeds every
 * chunk, which then runs on both cores of a small server; the second worker (and its 200 MB) is
 * closed 30 s after the load.
 */
export const USE_FIT_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

const importUse: UseImporter = () => import(/* @vite-ignore */ USE_PACKAGE);

/**
 * Chooses the base of a fit. `agentIsDefault`: the agent runs the library's default embedder (no
 * `embedder` option), the only one `'auto'` replaces. One `UseEmbedder` (one model in memory) is
 * shared by every fit of the process.
 */
export async function chooseFitBase(
  base: FitBase,
  tree: Tree,
  agentEmbedder: Embedder,
  agentIsDefault: boolean,
  importer: UseImporter = importUse,
  multilingual: MultilingualSource = {},
): Promise<ChosenBase> {
  if (typeof base !== 'string') return { embedder: base, isAgents: base === agentEmbedder };
  const agents = (reason?: string): ChosenBase => ({
    embedder: agentEmbedder,
    isAgents: true,
    ...(reason ? { reason } : {}),
  });
  if (base === 'agent' || !agentIsDefault) return agents();
  // 'cascade' is two choices ('use-student' then 'auto'), made by spaceFitter; alone it is 'auto'.
  const language = isEnglishTree(tree);
  const share = language.decided ? Math.round((100 * language.english) / language.decided) : 0;
  if (!language.isEnglish) {
    const notEnglish = `${share}% of the ${language.decided} chunks with function words in English: not an English tree`;
    const model = await multilingualEmbedder(multilingual);
    if (typeof model === 'string') return agents(`hashed n-grams (${notEnglish}; ${model})`);
    return {
      embedder: new ConcatEmbedder([{ embedder: model.embedder, weight: 2 }, agentEmbedder]),
      isAgents: false,
      reason: `${model.name} (pulled, multilingual) + hashed n-grams 2:1 (${notEnglish})`,
      costly: { part: model.embedder, interim: 'agent', interimByDefault: true },
    };
  }
  const english = `English tree: ${share}% of the ${language.decided.toLocaleString('en-US')} chunks with function words`;
  if (base === 'use-student') {
    const student = await studentEmbedder(importer);
    if (typeof student === 'string') return agents(`hashed n-grams (${english}; ${student})`);
    return {
      embedder: new ConcatEmbedder([{ embedder: student, weight: 2 }, agentEmbedder]),
      isAgents: false,
      reason: `USE-lite student + hashed n-grams 2:1 (${english})`,
      settings: { baseWeight: STUDENT_BASE_WEIGHT, calibrationKeep: STUDENT_BASE_CALIBRATION_KEEP },
    };
  }
  const use = await useEmbedder(importer);
  if (typeof use === 'string') return agents(`hashed n-grams (${english}; ${use})`);
  return {
    embedder: new ConcatEmbedder([{ embedder: use, weight: 2 }, agentEmbedder]),
    isAgents: false,
    reason: `USE-lite + hashed n-grams 2:1 (${english})`,
    settings: {
      baseWeight: USE_BASE_WEIGHT,
      calibrationKeep: USE_BASE_CALIBRATION_KEEP,
      ...(use.dimensions
        ? {
            wholePart: {
              dimensions: use.dimensions,
              pcaOfRest: USE_HASHED_PCA_DIMENSIONS,
              calibrationKeep: USE_WHOLE_PART_CALIBRATION_KEEP,
              refine: {
                ...USE_PROXY_REFINEMENT,
                calibrationKeep: USE_REFINED_CALIBRATION_KEEP,
                calibrationSamples: USE_REFINED_CALIBRATION_SAMPLES,
              },
            },
          }
        : {}),
    },
    costly: { part: use, interim: 'use-student', interimByDefault: false },
  };
}

let shared: Promise<Embedder | string> | null = null;
let sharedImporter: UseImporter | null = null;

/** Why `@treeagent/embedder-use` could not be imported, in a few words. */
function importFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const missing =
    (error as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' && message.includes(USE_PACKAGE);
  return missing
    ? `${USE_PACKAGE} is not installed: npm install ${USE_PACKAGE} --onnxruntime-node-install=skip to fit English trees over USE-lite, which routes better`
    : `${USE_PACKAGE} failed to load (${message})`;
}

let sharedStudent: Promise<Embedder | string> | null = null;
let sharedStudentImporter: UseImporter | null = null;

/** The student of the package (one per process: its weights load once), or why not. */
function studentEmbedder(importer: UseImporter): Promise<Embedder | string> {
  if (!sharedStudent || sharedStudentImporter !== importer) {
    sharedStudentImporter = importer;
    sharedStudent = importer().then(
      (module) =>
        module.UseStudentEmbedder
          ? new module.UseStudentEmbedder()
          : `the installed ${USE_PACKAGE} has no USE-lite student: update it`,
      importFailure,
    );
  }
  return sharedStudent;
}

function useEmbedder(importer: UseImporter): Promise<Embedder | string> {
  if (!shared || sharedImporter !== importer) {
    sharedImporter = importer;
    shared = importer().then(
      // The model runs in its worker thread; small batches keep a user's message, which takes its turn
      // between the fit's batches, from waiting long behind them.
      (module) => new module.UseEmbedder({ batchSize: 16, workers: USE_FIT_WORKERS }),
      importFailure,
    );
  }
  return shared;
}
