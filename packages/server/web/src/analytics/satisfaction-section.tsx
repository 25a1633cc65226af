import { useEffect, useState } from 'preact/hooks';
import {
  type AnalyticsFilter,
  analyticsApi,
  type SatisfactionGroupView,
  type SatisfactionReport,
} from '../api/analytics-api';
import { useApp } from '../app/app-context';
import { formatDecimal, formatInteger } from '../components/format';
import { useT } from '../i18n/use-t';
import './satisfaction-section.css';

/**
 * The users' ratings of conversations with people (CSAT) in the report's days and version (`filter`:
 * the days the report resolved, so both say the same range): overall, and by operator (by name),
 * team and tree version.
 */
export function SatisfactionSection({ filter }: { filter: AnalyticsFilter }) {
  const { api } = useApp();
  const t = useT('analytics');
  const [report, setReport] = useState<SatisfactionReport | null>(null);
  const { from, to, version } = filter;

  useEffect(() => {
    let live = true;
    analyticsApi
      .satisfaction(api, { from, to, version })
      .then((next) => live && setReport(next))
      .catch(() => live && setReport(null));
    return () => {
      live = false;
    };
  }, [api, from, to, version]);

  if (!report) return null;
  return (
    <section id="satisfaction-report">
      <h2>{t('satisfaction.title')}</h2>
      <p id="satisfaction-overall">
        {report.average === null
          ? t('satisfaction.none')
          : t('satisfaction.overall', { average: formatDecimal(report.average, 1), count: report.count })}
      </p>
      {report.count > 0 ? (
        <div class="satisfaction-tables">
          <Groups
            id="satisfaction-by-operator"
            title={t('satisfaction.byOperator')}
            groups={report.byOperator}
          />
          <Groups id="satisfaction-by-team" title={t('satisfaction.byTeam')} groups={report.byTeam} />
          <Groups
            id="satisfaction-by-version"
            title={t('satisfaction.byVersion')}
            groups={report.byTreeVersion}
          />
        </div>
      ) : null}
    </section>
  );
}

function Groups({ id, title, groups }: { id: string; title: string; groups: SatisfactionGroupView[] }) {
  const t = useT('analytics');
  return (
    <table id={id}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{t('satisfaction.key')}</th>
          <th scope="col">{t('satisfaction.average')}</th>
          <th scope="col">{t('satisfaction.count')}</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={group.key}>
            <td title={group.name ? group.key : undefined}>
              {group.name ?? (group.key || t('satisfaction.nobody'))}
            </td>
            <td>{formatDecimal(group.average, 1)}</td>
            <td>{formatInteger(group.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
