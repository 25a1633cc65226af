import type { FittedSpace, SpaceFitRequest } from '@treeagent/core/adapter';
import type { ChosenBase } from './fit-base.js';
import { trainingSet } from './fit-classes.js';
import type { FitSettings } from './fit-settings.js';
import type { FittedEmbedder } from './fitted-embedder.js';
import type { Projection } from './projection.js';

/**
 * An interim fit is made when at least this many of the chunks have no vector of the base's costly
 * part (USE-lite, a pulled model) in the agent's embedding cache: about 12 s of USE-lite's CPU on
 * their own, before the fit's math. Below it the final fit comes soon enough.
 */
export const INTERIM_FIT_MIN_UNEMBEDDED = 2000;

/**
 * How many unembedded chunks call for an interim fit over a base with `costly` part, given
 * `SpaceFitterOptions.interimFit`; null when none is made. Unset, only a part made for it
 * (`interimByDefault`: a pulled model) gets one at the default threshold.
 */
export function interimThreshold(
  option: boolean | { minUnembeddedChunks?: number } | undefined,
  costly: { interimByDefault: boolean },
): number | null {
  if (option === false || (option === undefined && !costly.interimByDefault)) return null;
  return (typeof option === 'object' ? option.minUnembeddedChunks : undefined) ?? INTERIM_FIT_MIN_UNEMBEDDED;
}

/** What the interim fit needs from the fitter that makes it (`spaceFitter`). */
export interface InterimFitContext {
  request: SpaceFitRequest;
  settings: FitSettings;
  /** See `INTERIM_FIT_MIN_UNEMBEDDED` (`SpaceFitterOptions.interimFit`). */
  minUnembeddedChunks: number;
  /** The final fit's base, with its costly part. */
  chosen: ChosenBase & { costly: NonNullable<ChosenBase['costly']> };
  /** The interim base (`chosen.costly.interim`), or null when it cannot be had (then no interim fit). */
  interimBase(): Promise<ChosenBase | null>;
  /** The fit over `base`: read from the fitter's cache, or made now (in a worker) and kept there. */
  fitOver(base: ChosenBase): Promise<{ projection: Projection; cached: boolean; file?: string }>;
  /** The fitted space of `projection` over `base`. */
  spaceOf(
    base: ChosenBase,
    projection: Projection,
    cached: boolean,
    file?: string,
  ): FittedSpace & {
    embedder: FittedEmbedder;
  };
}

/**
 * Makes the interim fit and hands it to the agent (`request.onInterim`) when the final one will be
 * long: the tree has `minUnembeddedChunks` (default `INTERIM_FIT_MIN_UNEMBEDDED`) chunks or more that the costly part of the final
 * base has not embedded yet (a first start, a tree whose texts changed). The interim base is cheap
 * to embed (the USE-lite student for an English tree, the agent's hashed n-grams otherwise), so the
 * agent routes in a fitted space within seconds instead of minutes, then switches to the final fit.
 * Kept in the fit cache like any fit, so a restart before the final fit is ready reads it. Returns
 * whether an interim fit was handed. A failure of the interim fit only skips it: the final fit goes on.
 */
export async function handInterimFit(context: InterimFitContext): Promise<boolean> {
  const { request, settings, chosen, minUnembeddedChunks } = context;
  if (!request.onInterim || request.signal.aborted) return false;
  try {
    const texts = trainingSet(request.tree, settings).texts;
    if (texts.length < minUnembeddedChunks) return false;
    const known = await request.embeddingCache.getMany(chosen.costly.part.id, texts);
    const unembedded = known.reduce((count, vector) => count + (vector ? 0 : 1), 0);
    if (unembedded < minUnembeddedChunks) return false;
    const base = await context.interimBase();
    if (!base) return false;
    const fit = await context.fitOver(base);
    const space = context.spaceOf(base, fit.projection, fit.cached, fit.file);
    if (request.signal.aborted) return false;
    await request.onInterim(space);
    return true;
  } catch {
    return false;
  }
}
