import type { ChartConfiguration } from 'chart.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ExperimentResponse } from '../../../src/api-types';
import { ApiError } from '../api/api-error';
import { versionsApi } from '../api/versions-api';
import { useApp } from '../app/app-context';
import { ChartView, SERIES_COLORS } from '../components/chart';
import { formatDecimal, formatInteger, formatPercent } from '../components/format';
import { useT } from '../i18n/use-t';
import { useOperator } from '../operators/operator-gate';
import { PromoteDialog, type PromoteRequest } from './promote-dialog';
import './experiment-view.css';

/**
 * The Analytics page's experiment view (docs/versions.md): for an environment running an experiment,
 * each variant's figures (conversations, containment, handoff, no-match and fallback rates, average
 * turns, CSAT), a plot of the rates, and the significance test's decision with its method. Shown to
 * admins when some environment runs an experiment.
 */
export function ExperimentView() {
  const { api } = useApp();
  const { operator } = useOperator();
  const admin = operator.role === 'admin';
  const t = useT('analytics');
  const [environments, setEnvironments] = useState<string[]>([]);
  const [environment, setEnvironment] = useState('');
  const [experiment, setExperiment] = useState<ExperimentResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [promoting, setPromoting] = useState<PromoteRequest | null>(null);
  const [promoted, setPromoted] = useState<string | null>(null);
  // A promote ends the experiment: the environments are read again.
  const [reload, setReload] = useState(0);

  useEffect(() => {
    // Environments are an admin's: an operator's page does not ask (a refusal for every page view).
    if (!admin) return;
    let live = true;
    void reload;
    versionsApi
      .environments(api)
      .then(({ environments: list }) => {
        if (!live) return;
        const running = list.filter((env) => env.experiment).map((env) => env.name);
        setEnvironments(running);
        setEnvironment(running[0] ?? '');
      })
      // No versions on this server: the view stays hidden.
      .catch((caught) => {
        if (!(caught instanceof ApiError && (caught.status === 403 || caught.status === 404)) && live)
          setError(caught instanceof Error ? caught.message : String(caught));
      });
    return () => {
      live = false;
    };
  }, [api, admin, reload]);

  useEffect(() => {
    if (!environment) return;
    let live = true;
    versionsApi
      .experiment(api, environment)
      .then((found) => live && setExperiment(found))
      .catch((caught) => live && setError(caught instanceof Error ? caught.message : String(caught)));
    return () => {
      live = false;
    };
  }, [api, environment]);

  const chart = useMemo<ChartConfiguration | null>(() => {
    if (!experiment) return null;
    const rates: [string, (v: ExperimentResponse['variants'][number]) => number][] = [
      [t('experiment.containment'), (v) => v.containmentRate],
      [t('experiment.handoff'), (v) => v.handoffRate],
      [t('experiment.noMatch'), (v) => v.noMatchRate],
    ];
    return {
      type: 'bar',
      data: {
        labels: experiment.variants.map((v) => v.versionId),
        datasets: rates.map(([label, of], index) => ({
          label,
          data: experiment.variants.map((v) => of(v) * 100),
          backgroundColor: SERIES_COLORS[index],
        })),
      },
      options: {
        scales: { y: { beginAtZero: true, max: 100, ticks: { callback: (value) => `${value}%` } } },
      },
    };
  }, [experiment, t]);

  if (error) return <p class="finding is-error">{error}</p>;
  if (promoted)
    return (
      <p id="experiment-promoted" class="finding">
        {promoted}
      </p>
    );
  if (!environments.length || !experiment) return null;
  const { decision } = experiment;
  const verdict =
    decision.status === 'continue'
      ? t('experiment.continue', { count: formatInteger(decision.sampleSize) })
      : decision.status === 'winner'
        ? t('experiment.winner', { version: decision.winner })
        : t('experiment.noDifference');
  return (
    <section id="experiment-view" class="experiment-view">
      <h2>
        {t('experiment.title')}: {experiment.name}
      </h2>
      <label>
        {t('experiment.environment')}
        <select
          name="experiment-environment"
          value={environment}
          onChange={(e) => setEnvironment(e.currentTarget.value)}
        >
          {environments.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <table class="experiment-variants">
        <thead>
          <tr>
            <th>{t('experiment.variant')}</th>
            <th>{t('experiment.split')}</th>
            <th>{t('experiment.conversations')}</th>
            <th>{t('experiment.containment')}</th>
            <th>{t('experiment.handoff')}</th>
            <th>{t('experiment.noMatch')}</th>
            <th>{t('experiment.fallback')}</th>
            <th>{t('experiment.turns')}</th>
            <th>{t('experiment.csat')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {experiment.variants.map((v) => (
            <tr key={v.versionId} data-variant={v.versionId}>
              <td>
                <code>{v.versionId}</code>
              </td>
              <td>{formatPercent(v.percent / 100)}</td>
              <td>{formatInteger(v.conversations)}</td>
              <td>{formatPercent(v.containmentRate)}</td>
              <td>{formatPercent(v.handoffRate)}</td>
              <td>{formatPercent(v.noMatchRate)}</td>
              <td>{formatPercent(v.fallbackRate)}</td>
              <td>{formatDecimal(v.averageTurns, 1)}</td>
              <td class="experiment-csat">
                {v.csat === null
                  ? t('experiment.notCollected')
                  : t('experiment.csatValue', { average: formatDecimal(v.csat, 2), count: v.csatRatings })}
              </td>
              <td>
                <button
                  type="button"
                  class="ghost-button experiment-promote"
                  onClick={() =>
                    setPromoting({ environment, experiment: experiment.name, version: v.versionId })
                  }
                >
                  {t('experiment.promote', { version: v.versionId })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {chart ? <ChartView id="experiment-chart" config={chart} label={t('experiment.chart')} /> : null}
      <div id="experiment-decision">
        <h3>{t('experiment.decision')}</h3>
        <p>
          <strong>{verdict}</strong>
        </p>
        <p>
          {t('experiment.sampleSize', { count: formatInteger(decision.sampleSize) })}
          {decision.z !== null && decision.pValue !== null
            ? ` · ${t('experiment.statistic', { z: formatDecimal(decision.z, 2), p: formatDecimal(decision.pValue, 3) })}`
            : ''}
        </p>
        <p class="note">
          {t('experiment.method')}: {decision.method}
        </p>
      </div>
      <PromoteDialog
        request={promoting}
        onDone={(outcome) => {
          setPromoting(null);
          if (!outcome) return;
          setPromoted(outcome);
          setExperiment(null);
          setReload((count) => count + 1);
        }}
      />
    </section>
  );
}
