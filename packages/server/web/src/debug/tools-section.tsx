import { formatMs } from '../components/format';
import { JsonBlock } from '../components/json-block';
import { NodeRef } from '../components/node-ref';
import { useT } from '../i18n/use-t';
import { eventsOf, type TraceEvent, type TraceEventOf } from './turn-trace';

/** A tool call of the turn with its result, when it came. */
export interface ToolCallRow {
  call: TraceEventOf<'tool-call'>;
  result: TraceEventOf<'tool-result'> | null;
}

/** The tool calls of a trace, each paired with its result by `toolCallId`. */
export function toolCallsOf(trace: readonly TraceEvent[]): ToolCallRow[] {
  const results = new Map(eventsOf(trace, 'tool-result').map((event) => [event.toolCallId, event]));
  return eventsOf(trace, 'tool-call').map((call) => ({ call, result: results.get(call.toolCallId) ?? null }));
}

/** The tools the model called: node, tool, step, time, arguments and result (or why there was none). */
export function ToolsSection({
  trace,
  onNode,
}: {
  trace: readonly TraceEvent[];
  onNode: (id: number) => void;
}) {
  const rows = toolCallsOf(trace);
  const t = useT('debug');
  if (!rows.length) return <p class="empty-note">{t('tools.none')}</p>;
  return (
    <table class="data-table tools-table">
      <thead>
        <tr>
          <th>{t('tables.node')}</th>
          <th>{t('tools.tool')}</th>
          <th class="num">{t('tables.step')}</th>
          <th class="num">{t('tables.duration')}</th>
          <th>{t('tools.arguments')}</th>
          <th>{t('tools.result')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ call, result }) => (
          <tr key={call.toolCallId} data-tool={call.toolName} data-outcome={outcome(result)}>
            <td>
              <NodeRef id={call.nodeId} onSelect={onNode} />
            </td>
            <td>
              <code>{call.toolName}</code>
            </td>
            <td class="num">{String(call.step)}</td>
            <td class="num">
              {result ? formatMs(result.durationMs) : <span class="muted">{t('tools.running')}</span>}
            </td>
            <td>
              <Json value={call.input} label={t('tools.argumentsShort')} />
            </td>
            <td>
              {result?.error ? <span class="status-badge status-error">{result.error}</span> : null}{' '}
              <Json
                value={result?.output}
                label={result?.error ? t('tools.message') : t('tools.resultShort')}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function outcome(result: ToolCallRow['result']): string {
  if (!result) return 'running';
  return result.error ?? 'ok';
}

function Json({ value, label }: { value: unknown; label: string }) {
  if (value === undefined) return <span class="muted">—</span>;
  return (
    <details class="inline-json">
      <summary>{label}</summary>
      <JsonBlock value={value} />
    </details>
  );
}
