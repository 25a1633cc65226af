/** The user the site's backend vouches for: `signature` is HMAC-SHA256(deployment secret, userId), hex. */
export interface WidgetIdentity {
  userId: string;
  name?: string;
  signature: string;
}

/** A file of the conversation: one the user uploaded, or one the agent or an operator attached. */
export interface WidgetFile {
  id: string;
  name: string;
  mimeType: string;
  size?: number;
  /** Where the server serves it (a path of the session's routes), when it does. */
  url?: string;
  sessionId?: string;
}

/** A source an answer is based on: a link when it has a web address. */
export interface WidgetSource {
  title?: string;
  url?: string;
  content: string;
}

/** A message of the conversation, as the widget shows it. */
/** The handoff a `system` row records (the server's transition), shown in the widget's language. */
export type WidgetHandoffTransition =
  | { type: 'start'; reason: string }
  | { type: 'claim' | 'release'; operator: { name: string } }
  | { type: 'end'; outcome: string; operator?: { name: string } | null };

export interface WidgetMessage {
  id: string;
  role: 'user' | 'assistant' | 'operator' | 'system';
  text: string;
  options: string[];
  author?: string;
  /** Files attached to the message. */
  files?: WidgetFile[];
  /** Files shown where the text says `{{name.ext}}`. */
  inlineFiles?: WidgetFile[];
  sources?: WidgetSource[];
  /** When it was sent (ISO 8601). */
  at?: string;
  /** The agent waits for the user's answer. */
  waiting?: boolean;
  /** A `system` row's handoff: its text comes from the widget's catalog, not the recorded English. */
  handoff?: WidgetHandoffTransition;
}

/** A session the widget holds: kept in `localStorage`, so the conversation goes on across reloads and tabs. */
interface StoredSession {
  sessionId: string;
  token: string;
  userId: string | null;
  /** The customer rated this conversation (the server takes one rating each: not asked again). */
  rated?: boolean;
}

/** An error of the server, with its code and message (what the widget shows, and its `error` event carries). */
export class WidgetError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status; 0 when the server was not reached or the widget itself failed. */
    readonly status: number,
    /** The server's text for the customer, in the widget's language (the body's `userMessage`). */
    readonly userMessage?: string,
    /** The body's `details` (e.g. `maxBytes` of a 413). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'WidgetError';
  }
}

/** The events of one turn the widget uses. */
export type TurnEvent =
  | { type: 'text-delta'; messageId: string; delta: string }
  | {
      type: 'message';
      message: {
        id: string;
        content: string | null;
        options: string[];
        attachments: WidgetFile[];
        dynamicAttachments: WidgetFile[];
        sources: WidgetSource[];
        waitInteraction: boolean;
      };
    }
  | { type: 'error'; status?: number; error: { code: string; message: string; userMessage?: string } }
  | { type: 'turn-end' };

/** The pause before the live stream reconnects, and its bound after failed attempts. */
const FOLLOW_PAUSE_MS = 1000;
const MAX_FOLLOW_PAUSE_MS = 30_000;

/** Talks to a Tree Agent server from another origin: sessions, messages (streamed), history. */
export class WidgetClient {
  #session: StoredSession | null;
  readonly #key: string;

  readonly #locale: () => string;

  /** `locale`: the widget's language, sent as `Accept-Language` so the server's texts for the customer match it. */
  constructor(
    readonly server: string,
    locale: () => string = () => navigator.language,
  ) {
    this.#key = `treeagent.widget:${server}`;
    this.#session = readStored(this.#key);
    this.#locale = locale;
  }

  get session(): StoredSession | null {
    return this.#session;
  }

