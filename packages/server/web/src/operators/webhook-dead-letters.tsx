import { useCallback, useEffect, useState } from 'preact/hooks';
import type { WebhookDeadLettersResponse } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { webhookApi } from '../api/webhook-api';
import { useApp } from '../app/app-context';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';
import { useOperator } from './operator-gate';

/**
 * The handoff webhook's dead letters, in the console's queue column, for admins: how many events
 * wait and how many were given up on (the helpdesk may have missed those handoffs), each with its
 * last error and a Retry button. Nothing for operators, nor when no webhook is configured.
 */
export function WebhookDeadLetters() {
  const { api } = useApp();
  const t = useT('console');
  const { operator } = useOperator();
  const admin = operator.role === 'admin';
  const [state, setState] = useState<WebhookDeadLettersResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setState(await webhookApi.deadLetters(api));
      setError(null);
    } catch (problem) {
      setError(messageOf(problem));
    }
  }, [api]);

  useEffect(() => {
    if (admin) void load();
  }, [admin, load]);

  if (!admin || (!state?.configured && !error)) return null;
  const retry = async (id: string) => {
    try {
      await webhookApi.retryDeadLetter(api, id);
    } catch (problem) {
      setError(messageOf(problem));
    }
    await load();
  };
  return (
    <section
      id="webhook-dead-letters"
      class="console-aside-section console-webhook"
      aria-label={t('webhook.label')}
    >
      <h2>
        {t('webhook.title')}{' '}
        <button type="button" class="ghost-button" onClick={() => void load()}>
          {t('webhook.refresh')}
        </button>
      </h2>
      {state ? (
        <p id="webhook-counts" class="muted">
          {t('webhook.counts', { pending: state.pending, dead: state.dead })}
        </p>
      ) : null}
      {error ? (
        <p class="tone-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul class="console-card-list">
        {(state?.deadLetters ?? []).map((letter) => (
          <li key={letter.id} class="console-card dead-letter">
            <span class="dead-letter-what">
              {markup(t('webhook.letter', { type: letter.type, session: letter.sessionId.slice(0, 12) }))}
            </span>
            <span class="muted">
              {t('webhook.attempts', { count: letter.attempts, error: letter.lastError ?? '—' })}
            </span>
            <button type="button" class="ghost-button" onClick={() => void retry(letter.id)}>
              {t('webhook.retry')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
