import type { ComponentChildren } from 'preact';
import type { Turn } from '../chat/turn-model';
import { formatMs } from '../components/format';
import { JsonBlock } from '../components/json-block';
import { NodeRef } from '../components/node-ref';
import { useT } from '../i18n/use-t';
import { ErrorDetails } from './error-details';
import { FormSection, formsOf } from './form-section';
import { PathSection } from './path-section';
import { CallbacksSection, ModelsSection, StepsSection } from './tables';
import { ToolsSection } from './tools-section';
import { eventsOf, type TraceEvent, turnTrace, workSummary } from './turn-trace';

/** The debug view of one turn: path, explore decisions, steps, callbacks, model and tool calls, state, timings. */
export function TurnDebug({ turn, onNode }: { turn: Turn; onNode: (id: number) => void }) {
  const trace = turnTrace(turn);
  const forms = formsOf(turn.output?.serverMetadata);
  const t = useT('debug');
  return (
    <>
      <Summary turn={turn} trace={trace} onNode={onNode} />
      {trace.length ? (
        <>
          <Section title={t('sections.path')} name="path">
            <PathSection trace={trace} onNode={onNode} />
          </Section>
          <Section title={t('sections.steps')} name="steps">
            <StepsSection trace={trace} turnMs={turn.durationMs} onNode={onNode} />
          </Section>
          <Section title={t('sections.callbacks')} name="callbacks">
            <CallbacksSection trace={trace} onNode={onNode} />
          </Section>
          <Section title={t('sections.models')} name="models">
            <ModelsSection trace={trace} onNode={onNode} />
          </Section>
          {eventsOf(trace, 'tool-call').length ? (
            <Section title={t('sections.tools')} name="tools">
              <ToolsSection trace={trace} onNode={onNode} />
            </Section>
          ) : null}
          {forms.length ? (
            <Section title={t('sections.form')} name="form">
              <FormSection forms={forms} />
            </Section>
          ) : null}
          <Section title={t('sections.state')} name="state">
            <StateSection turn={turn} />
          </Section>
          <Section title={t('sections.metadata')} name="metadata">
            <MetadataSection turn={turn} />
          </Section>
          <Section title={t('sections.events')} name="events" open={false}>
            <EventList trace={trace} />
          </Section>
        </>
      ) : (
        <p class="empty-note">{turn.error ? t('noTraceFailed') : t('noTrace')}</p>
      )}
    </>
  );
}

function Section(props: { title: string; name: string; open?: boolean; children: ComponentChildren }) {
  return (
    <details class="debug-section" open={props.open ?? true} data-section={props.name}>
      <summary>
        <h3>{props.title}</h3>
      </summary>
      <div class="debug-section-body">{props.children}</div>
    </details>
  );
}

function Summary({ turn, trace, onNode }: { turn: Turn; trace: TraceEvent[]; onNode: (id: number) => void }) {
  const output = turn.output;
  const status = turn.error ? 'error' : (output?.status ?? 'running');
  const extended = eventsOf(trace, 'message-extended')[0];
  const fail = eventsOf(trace, 'fail-counter').at(-1);
  const reset = eventsOf(trace, 'session-reset')[0];
  const t = useT('debug');
  const rows: [string, ComponentChildren][] = [
    [t('summary.status'), <span class={`status-badge status-${status}`}>{status}</span>],
    [t('summary.duration'), formatMs(turn.durationMs)],
    [t('summary.work'), workSummary(trace)],
    [t('summary.endedAt'), <NodeRef id={output?.nodeId ?? null} onSelect={onNode} />],
    [
      t('summary.message'),
      <span>
        <q>{turn.user.text || turn.user.selectedOption || ''}</q>
        {turn.user.selectedOption ? <span class="muted"> {t('summary.selectedOption')}</span> : null}
      </span>,
    ],
  ];
  if (extended && extended.extended !== extended.original) {
    rows.push([t('summary.extended'), <q class="extended">{extended.extended}</q>]);
  }
  if (fail)
    rows.push([
      t('summary.failCounter'),
      t('summary.failValue', { value: fail.value, reason: fail.reason, node: fail.nodeId }),
    ]);
  if (reset)
    rows.push([
      t('summary.sessionReset'),
      t('summary.resetValue', { reason: reset.reason, node: reset.lostNodeId }),
    ]);
  for (const fallback of eventsOf(trace, 'fallback')) {
    rows.push([
      t('summary.fallback'),
      <span>
        <ErrorDetails error={fallback.error} onNode={onNode} />
        {' → '}
        <NodeRef id={fallback.nodeTarget} onSelect={onNode} />
      </span>,
    ]);
  }
  if (turn.error) rows.push([t('summary.error'), <ErrorDetails error={turn.error} onNode={onNode} />]);
  return (
    <div class="debug-summary">
      <h2 class="debug-title">{t('summary.turn', { number: turn.number })}</h2>
      <KeyValues rows={rows} />
    </div>
  );
}

/** A `<dl>` of label/value rows. */
export function KeyValues({ rows, class: extra }: { rows: [string, ComponentChildren][]; class?: string }) {
  return (
    <dl class={`kv${extra ? ` ${extra}` : ''}`}>
      {rows.map(([key, value]) => [<dt key={`${key}-t`}>{key}</dt>, <dd key={`${key}-d`}>{value}</dd>])}
    </dl>
  );
}

function StateSection({ turn }: { turn: Turn }) {
  const metadata = turn.output?.serverMetadata;
  const t = useT('debug');
  if (metadata && Object.hasOwn(metadata, 'sessionState')) {
    return (
      <div>
        <p class="source-note">{t('state.from')}</p>
        <JsonBlock value={metadata.sessionState} label={t('sections.state')} />
      </div>
    );
  }
  return (
    <div class="empty-note">
      <p>{t('state.unavailable')}</p>
      <pre class="code">context.metadata.serverMetadata.sessionState = context.sessionState.serialize();</pre>
    </div>
  );
}

function MetadataSection({ turn }: { turn: Turn }) {
  const metadata = turn.output?.serverMetadata;
  const t = useT('debug');
  if (!metadata) return <p class="empty-note">{t('metadata.none')}</p>;
  if (!Object.keys(metadata).length) return <p class="empty-note">{t('metadata.empty')}</p>;
  return <JsonBlock value={metadata} label={t('sections.metadata')} />;
}

function EventList({ trace }: { trace: TraceEvent[] }) {
  return (
    <ol class="event-list">
      {trace.map((event, index) => {
        const { type, ...rest } = event;
        return (
          <li key={index}>
            <details>
              <summary>
                <code>{type}</code>
                <span class="muted">{eventHint(event)}</span>
              </summary>
              <JsonBlock value={rest} />
            </details>
          </li>
        );
      })}
    </ol>
  );
}

function eventHint(event: TraceEvent): string {
  const fields = event as Partial<Record<'nodeId' | 'step' | 'callback' | 'durationMs', unknown>>;
  const node =
    'nodeId' in event
      ? ` node ${fields.nodeId}${'step' in event ? ` · ${fields.step}` : ''}${'callback' in event ? ` · ${fields.callback}` : ''}`
      : '';
  const duration = typeof fields.durationMs === 'number' ? ` · ${formatMs(fields.durationMs)}` : '';
  return node + duration;
}
