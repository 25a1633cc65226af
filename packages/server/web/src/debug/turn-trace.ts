import type { AgentEvent, ExploreAction } from '@treeagent/core/client';
import type { ClientEvent } from '../../../src/api-types';
import type { Turn } from '../chat/turn-model';
import { formatMs } from '../components/format';

/** An event of a turn's trace (what the debug view reads). */
export type TraceEvent = ClientEvent | AgentEvent;

/** One kind of event of the trace, by its `type`. */
export type TraceEventOf<Type extends TraceEvent['type']> = Extract<TraceEvent, { type: Type }>;

/** What each exploration action means, in the debug view's words. */
export const EXPLORE_ACTIONS: Readonly<Record<ExploreAction, { label: string; why: string }>> = {
  descend: { label: 'descend', why: 'best chunk above the threshold: move to the child that holds it' },
  'below-threshold': { label: 'stop', why: 'no chunk above the threshold: exploration stops here' },
  leaf: { label: 'stop · leaf', why: 'the node has no children: exploration stops here' },
  blocking: { label: 'stop · blocking', why: 'a blocking node was reached: exploration stops here' },
  'leaf-climb': {
    label: 'climb',
    why: 'a leaf that was just executed: climb to the nearest anchor (fail counter +1)',
  },
  climb: {
    label: 'climb',
    why: 'nothing above the threshold on the node just executed: blacklist it and climb to its anchor (fail counter +1)',
  },
};

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

/** `n word(s)`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** One line on the work of a turn: decisions, steps, callbacks, model calls and their time, tool calls. */
export function workSummary(trace: readonly TraceEvent[]): string {
  const models = eventsOf(trace, 'model-call');
  const modelMs = models.reduce((sum, event) => sum + event.durationMs, 0);
  const tools = eventsOf(trace, 'tool-call').length;
  return [
    plural(eventsOf(trace, 'explore-decision').length, 'decision'),
    plural(eventsOf(trace, 'step-end').length, 'step'),
    plural(eventsOf(trace, 'callback-end').length, 'callback'),
    `${plural(models.length, 'model call')}${models.length ? ` (${formatMs(modelMs)})` : ''}`,
    ...(tools ? [plural(tools, 'tool call')] : []),
  ].join(' · ');
}
