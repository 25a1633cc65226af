import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AuditEntryView } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { type AuditFilters, auditLog } from '../api/operator-api';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { formatDateTime } from '../components/format';
import { useT } from '../i18n/use-t';
import { OperatorBadge } from '../operators/operator-badge';
import { OperatorGate } from '../operators/operator-gate';

/** The audit log page (admins): who did what to which session, newest first, filtered and paged. */
export function AuditPage() {
  const t = useT('common');
  return (
    <OperatorGate requires="admin" title={t('gate.audit')}>
      <AuditLogView />
    </OperatorGate>
  );
}

function AuditLogView() {
  const { api, withApiKey, setReady } = useApp();
  const t = useT('audit');
  const [filters, setFilters] = useState<AuditFilters>({ sessionId: '', actorId: '', action: '' });
  const [entries, setEntries] = useState<AuditEntryView[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (beforeId: number | null) => {
      try {
        const page = await withApiKey(() => auditLog(api, filters, beforeId));
        setEntries((previous) => (beforeId === null ? page.entries : [...previous, ...page.entries]));
        setNext(page.nextBeforeId);
        setError(null);
      } catch (caught) {
        setError(messageOf(caught));
      } finally {
        setReady(true);
      }
    },
    [api, withApiKey, filters, setReady],
  );

  useEffect(() => {
    void load(null);
    return () => setReady(false);
  }, [load, setReady]);

  const field = (name: keyof AuditFilters, label: string) => (
    <label class="audit-filter">
      <span>{label}</span>
      <input
        id={`audit-filter-${name}`}
        value={filters[name]}
        onChange={(event) =>
          setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value })
        }
      />
    </label>
  );

  return (
    <>
      <TopBar>
        <OperatorBadge />
      </TopBar>
      <main id="audit-page" class="page audit-page">
        <h1>{t('title')}</h1>
        <form class="audit-filters" onSubmit={(event) => event.preventDefault()}>
          {field('sessionId', t('session'))}
          {field('actorId', t('operator'))}
          {field('action', t('action'))}
        </form>
        {error ? (
          <p class="tone-error" role="alert">
            {error}
          </p>
        ) : null}
        <table id="audit-table" class="audit-table">
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('operator')}</th>
              <th scope="col">{t('action')}</th>
              <th scope="col">{t('session')}</th>
              <th scope="col">{t('detail')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} class="audit-row">
                <td>{formatDateTime(entry.at)}</td>
                <td>
                  {entry.actorId}
                  {entry.actorRole ? <span class="muted"> ({entry.actorRole})</span> : null}
                </td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>{entry.sessionId ? <code>{entry.sessionId}</code> : <span class="muted">—</span>}</td>
                <td class="audit-detail">
                  {Object.entries(entry.detail)
                    .map(([key, value]) => `${key}: ${String(value)}`)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {entries.length === 0 && !error ? <p class="muted">{t('none')}</p> : null}
        {next !== null ? (
          <button id="audit-older" type="button" class="ghost-button" onClick={() => void load(next)}>
            {t('older')}
          </button>
        ) : null}
      </main>
    </>
  );
}
