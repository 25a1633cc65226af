import { useCallback, useEffect, useState } from 'preact/hooks';
import type { CallbackRequestView } from '../../../../src/api-types';
import { messageOf } from '../../api/api-client';
import { callbackApi } from '../../api/callback-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';

/**
 * The queue column's "Callbacks" section: the open callback requests users of the operator's teams
 * left out of hours (contact, day and hours in the team's time zone), each marked done by an
 * operator. Read again whenever the queue changes (`refresh`), which the server announces on a new one.
 */
export function CallbackQueue({ refresh }: { refresh: unknown }) {
  const { api } = useApp();
  const t = useT('console');
  const [callbacks, setCallbacks] = useState<CallbackRequestView[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setCallbacks((await callbackApi.list(api, 'open')).callbacks);
      setError(null);
    } catch (problem) {
      setError(messageOf(problem));
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load, refresh]);

  if (callbacks.length === 0 && !error) return null;
  const done = async (id: string) => {
    try {
      await callbackApi.done(api, id);
    } catch (problem) {
      setError(messageOf(problem));
    }
    await load();
  };
  return (
    <section id="callback-queue" class="console-aside-section" aria-label={t('callbacks.title')}>
      <h2>{t('callbacks.title')}</h2>
      {error ? (
        <p class="tone-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul class="console-card-list">
        {callbacks.map((callback) => (
          <li key={callback.id} class="console-card callback-item">
            <strong>
              {callback.contact.kind === 'phone' ? (
                <a href={`tel:${callback.contact.value.replace(/[^+\d]/g, '')}`}>{callback.contact.value}</a>
              ) : (
                <a href={`mailto:${callback.contact.value}`}>{callback.contact.value}</a>
              )}
            </strong>
            <span>{t('callbacks.when', { ...callback.window, timeZone: callback.timeZone ?? '' })}</span>
            <span class="muted">
              {t('callbacks.team', { team: callback.team, session: callback.sessionId.slice(0, 8) })}
            </span>
            <button type="button" class="ghost-button" onClick={() => void done(callback.id)}>
              {t('callbacks.done')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