  /** Starts a new session (for `identity` when given: the server checks its signature). */
  async start(identity: WidgetIdentity | null): Promise<void> {
    const response = await this.#fetch('/api/v1/sessions', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(identity ? { 'X-User-Signature': identity.signature } : {}),
      },
      body: JSON.stringify(identity ? { userId: identity.userId } : {}),
    });
    const created = (await response.json()) as { sessionId: string; token: string };
    this.#session = { sessionId: created.sessionId, token: created.token, userId: identity?.userId ?? null };
    writeStored(this.#key, this.#session);
  }

  /** Remembers that this conversation was rated (with the session: across reloads and tabs). */
  markRated(): void {
    if (!this.#session) return;
    this.#session = { ...this.#session, rated: true };
    writeStored(this.#key, this.#session);
  }

  /** Forgets the session (a new conversation starts with the next message). */
  forget(): void {
    this.#session = null;
    writeStored(this.#key, null);
  }

  /**
   * Follows the session's news while `signal` is not aborted: operators' messages and handoff rows
   * (`entry`, only those: the widget's own turns arrive with their answers), the handoff's state and
   * the operator's typing. Reconnects after a pause when the stream ends, resuming after the last row:
   * 1 s after a stream that opened, twice as long after each failed attempt up to 30 s (a server
   * that is down does not get, nor fill the site's console with, a request a second).
   */
  async follow(signal: AbortSignal, onEvent: (event: LiveEvent) => void): Promise<void> {
    let after: number | null = null;
    let pause = FOLLOW_PAUSE_MS;
    while (!signal.aborted && this.#session) {
      pause = Math.min(pause * 2, MAX_FOLLOW_PAUSE_MS);
      try {
        const query = after === null ? '' : `?after=${after}`;
        const response = await this.#fetch(this.#path(`/events${query}`), {
          headers: { Accept: 'text/event-stream' },
          signal,
        });
        pause = FOLLOW_PAUSE_MS;
        for await (const event of readEvents(response)) {
          const data = event as LiveEvent & { index?: number };
          if (data.type === 'entry' && typeof data.index === 'number') after = data.index;
          onEvent(data);
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof WidgetError && error.status >= 400 && error.status < 500 && error.status !== 429)
          return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * Takes up the stored session when it is `sessionId` (another widget of the same page started it:
   * the page's own widgets get no `storage` event); whether it did.
   */
  takeUp(sessionId: string): boolean {
    const stored = readStored(this.#key);
    if (stored?.sessionId !== sessionId) return false;
    this.#session = stored;
    return true;
  }

  /** Takes up the session another tab started or changed. */
  reload(): void {
    this.#session = readStored(this.#key);
  }

  /** The conversation so far; `null` when the session is gone (expired, deleted). */
  async history(): Promise<WidgetMessage[] | null> {
    if (!this.#session) return [];
    let response: Response;
    try {
      response = await this.#fetch(this.#path('/history'), {});
    } catch (error) {
      if (error instanceof WidgetError && (error.status === 404 || error.status === 401)) return null;
      throw error;
    }
    const { history } = (await response.json()) as { history: HistoryRow[] };
    return history
      .filter((entry) => entry.content !== null)
      .map((entry, index) => messageOf(entry, `h${index}`));
  }

  /** Sends a message (with the ids of uploaded files) and yields the turn's events as they stream, up to its last. */
  async *send(
    message: string,
    selectedOption?: string,
    attachments: string[] = [],
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    const response = await this.#fetch(this.#path('/messages'), {
      method: 'POST',
      ...(signal ? { signal } : {}),
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({
        message,
        ...(selectedOption ? { selectedOption } : {}),
        ...(attachments.length ? { attachments } : {}),
      }),
    });
    for await (const event of readEvents(response) as AsyncGenerator<TurnEvent>) {
      yield event;
      // The turn's last event: the turn is over, though the server may hold the stream a moment
      // longer (PostgreSQL frees the session's lock after it); the next message need not wait.
      if (event.type === 'turn-end' || event.type === 'error') return;
    }
  }

  /** Uploads one file to the session (multipart, field `file`): its metadata, to send with a message. */
  async upload(file: File): Promise<WidgetFile> {
    const body = new FormData();
    body.append('file', file, file.name);
    const response = await this.#fetch(this.#path('/files'), { method: 'POST', body });
    return (await response.json()) as WidgetFile;
  }

  /**
   * The bytes of a file of the conversation, the user's, the agent's or an operator's (the session
   * serves them all, with its token: so no plain link).
   */
  async download(file: WidgetFile): Promise<Blob> {
    return (await this.#fetch(this.#path(`/files/${encodeURIComponent(file.id)}`), {})).blob();
  }

  /** Rates the conversation with people, 1–5, with an optional comment (once, after the hand-back). */
  async rate(rating: number, comment: string): Promise<void> {
    try {
      await this.#fetch(this.#path('/satisfaction'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(comment ? { rating, comment } : { rating }),
      });
    } catch (error) {
      // Rated already (in another tab, before a reload): as good as rated here.
      if (error instanceof WidgetError && error.code === 'ALREADY_RATED') this.markRated();
      throw error;
    }
    this.markRated();
  }

  #path(suffix: string): string {
    if (!this.#session) throw new WidgetError('NO_SESSION', 'There is no conversation yet.', 0);
    return `/api/v1/sessions/${encodeURIComponent(this.#session.sessionId)}${suffix}`;
  }

  async #fetch(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#session) headers.set('X-Session-Token', this.#session.token);
    // A CORS-safelisted header: the server writes its texts for the customer in this language.
    const locale = this.#locale();
    if (/^[A-Za-z0-9-]{1,35}$/.test(locale)) headers.set('Accept-Language', locale);
    const response = await fetch(this.server + path, { ...init, headers, credentials: 'omit' });
    if (response.ok) return response;
    let code = 'HTTP_ERROR';
    let message = `The server answered ${response.status}.`;
    let userMessage: string | undefined;
    let details: Record<string, unknown> | undefined;
    try {
      const body = (await response.json()) as {
        error?: { code?: string; message?: string; userMessage?: string; details?: Record<string, unknown> };
      };
      code = body.error?.code ?? code;
      message = body.error?.message ?? message;
      userMessage = body.error?.userMessage;
      details = body.error?.details;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new WidgetError(code, message, response.status, userMessage, details);
  }
}

/** What the session's live stream brings. */
export type LiveEvent =
  | { type: 'entry'; entry: HistoryRow }
  | { type: 'handoff'; handoff: { status: 'waiting' | 'claimed'; operatorName: string | null } | null }
  | { type: 'typing'; operatorName: string; typing: boolean };

/** A row of the session's history (`GET …/history`, the live stream's `entry`). */
export interface HistoryRow {
  role: string;
  content: string | null;
  options?: string[];
  attachments?: WidgetFile[];
  sources?: WidgetSource[];
  waitInteraction?: boolean;
  operator?: { name: string };
  at?: string;
  handoff?: WidgetHandoffTransition;
}

/** A history row as the widget shows it. */
export function messageOf(entry: HistoryRow, id: string): WidgetMessage {
  return {
    id,
    role:
      entry.role === 'user'
        ? 'user'
        : entry.role === 'system'
          ? 'system'
          : entry.operator
            ? 'operator'
            : 'assistant',
    text: entry.content ?? '',
    options: entry.options ?? [],
    files: entry.attachments ?? [],
    ...(entry.sources?.length ? { sources: entry.sources } : {}),
    ...(entry.waitInteraction ? { waiting: true } : {}),
    ...(entry.at ? { at: entry.at } : {}),
    ...(entry.operator ? { author: entry.operator.name } : {}),
    ...(entry.role === 'system' && entry.handoff ? { handoff: entry.handoff } : {}),
  };
}

/** The server-sent events of a response, as `{ ...data, type: event }`. */
async function* readEvents(response: Response): AsyncGenerator<{ type: string }> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.search(/\r?\n\r?\n/);
    while (end >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      if (event) yield event;
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
}

function parseEvent(block: string): { type: string } | null {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return null;
  try {
    return { ...(JSON.parse(data.join('\n')) as object), type };
  } catch {
    return null;
  }
}

function readStored(key: string): StoredSession | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredSession | null;
    return value && typeof value.sessionId === 'string' && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}

function writeStored(key: string, session: StoredSession | null): void {
  try {
    if (session) localStorage.setItem(key, JSON.stringify(session));
    else localStorage.removeItem(key);
  } catch {
    // Storage disabled (privacy modes): the conversation lasts as long as the page.
  }
}
