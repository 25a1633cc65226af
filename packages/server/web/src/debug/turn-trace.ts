import type { AgentEvent, ExploreAction } from '@treeagent/core/client';
import type { ClientEvent } from '../../../src/api-types';
import type { Turn } from '../chat/turn-model';
import { formatMs } from '../components/format';
import { tOf } from '../i18n/use-t';

/** An event of a turn's trace (what the debug view reads). */
export type TraceEvent = ClientEvent | AgentEvent;

/** One kind of event of the trace, by its `type`. */
export type TraceEventOf<Type extends TraceEvent['type']> = Extract<TraceEvent, { type: Type }>;

/**
 * What each exploration action means, in the debug view's words (`debug` catalogs:
 * `actions.<action>.label` and `.why`).
 */
export function exploreAction(action: ExploreAction | string): { label: string; why: string } {
  const t = tOf('debug');
  if (!EXPLORE_ACTION_NAMES.includes(action as ExploreAction)) return { label: action, why: '' };
  return { label: t(`actions.${action}.label`), why: t(`actions.${action}.why`) };
}

const EXPLORE_ACTION_NAMES: readonly ExploreAction[] = [
  'descend',
  'below-threshold',
  'leaf',
  'blocking',
  'leaf-climb',
  'climb',
];

/** Actions that end an exploration. */
export const STOP_ACTIONS: ReadonlySet<ExploreAction> = new Set(['below-threshold', 'leaf', 'blocking']);

/** The events of a turn, without text deltas: the trace when the server sent it, else what streamed. */
export function turnTrace(turn: Turn): TraceEvent[] {
  const trace = turn.output?.trace;
  if (Array.isArray(trace)) return trace;
  return turn.events.filter((event) => event.type !== 'text-delta' && event.type !== 'turn-end');
}

/** The events of one type, typed. */
export function eventsOf<Type extends TraceEvent['type']>(
  trace: readonly TraceEvent[],
  type: Type,
): TraceEventOf<Type>[] {
  return trace.filter((event): event is TraceEventOf<Type> => event.type === type);
}

/** Node ids of the turn's path, in order of first visit: explored, then executed. */
export function pathOf(trace: readonly TraceEvent[]): number[] {
  const path: number[] = [];
  const add = (id: number) => {
    if (!path.includes(id)) path.push(id);
  };
  for (const event of trace) {
    if (event.type === 'explore-decision') {
      add(event.nodeId);
      add(event.nextNodeId);
    } else if (event.type === 'step-start') add(event.nodeId);
  }
  return path;
}

/** Node ids of a turn's path (see `pathOf`). */
export function turnPath(turn: Turn): number[] {
  return pathOf(turnTrace(turn));
}

/** One line on the work of a turn: decisions, steps, callbacks, model calls and their time, tool calls. */
export function workSummary(trace: readonly TraceEvent[]): string {
  const models = eventsOf(trace, 'model-call');
  const modelMs = models.reduce((sum, event) => sum + event.durationMs, 0);
  const tools = eventsOf(trace, 'tool-call').length;
  const t = tOf('debug');
  return [
    t('work.decisions', { count: eventsOf(trace, 'explore-decision').length }),
    t('work.steps', { count: eventsOf(trace, 'step-end').length }),
    t('work.callbacks', { count: eventsOf(trace, 'callback-end').length }),
    `${t('work.modelCalls', { count: models.length })}${models.length ? ` (${formatMs(modelMs)})` : ''}`,
    ...(tools ? [t('work.toolCalls', { count: tools })] : []),
  ].join(' · ');
}
