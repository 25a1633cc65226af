import type { HandoffState, HistoryEntry, TreeAgent } from '@treeagent/core';
import type { EventBus } from '@treeagent/core/adapter';
import type { SSEStreamingApi } from 'hono/streaming';
import { endStreamWith, type OpenStream } from '../http/event-streams.js';
import { publicEntry, publicHandoff } from './user-view.js';

/** How often a quiet stream sends a comment, so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/**
 * Streams one session's news as server-sent events until the client goes away: `entry` (each new
 * history row, `id:` its 1-based position, so a reconnection with `Last-Event-ID` resumes after
 * it), `handoff` (the handoff when the stream starts and whenever it changes), `typing` (an operator
 * typing; not stored, not replayed). It re-reads the session when the bus says it changed, after a
 * `resync`, and every `pollMs` anyway; a comment every 15 s keeps proxies from closing it.
 */
export async function streamSession(
  stream: SSEStreamingApi,
  init: {
    agent: TreeAgent;
    bus: EventBus;
    sessionId: string;
    /** The last position the client has; `null`: start after the current history. */
    after: number | null;
    pollMs: number;
    /** Its place under the stream caps: ends the stream when the server ends it (idle, logout); each event counts as activity. */
    open?: OpenStream;
    /** Shapes entries and the handoff for the audience (users see no operator logins). */
    view?: { entry(entry: HistoryEntry): unknown; handoff(state: HandoffState | null | undefined): unknown };
  },
): Promise<void> {
  const { agent, bus, sessionId, pollMs } = init;
  const view = init.view ?? { entry: publicEntry, handoff: publicHandoff };
  let cursor = init.after;
  let closed = false;
  let dirty = true;
  let wake: (() => void) | null = null;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  const writes: Promise<unknown>[] = [];
  const unsubscribe = bus.subscribe((event) => {
    if (event.kind === 'resync' || (event.kind === 'session' && event.sessionId === sessionId)) poke();
    else if (event.kind === 'typing' && event.sessionId === sessionId && !closed) {
      touch();
      writes.push(
        stream.writeSSE({
          event: 'typing',
          data: JSON.stringify({ operatorName: event.operator.name, typing: event.typing }),
        }),
      );
    }
  });
  stream.onAbort(() => {
    closed = true;
    poke();
  });
  if (init.open) {
    endStreamWith(stream, init.open, () => {
      closed = true;
      poke();
    });
  }
  const touch = () => init.open?.touch();
  let lastHandoff: string | null = null;
  let lastWrite = Date.now();
  try {
    while (!closed) {
      if (dirty) {
        dirty = false;
        const [history, record] = await Promise.all([
          agent.history(sessionId),
          agent.inspectSession(sessionId),
        ]);
        if (cursor === null || cursor > history.length) cursor = cursor === null ? history.length : 0;
        for (let index = cursor; index < history.length && !closed; index++) {
          touch();
          await stream.writeSSE({
            id: String(index + 1),
            event: 'entry',
            data: JSON.stringify({ index: index + 1, entry: view.entry(history[index]!) }),
          });
        }
        cursor = history.length;
        const handoff = JSON.stringify({ handoff: view.handoff(record?.handoff) });
        if (handoff !== lastHandoff && !closed) {
          lastHandoff = handoff;
          touch();
          await stream.writeSSE({ event: 'handoff', data: handoff });
        }
        lastWrite = Date.now();
      }
      if (dirty || closed) continue;
      const waited = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.min(pollMs, HEARTBEAT_MS));
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      wake = null;
      if (!waited) {
        dirty = true;
        if (Date.now() - lastWrite >= HEARTBEAT_MS - 50) {
          await stream.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
      }
    }
  } finally {
    unsubscribe();
    await Promise.allSettled(writes);
  }
}
