import type { HistoryEntry } from '@treeagent/core/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionEvent, SessionEventHandoff } from '../../../src/api-types';
import { isAbort } from '../api/api-error';
import { readServerSentEvents } from '../api/server-sent-events';
import { sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';
import type { LiveStart } from './use-conversation';

/** What the session's live stream says: who has the session, and whether an operator is typing. */
export interface LiveSession {
  handoff: SessionEventHandoff | null;
  /** The name of the operator typing now, or `null`. */
  typing: string | null;
}

/**
 * Follows `GET /api/v1/sessions/:id/events` while the page is open, from `from` (the session and the
 * history rows the page already shows; nothing while it is `null`): each later history row goes to
 * `onEntry` (with its position), the handoff state and typing come back as state. The server replays
 * the rows written after `from.after` before the live ones, so a row written between the history's
 * read and the stream's start is not missed. When the connection drops it reconnects (1 s, then up to
 * 10 s) from the last row it received, so nothing is missed or shown twice.
 */
export function useLiveSession(
  from: LiveStart | null,
  onEntry: (entry: HistoryEntry, index: number) => void,
): LiveSession {
  const { api } = useApp();
  const [handoff, setHandoff] = useState<SessionEventHandoff | null>(null);
  const [typing, setTyping] = useState<string | null>(null);
  const entryHandler = useRef(onEntry);
  entryHandler.current = onEntry;

  useEffect(() => {
    if (!from) return;
    const { sessionId } = from;
    const controller = new AbortController();
    let cursor = from.after;
    let delay = 1000;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    setHandoff(null);
    setTyping(null);
    const follow = async () => {
      while (!controller.signal.aborted) {
        try {
          const response = await sessionApi.events(api, sessionId, cursor, controller.signal);
          delay = 1000;
          for await (const message of readServerSentEvents(response.body!)) {
            const event = { type: message.event, ...JSON.parse(message.data) } as SessionEvent;
            if (event.type === 'entry' && event.index > cursor) {
              cursor = event.index;
              entryHandler.current(event.entry, event.index);
              if (event.entry.operator) setTyping(null);
            } else if (event.type === 'handoff') {
              setHandoff(event.handoff);
              if (!event.handoff) setTyping(null);
            } else if (event.type === 'typing') {
              clearTimeout(typingTimer);
              setTyping(event.typing ? event.operatorName : null);
              // A typing indicator whose "stopped" never came fades by itself.
              if (event.typing) typingTimer = setTimeout(() => setTyping(null), 8000);
            }
          }
        } catch (error) {
          if (isAbort(error) || controller.signal.aborted) return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 10_000);
      }
    };
    void follow();
    return () => {
      clearTimeout(typingTimer);
      controller.abort();
    };
  }, [api, from]);

  return { handoff, typing };
}
