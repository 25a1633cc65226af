import { formatMs } from '../components/format';
import { JsonBlock } from '../components/json-block';
import { NodeRef } from '../components/node-ref';
import { useT } from '../i18n/use-t';
import { eventsOf, type TraceEvent } from './turn-trace';

type SectionProps = { trace: readonly TraceEvent[]; onNode: (id: number) => void };

/** The steps that ran, with their time against the turn's, and the totals per step. */
export function StepsSection({ trace, turnMs, onNode }: SectionProps & { turnMs: number | null }) {
  const rows = eventsOf(trace, 'step-end');
  const total = turnMs ?? rows.reduce((sum, row) => sum + row.durationMs, 0);
  const byStep = new Map<string, number>();
  for (const row of rows) byStep.set(row.step, (byStep.get(row.step) ?? 0) + row.durationMs);
  const models = eventsOf(trace, 'model-call');
  const modelTotal = models.reduce((sum, event) => sum + event.durationMs, 0);
  const t = useT('debug');
  const totals = (
    <dl class="kv kv-inline timings">
      <dt>{t('tables.turn')}</dt>
      <dd>{formatMs(total)}</dd>
      {[...byStep].map(([step, ms]) => [
        <dt key={`${step}-t`}>{step}</dt>,
        <dd key={`${step}-d`}>{formatMs(ms)}</dd>,
      ])}
      <dt>{t('tables.modelCalls')}</dt>
      <dd>{`${models.length} · ${formatMs(modelTotal)}`}</dd>
    </dl>
  );
  if (!rows.length) {
    return (
      <div>
        {totals}
        <p class="empty-note">{t('tables.noStep')}</p>
      </div>
    );
  }
  return (
    <div>
      {totals}
      <table class="data-table steps-table">
        <thead>
          <tr>
            <th>{t('tables.node')}</th>
            <th>{t('tables.step')}</th>
            <th class="num">{t('tables.duration')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} data-step={row.step}>
              <td>
                <NodeRef id={row.nodeId} onSelect={onNode} />
              </td>
              <td>
                <span class={`step-badge step-${row.step}`}>{row.step}</span>
              </td>
              <td class="num">
                <span class="duration-bar">
                  <span
                    class="duration-fill"
                    style={{
                      width: `${total > 0 ? Math.max(2, Math.min(100, (row.durationMs / total) * 100)) : 0}%`,
                    }}
                  />
                </span>
                {formatMs(row.durationMs)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The callbacks that ran, with their time and output. */
export function CallbacksSection({ trace, onNode }: SectionProps) {
  const ends = eventsOf(trace, 'callback-end');
  const open = eventsOf(trace, 'callback-start').length - ends.length;
  const t = useT('debug');
  if (!ends.length) return <p class="empty-note">{t('tables.noCallback')}</p>;
  return (
    <div>
      <table class="data-table callbacks-table">
        <thead>
          <tr>
            <th>{t('tables.node')}</th>
            <th>{t('tables.callback')}</th>
            <th class="num">{t('tables.duration')}</th>
            <th>{t('tables.output')}</th>
          </tr>
        </thead>
        <tbody>
          {ends.map((event, index) => (
            <tr key={index}>
              <td>
                <NodeRef id={event.nodeId} onSelect={onNode} />
              </td>
              <td>
                <code>{event.callback}</code>
              </td>
              <td class="num">{formatMs(event.durationMs)}</td>
              <td>
                {event.output === undefined ? (
                  <span class="muted">—</span>
                ) : (
                  <details class="inline-json">
                    <summary>{t('tables.outputShort')}</summary>
                    <JsonBlock value={event.output} />
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open > 0 ? <p class="empty-note">{t('tables.unfinished', { count: open })}</p> : null}
    </div>
  );
}

/** The language-model calls, with their purpose, attempt and time. */
export function ModelsSection({ trace, onNode }: SectionProps) {
  const calls = eventsOf(trace, 'model-call');
  const dropped = eventsOf(trace, 'model-param-dropped');
  const t = useT('debug');
  if (!calls.length) return <p class="empty-note">{t('tables.noModel')}</p>;
  return (
    <div>
      <table class="data-table models-table">
        <thead>
          <tr>
            <th>{t('tables.node')}</th>
            <th>{t('tables.model')}</th>
            <th>{t('tables.purpose')}</th>
            <th class="num">{t('tables.attempt')}</th>
            <th class="num">{t('tables.duration')}</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((event, index) => (
            <tr key={index}>
              <td>
                <NodeRef id={event.nodeId} onSelect={onNode} />
              </td>
              <td>
                <code>{event.modelId}</code>
              </td>
              <td>{event.purpose}</td>
              <td class="num">{String(event.attempt)}</td>
              <td class="num">{formatMs(event.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {dropped.length ? (
        <p class="empty-note">
          {t('tables.dropped', {
            params: dropped.map((event) => `${event.param} (${event.modelId})`).join(', '),
          })}
        </p>
      ) : null}
    </div>
  );
}
