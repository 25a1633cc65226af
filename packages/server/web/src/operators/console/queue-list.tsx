import type { ComponentChildren } from 'preact';
import type { HandoffSummary } from '../../../../src/api-types';
import { formatDateTime, formatTimeWithSeconds } from '../../components/format';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import { WebhookDeadLetters } from '../webhook-dead-letters';
import { CallbackQueue } from './callback-queue';
import { formatWait, queueStatusText } from './console-model';

/** The console's left column: open or closed handoffs, filtered by queue, each with its wait and state; the webhook's dead letters below. */
export function QueueList(props: {
  status: 'open' | 'closed';
  onStatus(status: 'open' | 'closed'): void;
  /** The tab's handoffs; null while the first answer is on its way. */
  list: HandoffSummary[] | null;
  /** How many handoffs are open (the Queue tab's count, on either tab); null before the first answer. */
  openCount: number | null;
  queues: string[];
  queueFilter: string;
  onQueueFilter(queue: string): void;
  selected: string | null;
  onSelect(sessionId: string): void;
  /** The sessions whose users are typing now. */
  typing: ReadonlySet<string>;
  now: number;
  /** Shown above the tabs (the operator's presence and alerts). */
  header?: ComponentChildren;
}) {
  const { operator } = useOperator();
  const t = useT('console');
  const { status, queueFilter } = props;
  const list = props.list ?? [];
  const shown = list.filter((item) => !queueFilter || item.queue === queueFilter);
  return (
    <aside class="console-queue" aria-label={t('queue.label')}>
      {props.header}
      <div class="console-tabs" role="tablist">
        {(['open', 'closed'] as const).map((tab) => (
          <button
            key={tab}
            id={`queue-tab-${tab}`}
            type="button"
            role="tab"
            aria-selected={status === tab ? 'true' : 'false'}
            class="ghost-button"
            onClick={() => props.onStatus(tab)}
          >
            {tab === 'open' ? t('queue.tab', { count: props.openCount ?? '…' }) : t('status.closed')}
          </button>
        ))}
      </div>
      <label class="console-filter">
        <span>{t('queue.label')}</span>
        <select
          id="queue-filter"
          value={queueFilter}
          onChange={(event) => props.onQueueFilter((event.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">{t('queue.all')}</option>
          {props.queues.map((queue) => (
            <option key={queue} value={queue}>
              {queue}
            </option>
          ))}
        </select>
      </label>
      <ul id="queue-list" class="queue-list">
        {shown.map((item) => (
          <li key={item.sessionId}>
            <button
              type="button"
              class={`queue-item queue-item--${item.status}${item.sessionId === props.selected ? ' is-selected' : ''}`}
              data-session-id={item.sessionId}
              onClick={() => props.onSelect(item.sessionId)}
            >
              <span class="queue-item-top">
                <span class="queue-chip">{item.queue}</span>
                {item.channel ? <span class="queue-chip queue-channel">{item.channel}</span> : null}
                <span class="queue-wait" title={t('queue.since', { time: formatDateTime(item.since) })}>
                  {item.status === 'closed' ? item.outcome : formatWait(props.now - Date.parse(item.since))}
                </span>
              </span>
              <span class="queue-reason">{item.reason}</span>
              {item.lastMessages.length ? <span class="queue-last">“{item.lastMessages.at(-1)}”</span> : null}
              <span class="queue-status">
                {props.typing.has(item.sessionId) ? (
                  <span class="queue-typing">{t('queue.typing')}</span>
                ) : null}
                {queueStatusText(item, operator.id, formatTimeWithSeconds)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {props.list && shown.length === 0 ? (
        <p id="queue-empty" class="muted console-empty">
          {status === 'open' ? t('queue.nobody') : t('queue.noClosed')}
        </p>
      ) : null}
      <CallbackQueue refresh={props.list} />
      <WebhookDeadLetters />
    </aside>
  );
}
