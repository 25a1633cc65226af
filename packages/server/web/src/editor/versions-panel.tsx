import { useCallback, useEffect, useState } from 'preact/hooks';
import type { EnvironmentState, VersionSummary } from '../../../src/api-types';
import { ApiError } from '../api/api-error';
import { versionsApi } from '../api/versions-api';
import { useApp } from '../app/app-context';
import { formatDateTime } from '../components/format';
import { useT } from '../i18n/use-t';
import './versions-panel.css';

type Outcome = { kind: 'ok'; text: string } | { kind: 'refused'; text: string; failures: string[] };

/**
 * The editor's Versions panel (docs/versions.md): the tree's versions, the diff of two, publishing
 * one to an environment with a message (the gate's failures listed when it refuses) and rolling an
 * environment back. Shown to admins on a server with versions (`treeagent dev` with operators).
 */
export function VersionsPanel() {
  const { api } = useApp();
  const t = useT('editor');
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [environments, setEnvironments] = useState<EnvironmentState[]>([]);
  const [unavailable, setUnavailable] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [diff, setDiff] = useState<string[] | null>(null);
  const [environment, setEnvironment] = useState('');
  const [version, setVersion] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [list, envs] = await Promise.all([versionsApi.list(api), versionsApi.environments(api)]);
      setVersions(list.versions);
      setEnvironments(envs.environments);
      setEnvironment((current) => current || envs.environments[0]?.name || '');
      setVersion((current) => current || list.versions[0]?.id || '');
      setTo((current) => current || list.versions[0]?.id || '');
      setFrom((current) => current || list.versions[1]?.id || list.versions[0]?.id || '');
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 404 || caught.status === 403))
        setUnavailable(true);
      else setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (action: () => Promise<Outcome>) => {
    setBusy(true);
    setError(null);
    try {
      setOutcome(await action());
      await load();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  const publish = () =>
    act(async () => {
      const result = await versionsApi.publish(api, environment, version, message);
      if (result.published) setMessage('');
      return result.failures.length
        ? {
            kind: 'refused',
            text: t('versions.refused', { version, environment }),
            failures: result.failures,
          }
        : {
            kind: 'ok',
            text: result.alreadyServed
              ? t('versions.alreadyServed', { version, environment })
              : t('versions.published', { version, environment }),
          };
    });
  const rollback = () =>
    act(async () => {
      const result = await versionsApi.rollback(api, environment);
      return {
        kind: 'ok',
        text: t('versions.rolledBack', { environment, from: result.from, version: result.versionId }),
      };
    });
  const showDiff = async () => {
    setError(null);
    try {
      setDiff((await versionsApi.diff(api, from, to)).lines);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };

  if (unavailable || !versions) return null;
  const served = (id: string) => environments.filter((env) => env.versionId === id).map((env) => env.name);
  const options = versions.map((v) => (
    <option key={v.id} value={v.id}>
      {v.id}
    </option>
  ));
  return (
    <section id="versions-panel" class="versions-panel">
      <h2>{t('versions.title')}</h2>
      {error ? <p class="finding is-error">{error}</p> : null}
      <table class="versions-list">
        <thead>
          <tr>
            <th>{t('versions.version')}</th>
            <th>{t('versions.saved')}</th>
            <th>{t('versions.message')}</th>
            <th>{t('versions.serves')}</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.id} data-version={v.id}>
              <td>
                <code>{v.id}</code>
              </td>
              <td>
                {formatDateTime(v.createdAt)} · {v.author}
              </td>
              <td>{v.message}</td>
              <td>{served(v.id).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        class="versions-publish"
        onSubmit={(event) => {
          event.preventDefault();
          void publish();
        }}
      >
        <label>
          {t('versions.environment')}
          <select
            name="environment"
            value={environment}
            onChange={(e) => setEnvironment(e.currentTarget.value)}
          >
            {environments.map((env) => (
              <option key={env.name} value={env.name}>
                {env.name}
                {env.versionId ? ` (${env.versionId})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('versions.version')}
          <select name="version" value={version} onChange={(e) => setVersion(e.currentTarget.value)}>
            {options}
          </select>
        </label>
        <label>
          {t('versions.message')}
          <input
            name="message"
            value={message}
            required
            placeholder={t('versions.messagePlaceholder')}
            onInput={(e) => setMessage(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy || !message.trim()}>
          {t('versions.publish')}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => void rollback()}>
          {t('versions.rollback')}
        </button>
      </form>
      {outcome ? (
        <div id="versions-outcome" class={outcome.kind === 'refused' ? 'finding is-error' : 'note'}>
          <p>{outcome.text}</p>
          {outcome.kind === 'refused' ? (
            <ul>
              {outcome.failures.map((failure) => (
                <li key={failure}>{failure}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form
        class="versions-diff"
        onSubmit={(event) => {
          event.preventDefault();
          void showDiff();
        }}
      >
        <label>
          {t('versions.from')}
          <select name="from" value={from} onChange={(e) => setFrom(e.currentTarget.value)}>
            {options}
          </select>
        </label>
        <label>
          {t('versions.to')}
          <select name="to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {options}
          </select>
        </label>
        <button type="submit" class="secondary">
          {t('versions.diff')}
        </button>
      </form>
      {diff ? (
        <ul id="versions-diff">
          {diff.length ? diff.map((line) => <li key={line}>{line}</li>) : <li>{t('versions.same')}</li>}
        </ul>
      ) : null}
    </section>
  );
}
