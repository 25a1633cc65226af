import {
  type TurnEvent,
  type WidgetClient,
  WidgetError,
  type WidgetFile,
  type WidgetMessage,
} from './widget-client';
import type { ConversationLog } from './widget-conversation-log';
import type { WidgetEvents } from './widget-events';
import type { LiveStream } from './widget-live-stream';

/** What a turn needs from the widget. */
export interface TurnContext {
  client: WidgetClient;
  log: ConversationLog;
  live: LiveStream;
  events: WidgetEvents;
  /** Starts the session if there is none yet (the first message). */
  ensureSession(): Promise<void>;
}

/** One message to send: `current` says whether the conversation it belongs to is still the widget's. */
export interface Turn {
  text: string;
  selectedOption: string | undefined;
  files: WidgetFile[];
  signal: AbortSignal;
  current: () => boolean;
}

/**
 * Sends one turn and streams its answer into the log (the partial answer goes when it fails; what
 * an older conversation's turn still brings is dropped). `setWaiting`: the answer waits for the
 * user's (a form's question). The session expired or was deleted: as docs/widget.md says, the
 * message starts a new one (its files belonged to the old session: they are not sent again).
 */
export async function streamTurn(
  context: TurnContext,
  setWaiting: (value: boolean) => void,
  turn: Turn,
): Promise<void> {
  const { client, live } = context;
  const ids = turn.files.map((file) => file.id);
  let answer: HTMLElement | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await context.ensureSession();
        for await (const event of client.send(turn.text, turn.selectedOption, ids, turn.signal)) {
          if (!turn.current()) return;
          answer = showEvent(context, setWaiting, event, answer);
        }
        return;
      } catch (error) {
        if (attempt === 0 && sessionGone(error) && turn.files.length === 0 && turn.current()) {
          live.stop();
          client.forget();
          continue;
        }
        throw error;
      }
    }
  } catch (error) {
    if (turn.current()) answer?.remove();
    throw error;
  }
}

/** Errors a second try can fix: the server not reached, its own failures, a rate limit. */
export function retryable(error: unknown): boolean {
  return !(error instanceof WidgetError) || error.status === 0 || error.status === 429 || error.status >= 500;
}

/** The server no longer has the session (expired, deleted): the message starts a new one. */
export function sessionGone(error: unknown): boolean {
  return error instanceof WidgetError && (error.status === 404 || error.status === 401);
}

/** Shows an event of the turn; returns the answer still streaming (its text so far), if any. */
function showEvent(
  { log, events }: TurnContext,
  setWaiting: (value: boolean) => void,
  event: TurnEvent,
  answer: HTMLElement | null,
): HTMLElement | null {
  if (event.type === 'text-delta') {
    const streaming =
      answer ?? log.add({ id: event.messageId, role: 'assistant', text: '', options: [] }, true);
    streaming.querySelector('.text')!.textContent += event.delta;
    return streaming;
  }
  if (event.type === 'message' && event.message.content !== null) {
    const message = answerOf(event.message);
    answer?.remove();
    log.add(message, true);
    setWaiting(Boolean(event.message.waitInteraction));
    events.emit('message', message);
    return null;
  }
  if (event.type === 'error') {
    const { code, message, userMessage } = event.error;
    throw new WidgetError(code, message, event.status ?? 500, userMessage);
  }
  return answer;
}

/** The answer of a turn, as the log shows it. */
function answerOf(sent: Extract<TurnEvent, { type: 'message' }>['message']): WidgetMessage {
  return {
    id: sent.id,
    role: 'assistant',
    text: sent.content ?? '',
    options: sent.options,
    files: sent.attachments ?? [],
    inlineFiles: sent.dynamicAttachments ?? [],
    sources: sent.sources ?? [],
    at: new Date().toISOString(),
    waiting: sent.waitInteraction,
  };
}
