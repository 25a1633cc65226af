import type { AnalyticsReport } from '@treeagent/core/client';
import { useEffect, useState } from 'preact/hooks';
import type { UnmatchedResponse } from '../../../src/api-types';
import { ExperimentView } from '../analytics/experiment-view';
import { defaultRange, FilterBar } from '../analytics/filter-bar';
import { AmbiguousSiblings, ReportCards, ReportCharts } from '../analytics/report-charts';
import { SatisfactionSection } from '../analytics/satisfaction-section';
import { UnmatchedSection } from '../analytics/unmatched-section';
import { type AnalyticsFilter, analyticsApi } from '../api/analytics-api';
import { messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { ErrorNotice } from '../components/notice';
import { useT } from '../i18n/use-t';
import { OperatorGate } from '../operators/operator-gate';

/** Reads the filter from the page's query string (`?from=&to=&version=&compare=`), so a view can be linked. */
function filterFromLocation(): AnalyticsFilter & { compare?: string } {
  const params = new URLSearchParams(location.search);
  const range = defaultRange();
  return {
    from: params.get('from') ?? range.from,
    to: params.get('to') ?? range.to,
    ...(params.get('version') ? { version: params.get('version')! } : {}),
    ...(params.get('compare') ? { compare: params.get('compare')! } : {}),
  };
}

/**
 * The Analytics page (docs/analytics.md): the report for a date range and tree version (or two
 * versions compared), charts, ambiguous siblings, and the unmatched questions clustered with their
 * actions. Operators only.
 */
export function AnalyticsPage() {
  const t = useT('common');
  return (
    <OperatorGate title={t('gate.analytics')}>
      <TopBar />
      <main id="analytics-page" class="page page-analytics">
        <AnalyticsView />
      </main>
    </OperatorGate>
  );
}

function AnalyticsView() {
  const { api, nodeLabel, setReady } = useApp();
  const t = useT('analytics');
  const [filter, setFilter] = useState(filterFromLocation);
  const [draft, setDraft] = useState(filter);
  const [reports, setReports] = useState<{ main: AnalyticsReport; other: AnalyticsReport | null } | null>(
    null,
  );
  const [unmatched, setUnmatched] = useState<UnmatchedResponse | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  // The versions the last report named: kept when a later filter fails, to choose from again.
  const [versions, setVersions] = useState<AnalyticsReport['versions']>([]);
  useEffect(() => {
    let live = true;
    setReady(false);
    const { compare, ...base } = filter;
    const load = async () => {
      const main = await analyticsApi.report(api, base);
      const other =
        compare && base.version ? (await analyticsApi.compare(api, base, base.version, compare)).b : null;
      const clusters = await analyticsApi.unmatched(api, base);
      if (!live) return;
      setReports({ main, other });
      setVersions(main.versions);
      setUnmatched(clusters);
      setError(null);
    };
    load()
      .catch((caught: unknown) => {
        if (!live) return;
        setError(caught instanceof ApiError ? caught : new ApiError(0, 'ERROR', String(caught)));
        // The figures and clusters shown were for the previous filter: not under an error about this one.
        setReports(null);
        setUnmatched(null);
      })
      .finally(() => live && setReady(true));
    const query = new URLSearchParams(
      Object.entries(filter).filter(([, value]) => value) as [string, string][],
    );
    history.replaceState(null, '', `/staff/analytics?${query}`);
    return () => {
      live = false;
    };
  }, [api, filter, setReady]);
  const labels = reports?.other
    ? [filter.version?.slice(0, 8) ?? 'A', filter.compare?.slice(0, 8) ?? 'B']
    : [t('allTurns')];
  return (
    <div class="analytics">
      <FilterBar
        id="analytics-filter"
        draft={draft}
        onDraft={setDraft}
        onSubmit={() => setFilter({ ...draft })}
        versions={versions}
        submitLabel={t('show')}
        after={
          <label>
            {t('compareWith')}
            <select
              name="compare"
              // A comparison is between two versions: choose the first one (Version) before.
              disabled={!draft.version}
              title={draft.version ? undefined : t('compareNeedsVersion')}
              value={draft.compare ?? ''}
              onChange={(e) => setDraft({ ...draft, compare: e.currentTarget.value || (undefined as never) })}
            >
              <option value="">—</option>
              {versions.map((version) => (
                <option key={version.treeVersion} value={version.treeVersion}>
                  {version.treeVersion.slice(0, 12)}
                </option>
              ))}
            </select>
          </label>
        }
      />
      {error ? <ErrorNotice code={error.code} status={error.status} message={messageOf(error)} /> : null}
      {reports ? (
        <>
          {reports.other ? (
            <div class="report-compare">
              <ReportCards report={reports.main} label={t('seriesA', { label: labels[0] })} />
              <ReportCards report={reports.other} label={t('seriesB', { label: labels[1] })} />
            </div>
          ) : (
            <ReportCards report={reports.main} />
          )}
          <ReportCharts
            reports={reports.other ? [reports.main, reports.other] : [reports.main]}
            labels={labels}
            nodeLabel={nodeLabel}
          />
          <section>
            <h2>{t('ambiguous.title')}</h2>
            <AmbiguousSiblings report={reports.main} nodeLabel={nodeLabel} />
          </section>
        </>
      ) : null}
      <ExperimentView />
      <SatisfactionSection
        // The days the report resolved (its default range too), so both say the same days; without a
        // report (no analytics store) the filter as given.
        filter={{
          from: reports?.main.filter.from ?? filter.from,
          to: reports?.main.filter.to ?? filter.to,
          version: filter.version,
        }}
      />
      {unmatched ? (
        <section>
          <h2>{t('unmatched.title')}</h2>
          <UnmatchedSection unmatched={unmatched} />
        </section>
      ) : null}
    </div>
  );
}
