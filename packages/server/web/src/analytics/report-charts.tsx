import type { AnalyticsReport } from '@treeagent/core/client';
import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import { ChartView, SERIES_COLORS } from '../components/chart';
import { formatInteger, formatMs, formatPercent } from '../components/format';
import { useT } from '../i18n/use-t';

/** The headline figures of a report, as cards. */
export function ReportCards({ report, label }: { report: AnalyticsReport; label?: string }) {
  const { totals, latency } = report;
  const t = useT('analytics');
  // A range without conversations (or turns) has no rate and no latency: a dash, not "0%" or "0 ms".
  const ofConversations = (value: number) => (totals.conversations ? formatPercent(value) : '—');
  const ofTurns = (value: number) => (totals.turns ? formatPercent(value) : '—');
  const ms = (value: number) => (totals.turns ? formatMs(value) : '—');
  const cards: [string, string, string][] = [
    ['conversations', formatInteger(totals.conversations), t('cards.conversations')],
    ['turns', formatInteger(totals.turns), t('cards.turns')],
    [
      'containment',
      ofConversations(totals.containmentRate),
      t('cards.containment', { contained: totals.contained, conversations: totals.conversations }),
    ],
    ['no-match', ofTurns(totals.noMatchRate), t('cards.noMatch', { count: totals.noMatch })],
    ['fallback', ofTurns(totals.fallbackRate), t('cards.fallback', { count: totals.fallback })],
    ['low-margin', ofTurns(totals.lowMarginRate), t('cards.lowMargin', { count: totals.lowMarginTurns })],
    ['p95', ms(latency.p95), t('cards.latency', { p50: ms(latency.p50) })],
  ];
  return (
    <section class="report-cards" aria-label={label ?? t('cards.figures')}>
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
  const t = useT('analytics');
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
            label: t('charts.turnsSeries', { label: labels[index] }),
            data: byDay(report, 'turns'),
            borderColor: SERIES_COLORS[index * 2],
            backgroundColor: SERIES_COLORS[index * 2],
          },
          {
            label: t('charts.conversationsSeries', { label: labels[index] }),
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
            label: t('charts.noMatchSeries', { label: labels[index] }),
            data: byDay(report, 'noMatch'),
            backgroundColor: SERIES_COLORS[index * 2],
          },
          {
            label: t('charts.fallbackSeries', { label: labels[index] }),
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
  }, [reports, labels, nodeLabel, t]);
  return (
    <div class="report-charts">
      <figure>
        <figcaption>{t('charts.perDay')}</figcaption>
        <ChartView id="chart-per-day" config={configs.perDay} label={t('charts.perDay')} />
      </figure>
      <figure>
        <figcaption>{t('charts.failures')}</figcaption>
        <ChartView id="chart-failures" config={configs.failures} label={t('charts.failures')} />
      </figure>
      <figure>
        <figcaption>{t('charts.traffic')}</figcaption>
        <ChartView id="chart-traffic" config={configs.traffic} label={t('charts.turnsPerNode')} />
      </figure>
      <figure>
        <figcaption>{t('charts.latency')}</figcaption>
        <ChartView id="chart-latency" config={configs.latency} label={t('charts.latencyPercentiles')} />
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
  const t = useT('analytics');
  if (report.lowMargin.length === 0)
    return <p class="muted">{t('ambiguous.none', { margin: report.filter.lowMargin })}</p>;
  return (
    <table id="ambiguous-siblings" class="data-table">
      <thead>
        <tr>
          <th>{t('ambiguous.at')}</th>
          <th>{t('ambiguous.siblings')}</th>
          <th>{t('ambiguous.turns')}</th>
          <th>{t('ambiguous.meanMargin')}</th>
        </tr>
      </thead>
      <tbody>
        {report.lowMargin.map((pair) => (
          <tr key={`${pair.nodeId}-${pair.childIds.join('-')}`}>
            <td>{nodeLabel(pair.nodeId)}</td>
            <td>
              {t('ambiguous.versus', { a: nodeLabel(pair.childIds[0]), b: nodeLabel(pair.childIds[1]) })}
            </td>
            <td>{pair.turns}</td>
            <td>{pair.averageMargin}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
