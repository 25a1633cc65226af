import type { ComponentChildren } from 'preact';
import type { Turn } from '../chat/turn-model';
import { formatMs } from '../components/format';
import { JsonBlock } from '../components/json-block';
import { NodeRef } from '../components/node-ref';
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
  return (
    <>
      <Summary turn={turn} trace={trace} onNode={onNode} />
      {trace.length ? (
        <>
          <Section title="Path" name="path">
            <PathSection trace={trace} onNode={onNode} />
          </Section>
          <Section title="Steps and timings" name="steps">
            <StepsSection trace={trace} turnMs={turn.durationMs} onNode={onNode} />
          </Section>
          <Section title="Callbacks" name="callbacks">
            <CallbacksSection trace={trace} onNode={onNode} />
          </Section>
          <Section title="Model calls" name="models">
            <ModelsSection trace={trace} onNode={onNode} />
          </Section>
          {eventsOf(trace, 'tool-call').length ? (
            <Section title="Tool calls" name="tools">
              <ToolsSection trace={trace} onNode={onNode} />
            </Section>
          ) : null}
          {forms.length ? (
            <Section title="Form" name="form">
              <FormSection forms={forms} />
            </Section>
          ) : null}
          <Section title="Session state" name="state">
            <StateSection turn={turn} />
          </Section>
          <Section title="serverMetadata" name="metadata">
            <MetadataSection turn={turn} />
          </Section>
          <Section title="All events" name="events" open={false}>
            <EventList trace={trace} />
          </Section>
        </>
      ) : (
        <p class="empty-note">
          {turn.error
            ? 'The turn failed before the server sent any debug event.'
            : 'No trace for this turn: the server sends it only in debug mode.'}
        </p>
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
  const rows: [string, ComponentChildren][] = [
    ['Status', <span class={`status-badge status-${status}`}>{status}</span>],
    ['Duration', formatMs(turn.durationMs)],
    ['Work', workSummary(trace)],
    ['Ended at', <NodeRef id={output?.nodeId ?? null} onSelect={onNode} />],
    [
      'Message',
      <span>
        <q>{turn.user.text || turn.user.selectedOption || ''}</q>
        {turn.user.selectedOption ? <span class="muted"> (selected option)</span> : null}
      </span>,
    ],
  ];
  if (extended && extended.extended !== extended.original) {
    rows.push(['Extended', <q class="extended">{extended.extended}</q>]);
  }
  if (fail) rows.push(['Fail counter', `${fail.value} (${fail.reason} at node ${fail.nodeId})`]);
  if (reset) rows.push(['Session reset', `${reset.reason} (node ${reset.lostNodeId} is gone)`]);
  for (const fallback of eventsOf(trace, 'fallback')) {
    rows.push([
      'Fallback',
      <span>
        <ErrorDetails error={fallback.error} onNode={onNode} />
        {' → '}
        <NodeRef id={fallback.nodeTarget} onSelect={onNode} />
      </span>,
    ]);
  }
  if (turn.error) rows.push(['Error', <ErrorDetails error={turn.error} onNode={onNode} />]);
  return (
    <div class="debug-summary">
      <h2 class="debug-title">Turn {turn.number}</h2>
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
  if (metadata && Object.hasOwn(metadata, 'sessionState')) {
    return (
      <div>
        <p class="source-note">
          From serverMetadata.sessionState: the state the tree put there at the end of the turn.
        </p>
        <JsonBlock value={metadata.sessionState} label="Session state" />
      </div>
    );
  }
  return (
    <div class="empty-note">
      <p>
        Not available: the session state stays on the server. To see it here, copy it into serverMetadata in
        the root’s afterRun:
      </p>
      <pre class="code">context.metadata.serverMetadata.sessionState = context.sessionState.serialize();</pre>
    </div>
  );
}

function MetadataSection({ turn }: { turn: Turn }) {
  const metadata = turn.output?.serverMetadata;
  if (!metadata) return <p class="empty-note">No output for this turn.</p>;
  if (!Object.keys(metadata).length) return <p class="empty-note">Empty: {'{}'}</p>;
  return <JsonBlock value={metadata} label="serverMetadata" />;
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
