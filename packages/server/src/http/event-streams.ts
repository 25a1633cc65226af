import type { SSEStreamingApi } from 'hono/streaming';
import { ApiError } from '../errors/api-error.js';

/**
 * Limits on the long-lived event streams (option `streams` of `createApp`): a session's
 * (`GET /api/v1/sessions/:id/events`), the operator console's (`GET /api/v1/operator/events`) and
 * the editor's (`GET /api/v1/editor/events`).
 */
export interface StreamLimitOptions {
  /** Open streams per session token. Default 4 (a user's tabs). */
  perSession?: number;
  /** Open streams per operator, over all their logins. Default 10. */
  perOperator?: number;
  /** Open streams per client address. Default 20. */
  perAddress?: number;
  /** Open streams in this process. Default 1000. */
  perProcess?: number;
  /**
   * A stream that sent no event (keep-alive comments do not count) for this long is ended; the
   * pages reconnect at once. Default 15 minutes.
   */
  idleTimeoutMs?: number;
  /**
   * How often an operator's stream checks that its login still holds (a logout or a removal on
   * another process, which this one hears of no other way). Default 15 000 ms.
   */
  recheckMs?: number;
}

/** Defaults of `StreamLimitOptions`. */
export const DEFAULT_STREAM_LIMITS: Required<StreamLimitOptions> = {
  perSession: 4,
  perOperator: 10,
  perAddress: 20,
  perProcess: 1000,
  idleTimeoutMs: 15 * 60_000,
  recheckMs: 15_000,
};

/** Whom a stream belongs to: each key counts against its own cap. */
export interface StreamOwner {
  address: string;
  sessionId?: string;
  /** The operator's id, and the hash of the login's token (logout ends that login's streams). */
  operator?: { id: string; login: string };
}

/** One open stream: ended by `signal` (idle, logout, operator removed, shutdown); `release` when it closes. */
export interface OpenStream {
  /** Aborted when the server ends the stream; `signal.reason` says why. */
  readonly signal: AbortSignal;
  /** Marks activity (an event sent): restarts the idle timeout. */
  touch(): void;
  /** Frees the stream's place under every cap (idempotent). */
  release(): void;
}

/** Seconds a client is told to wait when a cap is full. */
const RETRY_AFTER_SECONDS = 10;

interface Entry {
  owner: StreamOwner;
  controller: AbortController;
  timer: NodeJS.Timeout | undefined;
  recheck: NodeJS.Timeout | undefined;
}

/**
 * The open event streams of this process, counted per session, per operator, per client address and
 * in all, each under its cap (over one: 429 `RATE_LIMITED` with `Retry-After`, before the stream
 * starts). Ends a stream idle for `idleTimeoutMs`, and on demand every stream of an operator
 * (removed or changed), of one login (logout) or of one session (deleted).
 */
export class EventStreams {
  readonly limits: Required<StreamLimitOptions>;
  readonly #open = new Set<Entry>();

