// @vitest-environment happy-dom
import type { AnalyticsReport } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../test-support/render';
import { ReportCards } from './report-charts';

/** A report's totals and latency (what the cards read), the rest left out. */
function report(turns: number, conversations: number): AnalyticsReport {
  return {
    totals: {
      conversations,
      turns,
      contained: conversations,
      containmentRate: conversations ? 1 : 0,
      noMatch: 0,
      noMatchRate: 0,
      fallback: 0,
      fallbackRate: 0,
      lowMarginTurns: 0,
      lowMarginRate: 0,
    },
    latency: { p50: turns ? 12 : 0, p90: 0, p95: turns ? 40 : 0, p99: 0, mean: 0, max: 0 },
  } as unknown as AnalyticsReport;
}

async function figures(value: AnalyticsReport): Promise<Record<string, string>> {
  const root = await renderInApp(<ReportCards report={value} />);
  return Object.fromEntries(
    [...root.querySelectorAll('.report-card')].map((card) => [
      card.getAttribute('data-figure'),
      card.querySelector('dd')!.textContent!,
    ]),
  );
}

describe('the report cards', () => {
  it('a range without turns shows dashes for its rates and latency, not "0%" and "0.00 ms"', async () => {
    const empty = await figures(report(0, 0));
    expect(empty).toMatchObject({
      conversations: '0',
      turns: '0',
      containment: '—',
      'no-match': '—',
      p95: '—',
    });
    const some = await figures(report(10, 4));
    expect(some.containment).toMatch(/^100(\.0)?\s?%$/);
    expect(some['no-match']).toMatch(/^0(\.0)?\s?%$/);
    expect(some.p95).toMatch(/^40\sms$/);
  });
});
