import { useEffect, useRef } from 'preact/hooks';
import type { HandoffDetail } from '../../../../src/api-types';
import { markup } from '../../i18n/markup';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import { holderText, panelHead } from './console-model';
import { ReplyForm } from './reply-form';
import { SessionActions } from './session-actions';
import { SessionSide } from './session-side';
import { Transcript } from './transcript';

/** One handed-off session in the console: its header, actions, transcript, the reply form, and its state and notes beside. */
export function SessionPanel({
  sessionId,
  detail,
  now,
  userTyping,
  run,
  reload,
  onLeave,
}: {
  sessionId: string;
  detail: HandoffDetail;
  now: number;
  /** The user is typing now (their page says so while the operators have the session). */
  userTyping: boolean;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  reload: () => Promise<void>;
  /** Back to the queue: the session was passed to someone else. */
  onLeave: () => void;
}) {
  const { operator } = useOperator();
  const state = detail.state;
  const holder = state?.operator ?? null;
  const mine = holder?.id === operator.id;
  const admin = operator.role === 'admin';
  const transcript = useRef<HTMLOListElement>(null);
  const t = useT('console');

  useEffect(() => {
    if (transcript.current) transcript.current.scrollTop = transcript.current.scrollHeight;
  }, [detail.history.length]);

  const act = async (action: () => Promise<unknown>) => {
    if (await run(action)) await reload();
  };

  return (
    <>
      <section id="console-session" class="console-session" aria-label={t('side.session')}>
        <header class="session-head">
          <div>
            <h1 id="session-reason">{detail.handoff.reason}</h1>
            <p class="muted">{markup(panelHead(detail.handoff, sessionId, now))}</p>
            {detail.handoff.summary ? (
              <p id="session-summary" class="session-summary">
                {detail.handoff.summary}
              </p>
            ) : null}
          </div>
          <p id="session-holder" class="session-holder">
            {holderText(Boolean(state), holder, mine)}
          </p>
        </header>
        {state ? (
          <SessionActions
            sessionId={sessionId}
            state={state}
            mine={mine}
            admin={admin}
            act={act}
            onLeave={onLeave}
          />
        ) : null}
        <Transcript
          history={detail.history}
          facts={detail.facts}
          sessionId={sessionId}
          listRef={transcript}
        />
        <p id="user-typing" class="user-typing muted" aria-live="polite">
          {userTyping && state ? t('panel.userTyping') : ''}
        </p>
        {state ? (
          <ReplyForm
            sessionId={sessionId}
            mine={mine}
            holderName={holder && !mine ? holder.name : null}
            run={run}
            reload={reload}
            team={state.queue}
            state={detail.session?.state ?? {}}
          />
        ) : null}
      </section>
      <SessionSide sessionId={sessionId} detail={detail} run={run} reload={reload} />
    </>
  );
}
