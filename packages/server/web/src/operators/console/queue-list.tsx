import type { ComponentChildren } from 'preact';
import type { HandoffSummary } from '../../../../src/api-types';
import { formatDateTime, formatTimeWithSeconds } from '../../components/format';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import { WebhookDeadLetters } from '../webhook-dead-letters';
import { CallbackQueue } from './callback-queue';
import { formatWait, queueStatusText } from './console-model';

const TABS = ['open', 'closed'] as const;

/** The tab a key moves to from `current` (ArrowLeft/Right wrap, Home, End), or null for another key. */
function nextTab(current: (typeof TABS)[number], key: string): (typeof TABS)[number] | null {
  const at = TABS.indexOf(current);
  if (key === 'ArrowRight') return TABS[(at + 1) % TABS.length]!;
  if (key === 'ArrowLeft') return TABS[(at + TABS.length - 1) % TABS.length]!;
  if (key === 'Home') return TABS[0];
  if (key === 'End') return TABS[TABS.length - 1]!;
  return null;
}

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
  // The tabs as WAI-ARIA's tab pattern: one tab stop, arrows (and Home/End) move and select.
  const onTabKey = (event: KeyboardEvent) => {
    const next = nextTab(status, event.key);
    if (!next) return;
    event.preventDefault();
    props.onStatus(next);
    document.getElementById(`queue-tab-${next}`)?.focus();
  };
  return (
    <aside class="console-queue" aria-label={t('queue.label')}>
      {props.header}
      <div class="console-tabs" role="tablist" aria-label={t('queue.tabs')}>
        {TABS.map((tab) => (
          <button
            key={tab}
            id={`queue-tab-${tab}`}
            type="button"
            role="tab"
            aria-selected={status === tab ? 'true' : 'false'}
            aria-controls="queue-panel"
            tabIndex={status === tab ? 0 : -1}
            class="ghost-button"
            onClick={() => props.onStatus(tab)}
            onKeyDown={onTabKey}
          >
            {tab === 'open' ? t('queue.tab', { count: props.openCount ?? '…' }) : t('status.closed')}
          </button>
        ))}
      </div>
      <div id="queue-panel" class="queue-panel" role="tabpanel" aria-labelledby={`queue-tab-${status}`}>
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
                {item.lastMessages.length ? (
                  <span class="queue-last">“{item.lastMessages.at(-1)}”</span>
                ) : null}
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
      </div>
      <CallbackQueue refresh={props.list} />
      <WebhookDeadLetters />
    </aside>
  );
}
