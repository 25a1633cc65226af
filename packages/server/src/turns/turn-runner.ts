import { context } from '@opentelemetry/api';
import type { AgentEvent, AgentOutput, FileMetadata, TreeAgent } from '@treeagent/core';
import type { ChannelConversation, InboundReceipt } from '@treeagent/core/adapter';
import { type ApiError, shuttingDown } from '../errors/api-error.js';
import { apiErrorFromEngine, type EngineErrorSummary, statusOfEngineCode } from '../errors/engine-error.js';
import type { ServerLogger } from '../errors/error-response.js';
import type { TurnMetrics } from '../metrics/turn-metrics.js';
import type { TurnTracing } from '../telemetry/turn-tracing.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnTracker } from './turn-tracker.js';

/** One user message to run as a turn. */
export interface TurnRequest {
  sessionId: string;
  message: string;
  selectedOption?: string;
  attachments?: FileMetadata[];
  clientMetadata?: Record<string, unknown>;
  /** Cancels the turn, for example when the client disconnects. Nothing is saved then. */
  signal?: AbortSignal;
  /** The platform's id of the update (a messaging channel): recorded in the turn's commit, exactly once. */
  inbound?: InboundReceipt;
  /** The channel conversation to answer on: the answer joins the channel outbox in the turn's commit. */
  replyTo?: ChannelConversation;
  /** The user the session belongs to (`SendOptions.userId`): an experiment splits by it. */
  userId?: string;
}

/** A turn started by the runner. */
export interface StartedTurn {
  /**
   * The turn's events, in order; the last is `turn-end` or `error`. Iterate to the end: the
   * turn counts as in flight until its last event.
   */
  events: AsyncIterable<AgentEvent>;
  /** Cancels the turn; its last event is then an `error` (`ABORTED`, or `SHUTTING_DOWN` on shutdown). */
  abort(reason?: unknown): void;
  /** The error a client should see for the turn's `error` event. */
  apiError(error: EngineErrorSummary): ApiError;
}

/**
 * Runs turns for every endpoint the same way: refuses them while shutting down, registers them
 * with the tracker, feeds their events to metrics and tracing, and runs them inside the turn span's
 * context so spans made by callbacks and models nest under it.
 */
export class TurnRunner {
  readonly #agent: TreeAgent;
  readonly #tracker: TurnTracker;
  readonly #metrics: TurnMetrics;
  readonly #tracing: TurnTracing;
  readonly #logger: ServerLogger;
  readonly #debug: boolean;

  constructor(options: {
    agent: TreeAgent;
    tracker: TurnTracker;
    metrics: TurnMetrics;
    tracing: TurnTracing;
    logger: ServerLogger;
    debug: boolean;
    /** More observers of each turn (the handoff queue follows turns through one). */
    observers?: (sessionId: string) => TurnObserver[];
  }) {
    this.#agent = options.agent;
    this.#tracker = options.tracker;
    this.#metrics = options.metrics;
    this.#tracing = options.tracing;
    this.#logger = options.logger;
    this.#debug = options.debug;
    this.#extraObservers = options.observers ?? (() => []);
  }

  readonly #extraObservers: (sessionId: string) => TurnObserver[];

