import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionEventHandoff } from '../../../src/api-types';
import { ApiError } from '../api/api-error';
import { sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';
import { customerErrorText } from './turn-model';
import './satisfaction.css';

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * After people had the conversation (the operator handed it back or closed it), asks the user for a
 * 1–5 rating (a radio group) and an optional comment, once; then thanks them.
 */
export function SatisfactionPrompt({ handoff }: { handoff: SessionEventHandoff | null }) {
  const { api } = useApp();
  const t = useT('chat');
  const hadPeople = useRef(false);
  const [asked, setAsked] = useState(false);
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'asking' | 'sent'>('asking');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (handoff) hadPeople.current = true;
    else if (hadPeople.current) setAsked(true);
  }, [handoff]);

  if (!asked || handoff) return null;
  if (state === 'sent')
    return (
      <p id="satisfaction-thanks" class="satisfaction" role="status">
        {t('satisfaction.thanks')}
      </p>
    );

  const submit = async (event: Event) => {
    event.preventDefault();
    if (rating === null) return setError(t('satisfaction.choose'));
    try {
      await sessionApi.rate(api, rating, comment);
      setState('sent');
    } catch (caught) {
      setError(
        customerErrorText(caught instanceof ApiError ? caught : { code: 'ERROR', message: String(caught) }),
      );
    }
  };

  return (
    <form id="satisfaction" class="satisfaction" onSubmit={submit}>
      <fieldset>
        <legend>{t('satisfaction.question')}</legend>
        <div class="satisfaction-scale">
          {RATINGS.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="satisfaction-rating"
                value={value}
                checked={rating === value}
                onChange={() => {
                  setRating(value);
                  setError(null);
                }}
              />
              <span>{value}</span>
              <span class="sr-only">{t(`satisfaction.rating${value}`)}</span>
            </label>
          ))}
        </div>
        <p class="satisfaction-ends muted" aria-hidden="true">
          <span>{t('satisfaction.rating1')}</span>
          <span>{t('satisfaction.rating5')}</span>
        </p>
      </fieldset>
      <label class="satisfaction-comment">
        {t('satisfaction.comment')}
        <textarea
          id="satisfaction-comment"
          rows={2}
          maxLength={2000}
          value={comment}
          onInput={(event) => setComment((event.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      {error ? (
        <p class="tone-error" role="alert">
          {error}
        </p>
      ) : null}
      <button id="satisfaction-send" type="submit" class="primary-button">
        {t('satisfaction.send')}
      </button>
    </form>
  );
}
