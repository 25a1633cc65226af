import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AnalyticsReport } from '@treeagent/core/analytics';
import { type NodeNames, nodeLabel } from './format-report.js';

/** Chart.js's UMD build, inlined so the report opens offline (no CDN). */
function chartJsSource(): string {
  const require = createRequire(import.meta.url);
  // The UMD build is not in chart.js's exports map: it sits beside the CommonJS entry (dist/).
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON that is safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The report as one self-contained HTML file with charts (Chart.js inlined): conversations and
 * turns per day, no match and fallback per day, traffic per node, latency percentiles, containment,
 * and, for a comparison, both versions side by side.
 */
export function reportHtml(
  reports: { a: AnalyticsReport; b?: AnalyticsReport },
  names: NodeNames = new Map(),
): string {
  const { a, b } = reports;
  const label = (report: AnalyticsReport) => report.filter.treeVersion ?? 'all versions';
  const title = b
    ? `Tree Agent report: ${label(a)} vs ${label(b)}, ${a.filter.from} to ${a.filter.to}`
    : `Tree Agent report, ${a.filter.from} to ${a.filter.to}${a.filter.treeVersion ? ` (${a.filter.treeVersion})` : ''}`;
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const cards = (report: AnalyticsReport) => `
    <div class="cards">
      <div><b>${report.totals.conversations}</b><span>conversations</span></div>
      <div><b>${report.totals.turns}</b><span>turns</span></div>
      <div><b>${percent(report.totals.containmentRate)}</b><span>containment</span></div>
      <div><b>${percent(report.totals.noMatchRate)}</b><span>no match</span></div>
      <div><b>${percent(report.totals.fallbackRate)}</b><span>fallback</span></div>
      <div><b>${percent(report.totals.lowMarginRate)}</b><span>low margin</span></div>
      <div><b>${report.latency.p95} ms</b><span>latency p95</span></div>
    </div>`;
  const ambiguous = (report: AnalyticsReport) =>
    report.lowMargin.length
      ? `<table><tr><th>at</th><th>siblings</th><th>turns</th><th>mean margin</th></tr>${report.lowMargin
          .map(
            (pair) =>
              `<tr><td>${escapeHtml(nodeLabel(pair.nodeId, names))}</td><td>${escapeHtml(nodeLabel(pair.childIds[0], names))} vs ${escapeHtml(nodeLabel(pair.childIds[1], names))}</td><td>${pair.turns}</td><td>${pair.averageMargin}</td></tr>`,
          )
          .join('')}</table>`
      : '<p>No decision below the margin.</p>';
  const data = {
    reports: b ? [a, b] : [a],
    labels: b ? [label(a), label(b)] : [label(a)],
    names: Object.fromEntries([...names.entries()].filter(([, name]) => name)),
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1f2328;padding:0 16px}
h1{font-size:20px} h2{font-size:16px;margin-top:28px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.cards div{border:1px solid #d0d7de;border-radius:8px;padding:10px 14px;min-width:110px}
.cards b{display:block;font-size:20px}.cards span{color:#59636e}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:24px}
.chart{position:relative;height:280px}
table{border-collapse:collapse}td,th{border-bottom:1px solid #d0d7de;padding:4px 10px;text-align:left}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${b ? `<h2>A: ${escapeHtml(label(a))}</h2>${cards(a)}<h2>B: ${escapeHtml(label(b))}</h2>${cards(b)}` : cards(a)}
<div class="grid">
<div><h2>Conversations and turns per day</h2><div class="chart"><canvas id="per-day"></canvas></div></div>
<div><h2>No match and fallback per day</h2><div class="chart"><canvas id="failures"></canvas></div></div>
<div><h2>Traffic per node</h2><div class="chart"><canvas id="per-node"></canvas></div></div>
<div><h2>Latency percentiles (ms)</h2><div class="chart"><canvas id="latency"></canvas></div></div>
<div><h2>How conversations ended</h2><div class="chart"><canvas id="containment"></canvas></div></div>
<div><h2>Ambiguous siblings</h2>${ambiguous(b ?? a)}</div>
</div>
<script>${chartJsSource()}</script>
<script>
const DATA = ${scriptJson(data)};
const COLORS = ['#0969da', '#bf3989', '#1a7f37', '#9a6700', '#8250df', '#cf222e'];
const name = (id) => DATA.names[id] ? '#' + id + ' ' + DATA.names[id] : '#' + id;
const days = [...new Set(DATA.reports.flatMap((r) => r.perDay.map((d) => d.day)))].sort();
const byDay = (r, key) => days.map((day) => (r.perDay.find((d) => d.day === day) || {})[key] || 0);
const options = { responsive: true, maintainAspectRatio: false, animation: false };
new Chart(document.getElementById('per-day'), { type: 'line', options, data: { labels: days, datasets: DATA.reports.flatMap((r, i) => [
  { label: 'turns ' + DATA.labels[i], data: byDay(r, 'turns'), borderColor: COLORS[i * 2], backgroundColor: COLORS[i * 2] },
  { label: 'conversations ' + DATA.labels[i], data: byDay(r, 'conversations'), borderColor: COLORS[i * 2 + 1], backgroundColor: COLORS[i * 2 + 1] }]) } });
new Chart(document.getElementById('failures'), { type: 'bar', options, data: { labels: days, datasets: DATA.reports.flatMap((r, i) => [
  { label: 'no match ' + DATA.labels[i], data: byDay(r, 'noMatch'), backgroundColor: COLORS[i * 2] },
  { label: 'fallback ' + DATA.labels[i], data: byDay(r, 'fallback'), backgroundColor: COLORS[i * 2 + 1] }]) } });
const nodes = [...new Set(DATA.reports.flatMap((r) => r.perNode.slice(0, 12).map((n) => n.nodeId)))];
new Chart(document.getElementById('per-node'), { type: 'bar', options: { ...options, indexAxis: 'y' }, data: { labels: nodes.map(name),
  datasets: DATA.reports.map((r, i) => ({ label: DATA.labels[i], data: nodes.map((id) => (r.perNode.find((n) => n.nodeId === id) || {}).turns || 0), backgroundColor: COLORS[i] })) } });
new Chart(document.getElementById('latency'), { type: 'bar', options, data: { labels: ['p50', 'p90', 'p95', 'p99', 'max'],
  datasets: DATA.reports.map((r, i) => ({ label: DATA.labels[i], data: [r.latency.p50, r.latency.p90, r.latency.p95, r.latency.p99, r.latency.max], backgroundColor: COLORS[i] })) } });
new Chart(document.getElementById('containment'), { type: 'bar', options: { ...options, scales: { x: { stacked: true }, y: { stacked: true } } }, data: { labels: DATA.labels,
  datasets: [['contained', '#1a7f37'], ['abandoned', '#cf222e'], ['handedOffConversations', '#9a6700']].map(([key, color]) => ({ label: key === 'handedOffConversations' ? 'handed off' : key, data: DATA.reports.map((r) => r.totals[key]), backgroundColor: color })) } });
</script>
</body></html>
`;
}
