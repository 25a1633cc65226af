import { useApp } from '../app/app-context';
import { FileList } from '../components/file-chip';
import { formatMs, formatTime } from '../components/format';
import { Icon } from '../components/icon';
import { ErrorNotice, NoticeAction } from '../components/notice';
import { useT } from '../i18n/use-t';
import { AgentMessage } from './agent-message';
import { Followup } from './handoff-views';
import { customerErrorText, HINTED_ERRORS, isTyping, losesSession, RETRYABLE, type Turn } from './turn-model';

/** What a turn's buttons do. */
export interface TurnActions {
  onOption(turn: Turn, option: string): void;
  onInspect(turn: Turn): void;
  onRetry(turn: Turn): void;
  onNewChat(): void;
}

/** One turn: the user's message, the agent's answer as it streams, and the turn's outcome. */
export function TurnView(props: {
  turn: Turn;
  /** Options work on the last turn only. */
  isLast: boolean;
  inspected: boolean;
  busy: boolean;
  /** The customer's chat: no turn numbers, timings or nodes, the time the message was sent. */
  customer: boolean;
  /** An option not to show (the handoff bar has it). */
  hiddenOption?: string;
  actions: TurnActions;
}) {
  const { turn, actions } = props;
  const { debug, nodeLabel } = useApp();
  const t = useT('chat');
  const user = turn.user;
  const options = {
    enabled: props.isLast,
    chosen: turn.chosenOption,
    ...(props.hiddenOption ? { hidden: props.hiddenOption } : {}),
    onChoose: (option: string) => {
      if (!props.busy) actions.onOption(turn, option);
    },
  };
  const ended = turn.output !== null || turn.error !== null || turn.restored;
  const meta = props.customer ? customerMeta(turn) : [t('turn.number', { number: turn.number })];
  if (!props.customer) {
    if (turn.restored) meta.push(t('turn.restored'));
    else if (turn.durationMs !== null) meta.push(formatMs(turn.durationMs));
    const endNode = turn.output?.nodeId;
    if (endNode !== null && endNode !== undefined && debug)
      meta.push(t('turn.endedAt', { node: nodeLabel(endNode) }));
  }
  return (
    <div class={`turn${props.inspected ? ' is-inspected' : ''}`} data-turn={String(turn.number)}>
      <div class="turn-body">
        <div
          class="msg msg--user"
          {...(user.selectedOption ? { 'data-selected-option': user.selectedOption } : {})}
        >
          <span class="sr-only">{t('turn.youSaid')}</span>
          <div class="bubble">
            {user.selectedOption ? <span class="chosen-label">{t('turn.option')}</span> : null}
            {user.text ? <div class="content">{user.text}</div> : null}
            <FileList files={user.attachments} label={t('turn.attachedFiles')} />
          </div>
        </div>
        {turn.messages.map((message) => (
          <AgentMessage key={message.id} data={message} options={options} />
        ))}
        {turn.runningTools.length && !turn.output && !turn.error ? (
          <div class="tool-activity" role="status">
            <span class="dot" />
            <span>
              {t('turn.running', {
                tools: [...new Set(turn.runningTools.map((tool) => tool.toolName))].join(', '),
              })}
            </span>
          </div>
        ) : null}
        {turn.followups.map((entry, index) => (
          <Followup
            key={`${entry.at}-${index}`}
            entry={entry}
            optionsEnabled={props.isLast && !props.busy && index === turn.followups.length - 1}
            onOption={(option) => actions.onOption(turn, option)}
          />
        ))}
        {isTyping(turn) ? (
          <div class="typing" role="status">
            <span class="sr-only">{t('turn.answering')}</span>
            <span class="dot" />
            <span class="dot" />
            <span class="dot" />
          </div>
        ) : null}
        {turn.noMatch && turn.output ? (
          <div class="notice notice--nomatch" role="status">
            <Icon name="nomatch" />
            <div class="notice-text">
              <p class="notice-title">{t('turn.noMatch')}</p>
              <p>{t('turn.noMatchText')}</p>
            </div>
          </div>
        ) : null}
        {turn.error ? (
          <ErrorNotice
            code={turn.error.code}
            customer={props.customer}
            message={
              props.customer ? customerErrorText(turn.error) : turn.error.message || t('turn.somethingWrong')
            }
            status={turn.error.status}
            hint={HINTED_ERRORS.has(turn.error.code) ? t(`errorHints.${turn.error.code}`) : undefined}
            retryAfter={turn.error.retryAfter}
          >
            {RETRYABLE.has(turn.error.code) && turn.request && !turn.retried ? (
              <NoticeAction label={t('retry')} onClick={() => actions.onRetry(turn)} />
            ) : null}
            {losesSession(turn.error) ? (
              <NoticeAction label={t('newChat')} onClick={actions.onNewChat} />
            ) : null}
          </ErrorNotice>
        ) : null}
      </div>
      {ended ? (
        <div class="turn-meta">
          <span>{meta.join(' · ')}</span>
          {debug && !props.customer && !turn.restored ? (
            <button
              type="button"
              class="link-button inspect"
              aria-label={t('turn.debugTurn', { number: turn.number })}
              onClick={() => actions.onInspect(turn)}
            >
              <Icon name="bug" />
              {t('debug')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The customer's line under a turn: the time the message was sent, in the page's language. */
function customerMeta(turn: Turn): string[] {
  if (!turn.sentAt) return [];
  return [formatTime(turn.sentAt)];
}