  constructor(options: StreamLimitOptions = {}) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...options };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isInteger(value) || value < 1)
        throw new TypeError(`streams.${name} is ${value}: give a whole number of at least 1.`);
    }
  }

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Opens a stream for `owner`, or throws 429 naming the cap that is full. `stillAllowed`, when
   * given, runs every `recheckMs`: when it resolves `false` the stream ends with `revokedReason`
   * (default `logged out`).
   */
  open(owner: StreamOwner, stillAllowed?: () => Promise<boolean>, revokedReason = 'logged out'): OpenStream {
    const count = (match: (entry: Entry) => boolean) => {
      let n = 0;
      for (const entry of this.#open) if (match(entry)) n++;
      return n;
    };
    const { perSession, perOperator, perAddress, perProcess } = this.limits;
    if (owner.sessionId !== undefined && count((e) => e.owner.sessionId === owner.sessionId) >= perSession)
      throw full(
        `at most ${perSession} per session, and they are open (close a tab or an old stream)`,
        'session',
        perSession,
      );
    if (owner.operator && count((e) => e.owner.operator?.id === owner.operator!.id) >= perOperator)
      throw full(
        `at most ${perOperator} per operator, and they are open (close a tab)`,
        'operator',
        perOperator,
      );
    if (count((e) => e.owner.address === owner.address) >= perAddress)
      throw full(`at most ${perAddress} per client address, and they are open`, 'address', perAddress);
    if (this.#open.size >= perProcess)
      throw full(`at most ${perProcess} in this server process, and they are open`, 'process', perProcess);

    const entry: Entry = { owner, controller: new AbortController(), timer: undefined, recheck: undefined };
    const end = (reason: string) => {
      if (!entry.controller.signal.aborted) entry.controller.abort(reason);
    };
    const touch = () => {
      clearTimeout(entry.timer);
      if (entry.controller.signal.aborted) return;
      entry.timer = setTimeout(() => end('idle'), this.limits.idleTimeoutMs);
      entry.timer.unref?.();
    };
    this.#open.add(entry);
    touch();
    if (stillAllowed) {
      let checking = false;
      entry.recheck = setInterval(() => {
        if (checking) return;
        checking = true;
        stillAllowed()
          .then((allowed) => {
            if (!allowed) end(revokedReason);
          })
          // A store that cannot answer now is asked again at the next check.
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      }, this.limits.recheckMs);
      entry.recheck.unref?.();
    }
    return {
      signal: entry.controller.signal,
      touch,
      release: () => {
        clearTimeout(entry.timer);
        clearInterval(entry.recheck);
        this.#open.delete(entry);
      },
    };
  }

  /** Ends every stream of the operator `id` (removed, or a role changed); returns how many. */
  endOperator(id: string, reason = 'operator changed'): number {
    return this.#end((owner) => owner.operator?.id === id, reason);
  }

  /** Ends every stream opened with the login whose token hash is `login` (logout); returns how many. */
  endLogin(login: string, reason = 'logged out'): number {
    return this.#end((owner) => owner.operator?.login === login, reason);
  }

  /** Ends every stream of the session `sessionId` (deleted or expired); returns how many. */
  endSession(sessionId: string, reason = 'session deleted'): number {
    return this.#end((owner) => owner.sessionId === sessionId, reason);
  }

  /** Ends every stream (shutdown). */
  endAll(reason = 'shutting down'): number {
    return this.#end(() => true, reason);
  }

  #end(match: (owner: StreamOwner) => boolean, reason: string): number {
    let ended = 0;
    for (const entry of this.#open) {
      if (!match(entry.owner) || entry.controller.signal.aborted) continue;
      entry.controller.abort(reason);
      ended++;
    }
    return ended;
  }
}

function full(what: string, cap: 'session' | 'operator' | 'address' | 'process', max: number): ApiError {
  return new ApiError(
    429,
    'RATE_LIMITED',
    `Too many event streams: ${what}. Retry in ${RETRY_AFTER_SECONDS} s.`,
    {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      details: { retryAfterSeconds: RETRY_AFTER_SECONDS, streamCap: cap, maxStreams: max },
    },
  );
}

/** How long a stream the server ended may take to flush before it is cut (a client that reads nothing). */
const END_GRACE_MS = 2000;

/**
 * Ties an SSE response to `open`: when the server ends the stream (idle, logout, operator changed),
 * a comment `: closed: <reason>` is written and `onEnd` lets the stream's loop finish (which closes
 * the response); a loop stuck writing to a client that reads nothing is aborted after 2 s.
 */
export function endStreamWith(stream: SSEStreamingApi, open: OpenStream, onEnd: () => void): void {
  const end = () => {
    void stream.write(`: closed: ${String(open.signal.reason)}\n\n`);
    onEnd();
    setTimeout(() => {
      if (!stream.closed) stream.abort();
    }, END_GRACE_MS).unref?.();
  };
  if (open.signal.aborted) end();
  else open.signal.addEventListener('abort', end, { once: true });
}
