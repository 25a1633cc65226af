/**
 * The significance test of an experiment (docs/versions.md): a two-sided two-proportion z-test on
 * containment with a **fixed sample size per variant**, computed before the start from the
 * significance level, the power and the smallest difference worth detecting. The stop rule: the
 * test decides once, when every variant has that many finished conversations; looks before then
 * always answer "continue", so repeated looks do not raise the error rate.
 */
export const EXPERIMENT_METHOD =
  'two-sided two-proportion z-test on containment, pooled variance, with a fixed sample size per variant set in advance from the significance level, the power and the smallest difference to detect; decided once, when every variant reaches it';

/** What the experiment is designed to detect. */
export interface ExperimentDesign {
  /** Significance level: the chance of declaring a winner between equal versions. Default 0.05. */
  alpha?: number;
  /** The chance of declaring the better version when it is better by `minimumEffect`. Default 0.8. */
  power?: number;
  /** Expected containment of the control (the first variant), 0–1. Default 0.5 (the largest sample). */
  baseline?: number;
  /** Smallest absolute difference in containment worth detecting, 0–1. Default 0.05. */
  minimumEffect?: number;
}

/** One variant's outcome so far: finished conversations, and those contained (no handoff, no fallback). */
export interface VariantOutcome {
  versionId: string;
  conversations: number;
  contained: number;
}

/** What the test says now. */
export interface ExperimentDecision {
  /** `continue` until every variant reaches `sampleSize`; then a winner or `no-difference`. */
  status: 'continue' | 'winner' | 'no-difference';
  /** The winning version (higher containment, significant), when `status` is `winner`. */
  winner: string | null;
  /** Conversations each variant needs before the test decides. */
  sampleSize: number;
  /** z statistic and two-sided p-value of the first two variants (null before there is data). */
  z: number | null;
  pValue: number | null;
  method: string;
}

/** Conversations per variant a two-sided two-proportion z-test needs for the design. */
export function experimentSampleSize(design: ExperimentDesign = {}): number {
  const { alpha, power, baseline, minimumEffect } = withDefaults(design);
  const p1 = baseline;
  const p2 = Math.min(0.999, baseline + minimumEffect);
  const pooled = (p1 + p2) / 2;
  const zAlpha = normalQuantile(1 - alpha / 2);
  const zBeta = normalQuantile(power);
  const numerator =
    zAlpha * Math.sqrt(2 * pooled * (1 - pooled)) + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((numerator * numerator) / ((p2 - p1) * (p2 - p1)));
}

/**
 * The decision on two variants' outcomes (the control first). With more variants, compare each to
 * the control with `alpha` divided by their number (Bonferroni).
 */
export function decideExperiment(
  control: VariantOutcome,
  treatment: VariantOutcome,
  design: ExperimentDesign = {},
): ExperimentDecision {
  const { alpha } = withDefaults(design);
  const sampleSize = experimentSampleSize(design);
  const { z, pValue } = twoProportionZ(control, treatment);
  const base = { sampleSize, z, pValue, method: EXPERIMENT_METHOD };
  if (control.conversations < sampleSize || treatment.conversations < sampleSize)
    return { ...base, status: 'continue', winner: null };
  if (pValue === null || pValue >= alpha) return { ...base, status: 'no-difference', winner: null };
  return { ...base, status: 'winner', winner: z! > 0 ? treatment.versionId : control.versionId };
}

/** z (positive when the treatment contains more) and the two-sided p-value; nulls without data. */
export function twoProportionZ(
  control: VariantOutcome,
  treatment: VariantOutcome,
): { z: number | null; pValue: number | null } {
  if (!control.conversations || !treatment.conversations) return { z: null, pValue: null };
  const p1 = control.contained / control.conversations;
  const p2 = treatment.contained / treatment.conversations;
  const pooled =
    (control.contained + treatment.contained) / (control.conversations + treatment.conversations);
  const spread = Math.sqrt(pooled * (1 - pooled) * (1 / control.conversations + 1 / treatment.conversations));
  if (spread === 0) return { z: 0, pValue: 1 };
  const z = (p2 - p1) / spread;
  return { z, pValue: 2 * (1 - normalCdf(Math.abs(z))) };
}

function withDefaults(design: ExperimentDesign): Required<ExperimentDesign> {
  const resolved = {
    alpha: design.alpha ?? 0.05,
    power: design.power ?? 0.8,
    baseline: design.baseline ?? 0.5,
    minimumEffect: design.minimumEffect ?? 0.05,
  };
  for (const [name, value] of Object.entries(resolved))
    if (!(value > 0 && value < 1))
      throw new Error(`The experiment's ${name} must be between 0 and 1 (exclusive); got ${value}.`);
  return resolved;
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf; error < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** The standard normal quantile (Acklam's rational approximation; relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
