import type { AnalyticsReport } from '@treeagent/core/analytics';

/** Names of nodes by id, when the tree was given (`--tree`). */
export type NodeNames = ReadonlyMap<number, string | undefined>;

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const pad = (text: string, width: number) => text.padEnd(width);
const bar = (value: number, max: number, width = 30) =>
  max > 0 ? '█'.repeat(Math.max(value > 0 ? 1 : 0, Math.round((value / max) * width))) : '';

/** How a node is shown: `#12 orders`. */
export function nodeLabel(nodeId: number, names: NodeNames): string {
  const name = names.get(nodeId);
  return name ? `#${nodeId} ${name}` : `#${nodeId}`;
}

/** The terminal summary of a report (docs/analytics.md): figures, then the tables people scan. */
export function formatReport(report: AnalyticsReport, names: NodeNames = new Map()): string[] {
  const { totals, filter, latency } = report;
  const lines = [
    `Tree Agent report, ${filter.from} to ${filter.to}${filter.treeVersion ? `, tree version ${filter.treeVersion}` : ''}`,
    '',
    `  conversations     ${totals.conversations}`,
    `  turns             ${totals.turns}`,
    `  containment       ${percent(totals.containmentRate)} (${totals.contained} contained, ${totals.abandoned} abandoned after a failure, ${totals.handedOffConversations} handed off)`,
    `  no match          ${percent(totals.noMatchRate)} (${totals.noMatch})`,
    `  fallback          ${percent(totals.fallbackRate)} (${totals.fallback})`,
    `  errors            ${percent(totals.errorRate)} (${totals.error})`,
    `  low margin        ${percent(totals.lowMarginRate)} (${totals.lowMarginTurns} turns decided by less than ${filter.lowMargin})`,
    `  latency           p50 ${latency.p50} ms, p90 ${latency.p90} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms (mean ${latency.mean}, max ${latency.max})`,
  ];
  if (totals.inputTokens || totals.outputTokens)
    lines.push(`  model tokens      ${totals.inputTokens} in, ${totals.outputTokens} out`);
  if (report.perDay.length) {
    const max = Math.max(...report.perDay.map((day) => day.turns));
    lines.push('', 'Per day (turns; conversations, no match, fallback)');
    for (const day of report.perDay) {
      lines.push(
        `  ${day.day}  ${pad(bar(day.turns, max), 30)} ${day.turns} (${day.conversations} conv., ${day.noMatch} no match, ${day.fallback} fallback)`,
      );
    }
  }
  if (report.perNode.length) {
    const max = report.perNode[0]!.turns;
    lines.push('', 'Traffic per node (where turns ended)');
    for (const node of report.perNode.slice(0, 15))
      lines.push(
        `  ${pad(nodeLabel(node.nodeId, names), 28)} ${pad(bar(node.turns, max, 20), 20)} ${node.turns}`,
      );
    if (report.perNode.length > 15)
      lines.push(`  … ${report.perNode.length - 15} more (--json lists them all)`);
  }
  if (report.perAgent.length > 1) {
    lines.push('', 'Traffic per agent');
    for (const agent of report.perAgent)
      lines.push(`  ${pad(nodeLabel(agent.agentId, names), 28)} ${agent.turns}`);
  }
  if (report.lowMargin.length) {
    lines.push('', `Ambiguous siblings (decided by less than ${filter.lowMargin})`);
    for (const pair of report.lowMargin.slice(0, 10)) {
      lines.push(
        `  at ${nodeLabel(pair.nodeId, names)}: ${nodeLabel(pair.childIds[0], names)} vs ${nodeLabel(pair.childIds[1], names)}, ${pair.turns} turns, mean margin ${pair.averageMargin}`,
      );
    }
  }
  if (report.versions.length) {
    lines.push('', 'Tree versions in the range');
    for (const version of report.versions)
      lines.push(
        `  ${pad(version.treeVersion, 18)} ${version.turns} turns, ${version.firstAt} → ${version.lastAt}`,
      );
  }
  if (totals.turns === 0)
    lines.push('', 'No turns in this range: widen it with --from/--to, or check --data.');
  return lines;
}

/** Two versions side by side: each figure, and B minus A. */
export function formatComparison(a: AnalyticsReport, b: AnalyticsReport): string[] {
  const rows: [string, number, number, (value: number) => string][] = [
    ['conversations', a.totals.conversations, b.totals.conversations, String],
    ['turns', a.totals.turns, b.totals.turns, String],
    ['containment', a.totals.containmentRate, b.totals.containmentRate, percent],
    ['no match', a.totals.noMatchRate, b.totals.noMatchRate, percent],
    ['fallback', a.totals.fallbackRate, b.totals.fallbackRate, percent],
    ['errors', a.totals.errorRate, b.totals.errorRate, percent],
    ['low margin', a.totals.lowMarginRate, b.totals.lowMarginRate, percent],
    ['latency p50 (ms)', a.latency.p50, b.latency.p50, String],
    ['latency p95 (ms)', a.latency.p95, b.latency.p95, String],
  ];
  const lines = [
    `Comparison, ${a.filter.from} to ${a.filter.to}: A = ${a.filter.treeVersion}, B = ${b.filter.treeVersion}`,
    '',
    `  ${pad('', 18)} ${pad('A', 10)} ${pad('B', 10)} B − A`,
  ];
  for (const [name, first, second, show] of rows) {
    const delta = second - first;
    const shown =
      show === percent
        ? `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)} pts`
        : `${delta >= 0 ? '+' : ''}${Math.round(delta * 10) / 10}`;
    lines.push(`  ${pad(name, 18)} ${pad(show(first), 10)} ${pad(show(second), 10)} ${shown}`);
  }
  return lines;
}
