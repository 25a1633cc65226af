import type { Tree } from '../../tree/tree.js';
import type { ExploreIn } from './load-runtime.js';
import { AUTO_FIT_MIN_CHUNKS, type FitMode } from './space-fitter.js';

/** What decides whether the agent fits its embedding space at load. */
export interface FitPlanInput {
  mode: FitMode;
  tree: Tree;
  /** No `embedder` option: the agent runs the default `HashedEmbedder`. */
  defaultEmbedder: boolean;
  exploreIn: ExploreIn;
}

/**
 * Why the agent does not fit its space at load, or `null` when it does (the fitter may still skip,
 * `SpaceFitter.skip`). `'auto'` fits only what it can fit safely: the default embedder (another one
 * may already be fitted), an in-memory index (a vector store collection is shared and cannot switch
 * space atomically), and at least `AUTO_FIT_MIN_CHUNKS` exploration chunks. Thresholds set by hand
 * apply in the fitted space (`treeagent eval` measures and suggests them there). `true` fits in
 * every case but the vector store.
 */
export function fitBlocker(input: FitPlanInput): string | null {
  const { mode, tree } = input;
  if (mode === false) return 'fit: false';
  if (input.exploreIn !== 'memory')
    return "exploreIn: 'vector-store' (the shared collection cannot switch space atomically)";
  if (mode === true) return null;
  if (!input.defaultEmbedder)
    return 'an embedder is given (automatic fitting applies to the default one; fit: true fits it)';
  const exploring = tree.chunks.filter((chunk) => !chunk.forRag).length;
  if (exploring < AUTO_FIT_MIN_CHUNKS)
    return `${exploring} exploration chunks, fewer than ${AUTO_FIT_MIN_CHUNKS}: too few to learn from (fit: true fits anyway; in a tree module for the CLI, export const fit = true)`;
  return null;
}

/**
 * Why the agent stays unfitted when the fit is not blocked but no `spaceFitter` option is given:
 * core ships no fitter and looks for none, so the routing of `new TreeAgent({ tree })` never depends
 * on what else is installed.
 */
export const NO_SPACE_FITTER =
  'no spaceFitter is given (pass spaceFitter: spaceFitter() from @treeagent/fit to fit the space; the treeagent CLI does)';
