import type { HistoryEntry, OutputMessage } from '@treeagent/core/client';
import type { ClientEvent, ClientOutput, MessageRequest } from '../../../src/api-types';
import type { LinkedFile } from '../api/session-api';
import { tOf } from '../i18n/use-t';

/** Why a turn failed, as the chat shows it. */
/** Errors whose message the page wrote itself, in its language: a customer may read it as it is. */
const PAGE_WORDS = new Set(['ABORTED', 'INCOMPLETE']);

/**
 * What a customer reads about an error: the server's words for them, else a plain sentence in the
 * page's language — never an error code, a browser's reason or the API's words for developers.
 */
export function customerErrorText(error: Pick<TurnError, 'code' | 'message' | 'userMessage'>): string {
  if (error.userMessage) return error.userMessage;
  if (PAGE_WORDS.has(error.code)) return error.message;
  if (error.code === 'NETWORK') return tOf('common')('error.unreachable');
  return tOf('chat')('turn.somethingWrong');
}

export interface TurnError {
  code: string;
  message: string;
  /** The server's message for the customer, in the page's language, when it sent one. */
  userMessage?: string;
  /** Where the turn failed, when the engine says (`ErrorSummary`). */
  nodeId?: number;
  callback?: string;
  /** First frame of the stack in the tree's code. */
  frame?: string;
  /** HTTP status, when the server answered one. */
  status?: number;
  /** `Retry-After`, in seconds. */
  retryAfter?: string;
}

/** What the user sent in a turn. */
export interface UserMessage {
  text: string;
  selectedOption: string | null;
  attachments: LinkedFile[];
}

/** An agent message of a turn: streaming (`text` so far), then complete (`message`). */
export interface AgentMessage {
  id: string;
  nodeId: number | null;
  streaming: boolean;
  /** The streamed text so far. */
  text: string;
  /** The complete message, once the server sent it. */
  message: OutputMessage | null;
}

/** One turn of the conversation, built from the events of its stream (or from the history). */
export interface Turn {
  /** Unique in the page (a retried turn is a new one). */
  key: number;
  number: number;
  /** Rebuilt from `GET /history`: no events, no debug data. */
  restored: boolean;
  user: UserMessage;
  /** Retried already: its Retry is gone (a second click would send the message twice). */
  retried?: boolean;
  /** The request, to retry it. */
  request: MessageRequest | null;
  messages: AgentMessage[];
  /** Every event received for the turn, text deltas included. */
  events: ClientEvent[];
  output: ClientOutput | null;
  durationMs: number | null;
  error: TurnError | null;
  noMatch: boolean;
  startedAt: number;
  /** When the user sent it (ISO 8601): what the customer's chat shows under the turn; `null` when unknown. */
  sentAt: string | null;
  /** The option the user chose among this turn's messages' options. */
  chosenOption: string | null;
  /** The tools running now (a `tool-call` without its `tool-result` yet), by call id. */
  runningTools: { toolCallId: string; toolName: string }[];
  /**
   * What came after the turn's answer while people had the session: operators' messages and
   * handoff transitions (history rows with `operator` or role `system`), live or restored.
   */
  followups: HistoryEntry[];
}

let nextKey = 1;

/** A new turn with the user's message, before any event. */
export function startTurn(
  number: number,
  user: UserMessage,
  request: MessageRequest | null,
  startedAt: number,
  sentAt: string | null = null,
): Turn {
  return {
    key: nextKey++,
    number,
    restored: false,
    user,
    request,
    messages: [],
    events: [],
    output: null,
    durationMs: null,
    error: null,
    noMatch: false,
    startedAt,
    sentAt,
    chosenOption: null,
    runningTools: [],
    followups: [],
  };
}

/** Whether a history row is one of a turn's `followups` (an operator's message or a handoff row). */
export function isFollowup(entry: HistoryEntry): boolean {
  return entry.role === 'system' || (entry.role === 'assistant' && entry.operator !== undefined);
}

/** The turns with `entry` added after the answer of its turn (the last turn when its turn is not shown). */
export function addFollowup(turns: Turn[], entry: HistoryEntry): Turn[] {
  if (!turns.length) return turns;
  let index = turns.findLastIndex((turn) => turn.number === entry.turn);
  if (index === -1) index = turns.length - 1;
  return turns.map((turn, i) => (i === index ? { ...turn, followups: [...turn.followups, entry] } : turn));
}

/**
 * The turns with `turn` (matched by key) put in place of its older copy, keeping the followups the
 * list already has: those come from the session's live stream, which can deliver an operator's or
 * a team's message while the turn still streams, and the turn's own stream never carries them.
 */
