import {
  decideExperiment,
  EXPERIMENT_METHOD,
  type ExperimentDecision,
  type ExperimentDesign,
  experimentSampleSize,
  twoProportionZ,
  type VariantOutcome,
} from '@treeagent/core/adapter';

/**
 * The decision on all of an experiment's variants, the control first (docs/versions.md). Two
 * variants: `decideExperiment`. More: each treatment is compared to the control at `alpha` divided
 * by the number of comparisons (Bonferroni), with the sample size of that level; the winner is the
 * treatment with the highest containment among those significantly better than the control, else the
 * control when every treatment is significantly worse, else no difference. `z` and `pValue` are those
 * of the comparison that decided (the winner's, else the smallest p).
 */
export function decideVariants(
  variants: readonly VariantOutcome[],
  design: ExperimentDesign = {},
): ExperimentDecision {
  const [control, ...treatments] = variants;
  if (!control || !treatments.length) throw new Error('An experiment has two variants or more.');
  if (treatments.length === 1) return decideExperiment(control, treatments[0]!, design);
  const alpha = (design.alpha ?? 0.05) / treatments.length;
  const sampleSize = experimentSampleSize({ ...design, alpha });
  const method = `${EXPERIMENT_METHOD}; with ${variants.length} variants, each treatment is compared to the control (the first variant) at alpha ÷ ${treatments.length} = ${Number(alpha.toPrecision(3))} (Bonferroni)`;
  const tests = treatments.map((treatment) => ({ treatment, ...twoProportionZ(control, treatment) }));
  const significant = (test: (typeof tests)[number]) => test.pValue !== null && test.pValue < alpha;
  const smallest = tests.reduce((best, test) => ((test.pValue ?? 2) < (best.pValue ?? 2) ? test : best));
  const decision = (status: ExperimentDecision['status'], winner: string | null, test = smallest) => ({
    status,
    winner,
    sampleSize,
    z: test.z,
    pValue: test.pValue,
    method,
  });
  if (variants.some((variant) => variant.conversations < sampleSize)) return decision('continue', null);
  const rate = (variant: VariantOutcome) => variant.contained / variant.conversations;
  const better = tests
    .filter((test) => significant(test) && test.z! > 0)
    .sort((a, b) => rate(b.treatment) - rate(a.treatment));
  if (better[0]) return decision('winner', better[0].treatment.versionId, better[0]);
  if (tests.every((test) => significant(test) && test.z! < 0)) return decision('winner', control.versionId);
  return decision('no-difference', null);
}
