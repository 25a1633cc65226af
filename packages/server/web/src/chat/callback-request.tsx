import { useEffect, useState } from 'preact/hooks';
import type { CallbackRequestView, SessionEventHandoff } from '../../../src/api-types';
import { ApiError } from '../api/api-error';
import { callbackApi } from '../api/callback-api';
import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';
import { customerErrorText } from './turn-model';
import './satisfaction.css';

/** Tomorrow as `YYYY-MM-DD` (the browser's day: the usual "next morning"). */
function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

/**
 * While the conversation waits for a team that is out of its business hours, offers the user to
 * leave a phone number or an e-mail address and a time window to be called back; then says when.
 */
export function CallbackRequestForm({ handoff }: { handoff: SessionEventHandoff | null }) {
  const { api } = useApp();
  const t = useT('chat');
  const [offered, setOffered] = useState(false);
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const [request, setRequest] = useState<CallbackRequestView | null>(null);
  const [kind, setKind] = useState<'phone' | 'email'>('phone');
  const [value, setValue] = useState('');
  const [date, setDate] = useState(tomorrow);
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('12:00');
  const [error, setError] = useState<string | null>(null);
  const waiting = handoff?.status === 'waiting';

  // Asked again at each change of the handoff: the team's out-of-hours message ends with it waiting.
  useEffect(() => {
    if (!waiting) return setOffered(false);
    let live = true;
    callbackApi
      .offer(api)
      .then((answer) => {
        if (!live) return;
        setOffered(answer.offered);
        setTimeZone(answer.timeZone);
        setRequest(answer.request);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [api, waiting, handoff]);

  if (request)
    return (
      <p id="callback-sent" class="satisfaction" role="status">
        {t('callback.sent', { ...request.window, timeZone: request.timeZone ?? timeZone ?? '' })}
      </p>
    );
  if (!offered) return null;

  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const answer = await callbackApi.request(api, { contact: { kind, value }, window: { date, from, to } });
      setRequest(answer.request);
      setError(null);
    } catch (caught) {
      setError(
        customerErrorText(caught instanceof ApiError ? caught : { code: 'ERROR', message: String(caught) }),
      );
    }
  };
  const input = (set: (next: string) => void) => (event: Event) =>
    set((event.currentTarget as HTMLInputElement).value);
  const contactInput = {
    id: 'callback-contact',
    required: true,
    maxLength: 254,
    value,
    onInput: input(setValue),
  };

  return (
    <form id="callback-request" class="satisfaction callback-request" onSubmit={submit}>
      <fieldset>
        <legend>{t('callback.title')}</legend>
        <p class="muted">{t('callback.intro', { timeZone: timeZone ?? '' })}</p>
        <div class="satisfaction-scale">
          {(['phone', 'email'] as const).map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="callback-kind"
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
              />
              <span>{t(`callback.${option}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="satisfaction-comment">
        <label for="callback-contact">
          {kind === 'phone' ? t('callback.phoneLabel') : t('callback.emailLabel')}
        </label>
        {kind === 'phone' ? (
          <input type="tel" autoComplete="tel" {...contactInput} />
        ) : (
          <input type="email" autoComplete="email" {...contactInput} />
        )}
      </div>
      <div class="callback-window">
        <label class="satisfaction-comment">
          {t('callback.date')}
          <input id="callback-date" type="date" required value={date} onInput={input(setDate)} />
        </label>
        <label class="satisfaction-comment">
          {t('callback.from')}
          <input id="callback-from" type="time" required value={from} onInput={input(setFrom)} />
        </label>
        <label class="satisfaction-comment">
          {t('callback.to')}
          <input id="callback-to" type="time" required value={to} onInput={input(setTo)} />
        </label>
      </div>
      {error ? (
        <p class="tone-error" role="alert">
          {error}
        </p>
      ) : null}
      <button id="callback-send" type="submit" class="primary-button">
        {t('callback.send')}
      </button>
    </form>
  );
}
