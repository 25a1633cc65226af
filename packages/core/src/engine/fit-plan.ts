import type { Tree } from '../tree/tree.js';
import type { ExploreIn } from './load-runtime.js';
import { AUTO_FIT_MIN_CHUNKS, type FitMode, type SpaceFitter } from './space-fitter.js';

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

/** The package whose `spaceFitter()` `TreeAgent` uses when no `spaceFitter` is given. */
export const FIT_PACKAGE = '@treeagent/fit';

let discovered: Promise<SpaceFitter | string> | null = null;

/**
 * `@treeagent/fit`'s default fitter when the package is installed (imported once per process, by a
 * name the bundlers and type checker do not follow: core does not depend on it), else why not.
 */
export function discoverSpaceFitter(): Promise<SpaceFitter | string> {
  discovered ??= import(/* @vite-ignore */ FIT_PACKAGE).then(
    (module: { spaceFitter?: () => SpaceFitter }) =>
      typeof module.spaceFitter === 'function'
        ? module.spaceFitter()
        : `${FIT_PACKAGE} has no spaceFitter export (update it)`,
    () => `${FIT_PACKAGE} is not installed (npm install ${FIT_PACKAGE})`,
  );
  return discovered;
}
