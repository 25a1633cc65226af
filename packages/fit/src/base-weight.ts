/**
 * Default `baseWeight`: chosen by 5-fold cross-validation on CLINC150's train (never val) with the
 * hashed base embedder, among 0, 0.1, 0.2, 0.35, 0.5 and 1 (`npx tsx bench/routing/fit.ts`). The
 * differences are small (0.9293 with 0 … 0.9318 with 0.5); the base part mostly helps nodes the fit
 * cannot set apart.
 */
export const DEFAULT_BASE_WEIGHT = 0.5;
