import { createHash } from 'node:crypto';

/** One arm of an experiment: a version and the share of new conversations it gets. */
export interface ExperimentVariant {
  versionId: string;
  /** Percent of new conversations (the variants' percents add up to 100). */
  percent: number;
}

/**
 * The variant a user (or a session, when there is no user id) gets: the SHA-256 of the experiment's
 * name and the unit's id, read as a number in [0, 1), placed on the variants' cumulative percents.
 * The same unit always gets the same variant (sticky, across processes and restarts), and over many
 * units each variant gets its percent. Throws when the percents do not add up to 100.
 */
export function assignVariant(
  experiment: string,
  unitId: string,
  variants: readonly ExperimentVariant[],
): ExperimentVariant {
  checkSplit(variants);
  const digest = createHash('sha256').update(`${experiment}\u0000${unitId}`).digest();
  const point = (digest.readUInt32BE(0) / 2 ** 32) * 100;
  let cumulative = 0;
  for (const variant of variants) {
    cumulative += variant.percent;
    if (point < cumulative) return variant;
  }
  return variants[variants.length - 1]!;
}

/** Throws an error naming the fix when the split is not two or more variants whose percents add up to 100. */
export function checkSplit(variants: readonly ExperimentVariant[]): void {
  if (variants.length < 2)
    throw new Error(`An experiment splits between two or more versions; got ${variants.length}.`);
  const total = variants.reduce((sum, variant) => sum + variant.percent, 0);
  if (variants.some((variant) => !(variant.percent > 0)) || Math.abs(total - 100) > 1e-9)
    throw new Error(
      `The percents of an experiment's variants must be positive and add up to 100; they add up to ${total} (${variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ')}).`,
    );
}