export function replaceTurn(turns: Turn[], turn: Turn): Turn[] {
  return turns.map((listed) => (listed.key === turn.key ? { ...turn, followups: listed.followups } : listed));
}

/** The turn after one more event of its stream. */
export function applyEvent(turn: Turn, event: ClientEvent, now: number): Turn {
  const next: Turn = { ...turn, events: [...turn.events, event] };
  switch (event.type) {
    case 'turn-start':
      return { ...next, number: event.turn };
    case 'message-start':
      return withMessage(next, event.messageId, event.nodeId, (message) => message, {
        streaming: event.messageType === 'generated',
      });
    case 'text-delta':
      return withMessage(
        next,
        event.messageId,
        event.nodeId,
        (message) => ({ ...message, text: message.text + event.delta }),
        { streaming: true },
      );
    case 'message':
      return completeMessage(next, event.message);
    case 'tool-call':
      return {
        ...next,
        runningTools: [...turn.runningTools, { toolCallId: event.toolCallId, toolName: event.toolName }],
      };
    case 'tool-result':
      return {
        ...next,
        runningTools: turn.runningTools.filter((tool) => tool.toolCallId !== event.toolCallId),
      };
    case 'no-match':
      return { ...next, noMatch: true };
    case 'error':
      return failTurn(next, { status: event.status, ...event.error });
    case 'turn-end': {
      let ended: Turn = {
        ...next,
        runningTools: [],
        output: event.output,
        durationMs: Number.isFinite(event.durationMs) ? event.durationMs : now - turn.startedAt,
        number: event.output.turn ?? next.number,
        noMatch: next.noMatch || event.output.status === 'no-match',
      };
      for (const message of event.output.messages ?? []) {
        if (!ended.messages.find((candidate) => candidate.id === message.id)?.message) {
          ended = completeMessage(ended, message);
        }
      }
      return ended;
    }
    default:
      return next;
  }
}

/** The turn failed: nothing streams any more. */
export function failTurn(turn: Turn, error: TurnError): Turn {
  return {
    ...turn,
    error,
    runningTools: [],
    messages: turn.messages.map((message) => ({ ...message, streaming: false })),
  };
}

function withMessage(
  turn: Turn,
  id: string,
  nodeId: number | null,
  change: (message: AgentMessage) => AgentMessage,
  created: { streaming: boolean },
): Turn {
  const index = turn.messages.findIndex((message) => message.id === id);
  if (index === -1) {
    const message = change({ id, nodeId, streaming: created.streaming, text: '', message: null });
    return { ...turn, messages: [...turn.messages, message] };
  }
  const messages = [...turn.messages];
  messages[index] = change(messages[index]!);
  return { ...turn, messages };
}

function completeMessage(turn: Turn, message: OutputMessage): Turn {
  return withMessage(
    turn,
    message.id,
    message.nodeId,
    (current) => ({ ...current, streaming: false, message }),
    { streaming: false },
  );
}

/** Whether a complete message has anything to show (a `none` message without options has not). */
export function hasContent(message: OutputMessage): boolean {
  return (
    (message.content !== null && message.content !== '') ||
    message.options.length > 0 ||
    message.attachments.length > 0 ||
    message.sources.length > 0
  );
}

/** The turn's messages asked the user to answer (a restored turn's too: the history keeps it). */
export function waitsForUser(turn: Turn | undefined): boolean {
  if (turn?.output) return turn.output.messages.some((message) => message.waitInteraction);
  return Boolean(turn?.restored && turn.messages.some((shown) => shown.message?.waitInteraction));
}

/** The agent is still to say something in this turn. */
export function isTyping(turn: Turn): boolean {
  return !turn.restored && !turn.output && !turn.error && turn.messages.length === 0;
}

/** Errors worth a Retry button (the turn saved nothing; the same message may work now). */
export const RETRYABLE = new Set([
  'NETWORK',
  'ABORTED',
  'SESSION_CONFLICT',
  'RATE_LIMITED',
  'SHUTTING_DOWN',
  'SESSION_STORE',
  'INCOMPLETE',
]);

/** Errors after which the session cannot go on: the user needs a new chat. */
export function losesSession(error: TurnError): boolean {
  return error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN' || error.status === 401;
}

/** The codes of errors the chat gives a hint for (what the user can do): `chat.json`'s `errorHints.<code>`. */
export const HINTED_ERRORS: ReadonlySet<string> = new Set([
  'NETWORK',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'SESSION_CONFLICT',
  'RATE_LIMITED',
  'SHUTTING_DOWN',
  'SESSION_STORE',
  'ABORTED',
  'INVALID_INPUT',
  'PAYLOAD_TOO_LARGE',
]);