  /** Starts a turn; throws `SHUTTING_DOWN` (503) once shutdown began. */
  start(request: TurnRequest): StartedTurn {
    const lease = this.#tracker.begin();
    if (!lease) throw shuttingDown();
    const controller = new AbortController();
    const signals = [controller.signal, lease.signal, ...(request.signal ? [request.signal] : [])];
    const traced = this.#tracing.startTurn({ sessionId: request.sessionId, treeName: this.#agent.tree.name });
    const observers = [
      this.#metrics.observeTurn(),
      traced.observer,
      this.#logErrors(request.sessionId, lease.signal),
      ...this.#extraObservers(request.sessionId),
    ].map((observer) => this.#guard(observer));
    const stream = context.with(traced.context, () =>
      this.#agent.stream(request.sessionId, request.message, {
        ...(request.selectedOption === undefined ? {} : { selectedOption: request.selectedOption }),
        attachments: request.attachments ?? [],
        clientMetadata: request.clientMetadata ?? {},
        signal: AbortSignal.any(signals),
        ...(request.inbound ? { inbound: request.inbound } : {}),
        ...(request.replyTo ? { replyTo: request.replyTo } : {}),
        ...(request.userId ? { userId: request.userId } : {}),
      }),
    );
    return {
      events: observe(
        stream,
        observers,
        () => controller.abort(new Error('the consumer stopped reading the turn')),
        lease.end,
      ),
      abort: (reason) => controller.abort(reason ?? new Error('the turn was cancelled')),
      apiError: (error) =>
        error.code === 'ABORTED' && lease.signal.aborted
          ? shuttingDown('cancelled')
          : apiErrorFromEngine(error, this.#debug),
    };
  }

  /** Runs a turn to its end and returns its output, or throws the `ApiError` of its failure. */
  static async output(turn: StartedTurn): Promise<AgentOutput> {
    let output: AgentOutput | null = null;
    let error: ApiError | null = null;
    // Read to the end (not `return` at turn-end), so that the turn settles before the response.
    for await (const event of turn.events) {
      if (event.type === 'turn-end') output = event.output;
      else if (event.type === 'error') error = turn.apiError(event.error);
    }
    if (output) return output;
    throw error ?? turn.apiError({ code: 'INTERNAL', message: 'The turn ended without a result.' });
  }

  /** An observer whose failures are logged instead of breaking the turn. */
  #guard(observer: TurnObserver): TurnObserver {
    const safely = (run: () => void) => {
      try {
        run();
      } catch (error) {
        this.#logger.error('A turn observer failed', error);
      }
    };
    return {
      event: (event) => safely(() => observer.event(event)),
      end: () => safely(() => observer.end()),
    };
  }

  /** Logs turns that fail with a server-side error (not cancellations, not the client's mistakes). */
  #logErrors(sessionId: string, shutdown: AbortSignal): TurnObserver {
    return {
      event: (event) => {
        if (event.type !== 'error' || statusOfEngineCode(event.error.code) < 500 || shutdown.aborted) return;
        this.#logger.error(`Turn of session ${sessionId} failed with ${event.error.code}`, event.error);
      },
      end: () => {},
    };
  }
}

/**
 * Passes the events through the observers. If the consumer stops early, the turn is cancelled but
 * still drained here, so that it stays in flight until the engine actually settled.
 */
async function* observe(
  stream: AsyncIterable<AgentEvent>,
  observers: TurnObserver[],
  cancel: () => void,
  settled: () => void,
): AsyncGenerator<AgentEvent> {
  const iterator = stream[Symbol.asyncIterator]();
  const next = async () => {
    const result = await iterator.next();
    if (!result.done) for (const observer of observers) observer.event(result.value);
    return result;
  };
  let done = false;
  try {
    for (let result = await next(); !result.done; result = await next()) yield result.value;
    done = true;
  } finally {
    if (!done) {
      cancel();
      while (!(await next()).done) {}
    }
    for (const observer of observers) observer.end();
    settled();
  }
}

/**
 * Waits for the turn's first event before a stream response commits to status 200: a turn that
 * fails at once (invalid input, session store down) throws its `ApiError` instead, so the client
 * gets a proper HTTP status. Returns the events, the first one included.
 */
export async function eventsAfterStart(turn: StartedTurn): Promise<AsyncIterable<AgentEvent>> {
  const iterator = turn.events[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (!first.done && first.value.type === 'error') {
    while (!(await iterator.next()).done) {}
    throw turn.apiError(first.value.error);
  }
  return {
    async *[Symbol.asyncIterator]() {
      let done = first.done ?? false;
      try {
        if (!first.done) yield first.value;
        for (let result = await iterator.next(); !result.done; result = await iterator.next())
          yield result.value;
        done = true;
      } finally {
        if (!done) await iterator.return?.();
      }
    },
  };
}
