import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { HandoffSummary } from '../../../../src/api-types';
import { type PresenceStatusName, routingApi } from '../../api/routing-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import './presence-alerts.css';

/** A short two-note chime (Web Audio: no sound file to load). */
function chime(): void {
  try {
    const audio = new AudioContext();
    for (const [index, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.value = 0.08;
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(audio.currentTime + index * 0.15);
      oscillator.stop(audio.currentTime + index * 0.15 + 0.12);
    }
    setTimeout(() => void audio.close(), 600);
  } catch {
    // No audio (a locked-down browser): the notification and the queue still show it.
  }
}

/**
 * The new waiting conversations of `teams` (none: every team) in `list` that `known` has not seen,
 * and what is known after it. A conversation is known by its session and the start of its handoff,
 * so a session handed off again (a new `since`) is new again.
 */
export function newWaiting(
  list: readonly HandoffSummary[],
  teams: readonly string[],
  known: ReadonlySet<string>,
): { fresh: HandoffSummary[]; known: Set<string> } {
  const key = (item: HandoffSummary) => `${item.sessionId}\n${item.since}`;
  const waiting = list.filter(
    (item) => item.status === 'waiting' && (teams.length === 0 || teams.includes(item.queue)),
  );
  return {
    fresh: waiting.filter((item) => !known.has(key(item))),
    known: new Set([...known, ...waiting.map(key)]),
  };
}

/**
 * The console's presence selector and new-conversation alerts: while the operator is online, each
 * new waiting conversation of their teams (none: every team) in the live queue `list` shows a
 * browser notification (once the browser allows it) and plays a chime. `data-alerts` counts them.
 */
export function PresenceAlerts({ list }: { list: HandoffSummary[] | null }) {
  const { api } = useApp();
  const t = useT('console');
  const { operator } = useOperator();
  const [status, setStatus] = useState<PresenceStatusName>('offline');
  const [alerts, setAlerts] = useState(0);
  // Why the last change of presence did not reach the server (the selector shows the status it kept).
  const [failure, setFailure] = useState<string | null>(null);
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );
  const seen = useRef<Set<string> | null>(null);
  const chosen = useRef(false);

  // The status the server has for this operator, or null when it has none or cannot be read.
  const serverStatus = useCallback(
    () =>
      routingApi.presence(api).then(
        (response) => response.presence.find((item) => item.operatorId === operator.id)?.status ?? null,
        () => null,
      ),
    [api, operator.id],
  );

  useEffect(() => {
    void serverStatus().then((found) => {
      // A choice the operator made while the answer was on its way wins over it.
      if (found && !chosen.current) setStatus(found);
    });
  }, [serverStatus]);

  useEffect(() => {
    // Not read yet: what the first answer holds is the queue as found, not new conversations.
    if (list === null) return;
    const first = seen.current === null;
    const { fresh, known } = newWaiting(list, operator.teams ?? [], seen.current ?? new Set());
    seen.current = known;
    if (first || status !== 'online' || fresh.length === 0) return;
    for (const item of fresh) {
      if (typeof Notification !== 'undefined' && Notification.permission === 'granted')
        new Notification(t('presence.newConversation', { queue: item.queue }), {
          body: item.reason,
          tag: item.sessionId,
        });
    }
    chime();
    setAlerts((count) => count + fresh.length);
  }, [list, status, operator.teams, t]);

  // The selector shows the new status at once; if the server did not take it, the status it still
  // has comes back with the reason: an operator who believes they are online while the server routes
  // nothing to them is the failure to avoid.
  const change = (next: PresenceStatusName) => {
    chosen.current = true;
    const previous = status;
    setStatus(next);
    setFailure(null);
    routingApi.setPresence(api, next).catch((caught: unknown) => {
      // Back to what the server has (asked again: the status on screen may itself not be the
      // server's after an earlier failure), or to the one shown before when it cannot be read.
      setStatus((current) => (current === next ? previous : current));
      void serverStatus().then((found) => {
        if (found) setStatus((current) => (current === previous ? found : current));
      });
      setFailure(
        t('presence.failed', {
          status: t(`presence.${next}`),
          error: caught instanceof Error ? caught.message : String(caught),
        }),
      );
    });
  };

  return (
    <div id="presence-alerts" class="presence-alerts" data-alerts={alerts} data-status={status}>
      <label for="presence-status" class="sr-only">
        {t('presence.label')}
      </label>
      <select
        id="presence-status"
        value={status}
        onChange={(event) => change((event.currentTarget as HTMLSelectElement).value as PresenceStatusName)}
      >
        <option value="online">{t('presence.online')}</option>
        <option value="away">{t('presence.away')}</option>
        <option value="offline">{t('presence.offline')}</option>
      </select>
      {failure ? (
        <p id="presence-failure" class="tone-error" role="alert">
          {failure}
        </p>
      ) : null}
      {permission === 'default' ? (
        <button
          type="button"
          class="ghost-button"
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          {t('presence.notifications')}
        </button>
      ) : null}
    </div>
  );
}
