import { TreeAgentError } from '@treeagent/core';
import { decideExperiment, type ExperimentDesign, type VariantFigures } from '@treeagent/core/adapter';

/** The experiment's design from the report flags (`--alpha`, `--power`, `--baseline`, `--min-effect`). */
export function experimentDesign(options: {
  alpha?: string;
  power?: string;
  baseline?: string;
  minEffect?: string;
}): ExperimentDesign {
  const read = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!(number > 0 && number < 1))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${flag} takes a number between 0 and 1 (exclusive), not "${value}".`,
      );
    return number;
  };
  const design: ExperimentDesign = {};
  const alpha = read(options.alpha, '--alpha');
  const power = read(options.power, '--power');
  const baseline = read(options.baseline, '--baseline');
  const minimumEffect = read(options.minEffect, '--min-effect');
  if (alpha !== undefined) design.alpha = alpha;
  if (power !== undefined) design.power = power;
  if (baseline !== undefined) design.baseline = baseline;
  if (minimumEffect !== undefined) design.minimumEffect = minimumEffect;
  return design;
}

/** `treeagent report --experiment <a> <b>`: the figures of each variant and the test's decision, as lines. */
export function experimentLines(
  control: VariantFigures,
  treatment: VariantFigures,
  design: ExperimentDesign,
): string[] {
  const decision = decideExperiment(
    { versionId: control.treeVersion, conversations: control.conversations, contained: control.contained },
    {
      versionId: treatment.treeVersion,
      conversations: treatment.conversations,
      contained: treatment.contained,
    },
    design,
  );
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const row = (figures: VariantFigures, role: string) =>
    `  ${role.padEnd(9)} ${figures.treeVersion.slice(0, 12).padEnd(12)} ${String(figures.conversations).padStart(6)} ${percent(figures.containmentRate).padStart(11)} ${percent(figures.handoffRate).padStart(8)} ${percent(figures.noMatchRate).padStart(8)} ${percent(figures.fallbackRate).padStart(8)} ${figures.averageTurns.toFixed(2).padStart(9)}  ${figures.csat === null ? 'not collected' : `${figures.csat.toFixed(2)} (${figures.csatRatings} ${figures.csatRatings === 1 ? 'rating' : 'ratings'})`}`;
  const lines = [
    'experiment (per variant):',
    '  variant   version      convs. containment  handoff no-match fallback avg turns  CSAT',
    row(control, 'control'),
    row(treatment, 'treatment'),
    `method: ${decision.method}`,
    `sample size: ${decision.sampleSize} conversations per variant${decision.z === null ? '' : `; z = ${decision.z.toFixed(3)}, p = ${decision.pValue!.toFixed(4)}`}`,
  ];
  if (decision.status === 'continue')
    lines.push(
      `decision: continue — ${Math.max(0, decision.sampleSize - Math.min(control.conversations, treatment.conversations))} more conversations in the smaller variant before the test decides`,
    );
  else if (decision.status === 'winner')
    lines.push(
      `decision: ${decision.winner === control.treeVersion ? 'control' : 'treatment'} ${decision.winner} wins`,
    );
  else lines.push('decision: no difference at this sample size (keep the control)');
  return lines;
}
