import type { HistoryEntry } from '@treeagent/core/client';
import { isUserFacingEvent } from '@treeagent/core/client';
import { useCallback, useRef, useState } from 'preact/hooks';
import type { MessageRequest } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { ApiError, isAbort } from '../api/api-error';
import { sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';
import { tOf } from '../i18n/use-t';
import { lastNodeOf, restoreHistory } from './restore-history';
import {
  addFollowup,
  applyEvent,
  failTurn,
  replaceTurn,
  startTurn,
  type Turn,
  type TurnError,
  type UserMessage,
} from './turn-model';

/** An error outside any turn (creating the session failed…), with what retries it. */
export interface SystemError {
  error: TurnError;
  retry(): void;
}

/** The chat's session and turns, and the actions on them. */
export interface Conversation {
  turns: Turn[];
  busy: boolean;
  sessionId: string | null;
  /** The node the session was at when it was restored from its history. */
  restoredNode: number | null;
  systemError: SystemError | null;
  /** Resumes the tab's session (its history) or starts a new one; `fresh` always starts a new one. */
  startSession(options?: { fresh?: boolean }): Promise<boolean>;
  /** Makes sure there is a session (for uploads before the first message). */
  ensureSession(): Promise<boolean>;
  /** Runs one turn: streams its events into a new turn and resolves to it once it ended or failed. */
  runTurn(request: MessageRequest, user: UserMessage): Promise<Turn | null>;
  /** Marks the option the user chose on a turn. */
  chooseOption(turnKey: number, option: string): void;
  /** Marks a failed turn as retried: its Retry goes (the retry is a new turn). */
  markRetried(turnKey: number): void;
  /** Aborts the running turn (the server saves nothing of it). */
  stop(): void;
  /**
   * Where the session's live stream starts: the session and the number of its history rows the page
   * already shows (restored, or 0 for a new session). `null` until the session has started, so the
   * stream never starts before the history it continues.
   */
  liveFrom: LiveStart | null;
  /** Shows an operator's message or a handoff row after the answer of its turn. */
  addFollowup(entry: HistoryEntry): void;
}

/** A session and the last history position the page has shown: the live stream continues from there. */
export interface LiveStart {
  sessionId: string;
  after: number;
}

export function useConversation(): Conversation {
  const { api, withApiKey, markDebug } = useApp();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [sessionId, setSessionId] = useState<string | null>(api.session?.sessionId ?? null);
  const [restoredNode, setRestoredNode] = useState<number | null>(null);
  const [systemError, setSystemError] = useState<SystemError | null>(null);
  const controller = useRef<AbortController | null>(null);
  const running = useRef(false);
  const count = useRef(0);
  const [liveFrom, setLiveFrom] = useState<LiveStart | null>(null);
  const starting = useRef<Promise<boolean> | null>(null);

  const replace = (turn: Turn) => setTurns((list) => replaceTurn(list, turn));

  const start = useCallback(
    async ({ fresh = false }: { fresh?: boolean } = {}): Promise<boolean> => {
      setSystemError(null);
      if (!fresh && api.session) {
        try {
          const history = await withApiKey(() => sessionApi.history(api));
          const restored = restoreHistory(history);
          count.current = restored.length;
          setTurns(restored);
          setRestoredNode(lastNodeOf(history));
          setSessionId(api.session.sessionId);
          setLiveFrom({ sessionId: api.session.sessionId, after: history.length });
          return true;
        } catch {
          api.forgetSession();
        }
      }
      try {
        const created = await withApiKey(() => sessionApi.create(api));
        count.current = 0;
        setTurns([]);
        setRestoredNode(null);
        setSessionId(created.sessionId);
        setLiveFrom({ sessionId: created.sessionId, after: 0 });
        return true;
      } catch (error) {
        setSessionId(null);
        setLiveFrom(null);
        setSystemError({
          error: errorOf(error),
          retry: () => void startSession({ fresh: true }),
        });
        return false;
      }
    },
    [api, withApiKey],
  );

  // One start at a time: a message sent while the page's first start is still under way waits for
  // it, rather than starting a second session that the live stream would not follow.
  const startSession = useCallback(
    async (options: { fresh?: boolean } = {}): Promise<boolean> => {
      const started = start(options);
      starting.current = started;
      try {
        return await started;
      } finally {
        if (starting.current === started) starting.current = null;
      }
    },
    [start],
  );

  const ensureSession = useCallback(async () => {
    if (starting.current && (await starting.current)) return true;
    return api.session ? true : startSession({ fresh: true });
  }, [api, startSession]);

  const runTurn = useCallback(
    async (request: MessageRequest, user: UserMessage): Promise<Turn | null> => {
      if (running.current) return null;
      running.current = true;
      setBusy(true);
      count.current += 1;
      let turn = startTurn(count.current, user, request, performance.now(), new Date().toISOString());
      setTurns((list) => [...list, turn]);
      const abort = new AbortController();
      controller.current = abort;
      try {
        for await (const event of sessionApi.send(api, request, abort.signal)) {
          if (!isUserFacingEvent(event.type)) markDebug();
          if (event.type === 'turn-end' && Array.isArray(event.output.trace)) markDebug();
          turn = applyEvent(turn, event, performance.now());
          replace(turn);
        }
        if (!turn.output && !turn.error) {
          turn = failTurn(turn, {
            code: 'INCOMPLETE',
            message: tOf('chat')('turn.incomplete'),
          });
        }
      } catch (error) {
        turn = failTurn(
          turn,
          isAbort(error) ? { code: 'ABORTED', message: tOf('chat')('turn.stopped') } : errorOf(error),
        );
      } finally {
        controller.current = null;
        running.current = false;
        setBusy(false);
      }
      replace(turn);
      return turn;
    },
    [api, markDebug],
  );

  return {
    turns,
    busy,
    sessionId,
    restoredNode,
    systemError,
    startSession,
    ensureSession,
    runTurn,
    chooseOption: (turnKey, option) =>
      setTurns((list) =>
        list.map((turn) => (turn.key === turnKey ? { ...turn, chosenOption: option } : turn)),
      ),
    markRetried: (turnKey) =>
      setTurns((list) => list.map((turn) => (turn.key === turnKey ? { ...turn, retried: true } : turn))),
    stop: () => controller.current?.abort(),
    liveFrom,
    addFollowup: (entry) => setTurns((list) => addFollowup(list, entry)),
  };
}

/** A `TurnError` from anything thrown. */
function errorOf(error: unknown): TurnError {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status ? { status: error.status } : {}),
      ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}),
      ...(error.userMessage ? { userMessage: error.userMessage } : {}),
    };
  }
  return { code: 'CLIENT', message: messageOf(error) };
}
