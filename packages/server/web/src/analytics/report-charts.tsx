import type { AnalyticsReport } from '@treeagent/core/client';
import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import { ChartView, SERIES_COLORS } from '../components/chart';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** The headline figures of a report, as cards. */
export function ReportCards({ report, label }: { report: AnalyticsReport; label?: string }) {
  const { totals, latency } = report;
  const cards: [string, string, string][] = [
    ['conversations', String(totals.conversations), 'conversations'],
    ['turns', String(totals.turns), 'turns'],
    [
      'containment',
      percent(totals.containmentRate),
      `containment (${totals.contained} of ${totals.conversations})`,
    ],
    ['no-match', percent(totals.noMatchRate), `no match (${totals.noMatch})`],
    ['fallback', percent(totals.fallbackRate), `fallback (${totals.fallback})`],
    ['low-margin', percent(totals.lowMarginRate), `low margin (${totals.lowMarginTurns})`],
    ['p95', `${latency.p95} ms`, `latency p95 (p50 ${latency.p50} ms)`],
  ];
  return (
    <section class="report-cards" aria-label={label ?? 'Figures'}>
      {label ? <h3>{label}</h3> : null}
      <dl>
        {cards.map(([key, value, name]) => (
          <div key={key} class="report-card" data-figure={key}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Per-day, failures, traffic per node and latency charts; with two reports, both series side by side. */
export function ReportCharts({
  reports,
  labels,
  nodeLabel,
}: {
  reports: AnalyticsReport[];
  labels: string[];
  nodeLabel: (id: number) => string;
}) {
  const configs = useMemo(() => {
    const days = [...new Set(reports.flatMap((report) => report.perDay.map((day) => day.day)))].sort();
    const byDay = (report: AnalyticsReport, key: 'turns' | 'conversations' | 'noMatch' | 'fallback') =>
      days.map((day) => report.perDay.find((entry) => entry.day === day)?.[key] ?? 0);
    const nodes = [
      ...new Set(reports.flatMap((report) => report.perNode.slice(0, 12).map((node) => node.nodeId))),
    ];
    const perDay: ChartConfiguration = {
      type: 'line',
      data: {
        labels: days,
        datasets: reports.flatMap((report, index) => [
          {
            label: `turns ${labels[index]}`,
            data: byDay(report, 'turns'),
            borderColor: SERIES_COLORS[index * 2],
            backgroundColor: SERIES_COLORS[index * 2],
          },
          {
            label: `conversations ${labels[index]}`,
            data: byDay(report, 'conversations'),
            borderColor: SERIES_COLORS[index * 2 + 1],
            backgroundColor: SERIES_COLORS[index * 2 + 1],
          },
        ]),
      },
    };
    const failures: ChartConfiguration = {
      type: 'bar',
      data: {
        labels: days,
        datasets: reports.flatMap((report, index) => [
          {
            label: `no match ${labels[index]}`,
            data: byDay(report, 'noMatch'),
            backgroundColor: SERIES_COLORS[index * 2],
          },
          {
            label: `fallback ${labels[index]}`,
            data: byDay(report, 'fallback'),
            backgroundColor: SERIES_COLORS[index * 2 + 1],
          },
        ]),
      },
    };
    const traffic: ChartConfiguration = {
      type: 'bar',
      options: { indexAxis: 'y' },
      data: {
        labels: nodes.map(nodeLabel),
        datasets: reports.map((report, index) => ({
          label: labels[index],
          data: nodes.map((id) => report.perNode.find((node) => node.nodeId === id)?.turns ?? 0),
          backgroundColor: SERIES_COLORS[index],
        })),
      },
    };
    const latency: ChartConfiguration = {
      type: 'bar',
      data: {
        labels: ['p50', 'p90', 'p95', 'p99', 'max'],
        datasets: reports.map((report, index) => ({
          label: labels[index],
          data: [
            report.latency.p50,
            report.latency.p90,
            report.latency.p95,
            report.latency.p99,
            report.latency.max,
          ],
          backgroundColor: SERIES_COLORS[index],
        })),
      },
    };
    return { perDay, failures, traffic, latency };
  }, [reports, labels, nodeLabel]);
  return (
    <div class="report-charts">
      <figure>
        <figcaption>Conversations and turns per day</figcaption>
        <ChartView id="chart-per-day" config={configs.perDay} label="Conversations and turns per day" />
      </figure>
      <figure>
        <figcaption>No match and fallback per day</figcaption>
        <ChartView id="chart-failures" config={configs.failures} label="No match and fallback per day" />
      </figure>
      <figure>
        <figcaption>Traffic per node</figcaption>
        <ChartView id="chart-traffic" config={configs.traffic} label="Turns per node" />
      </figure>
      <figure>
        <figcaption>Latency (ms)</figcaption>
        <ChartView id="chart-latency" config={configs.latency} label="Latency percentiles" />
      </figure>
    </div>
  );
}

/** The sibling pairs decided by a small margin: where the tree's chunks overlap. */
export function AmbiguousSiblings({
  report,
  nodeLabel,
}: {
  report: AnalyticsReport;
  nodeLabel: (id: number) => string;
}) {
  if (report.lowMargin.length === 0)
    return <p class="muted">No decision below a margin of {report.filter.lowMargin}.</p>;
  return (
    <table id="ambiguous-siblings" class="data-table">
      <thead>
        <tr>
          <th>at</th>
          <th>siblings</th>
          <th>turns</th>
          <th>mean margin</th>
        </tr>
      </thead>
      <tbody>
        {report.lowMargin.map((pair) => (
          <tr key={`${pair.nodeId}-${pair.childIds.join('-')}`}>
            <td>{nodeLabel(pair.nodeId)}</td>
            <td>
              {nodeLabel(pair.childIds[0])} vs {nodeLabel(pair.childIds[1])}
            </td>
            <td>{pair.turns}</td>
            <td>{pair.averageMargin}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
