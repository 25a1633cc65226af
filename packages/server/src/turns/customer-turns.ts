import type { AgentOutput } from '@treeagent/core';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { resolveAttachments } from '../files/session-files.js';
import { characterCount } from '../http/character-count.js';
import type { MessageLimits } from '../http/message-limits.js';
import { type StartedTurn, TurnRunner } from './turn-runner.js';

/** One message a customer sent to a session: what `POST /api/v1/sessions/:id/messages` takes. */
export interface CustomerMessage {
  /** The session the message belongs to. */
  sessionId: string;
  /** The text; may be empty when `selectedOption` is given. */
  message: string;
  /** The option the customer picked (a button, a quick reply). */
  selectedOption?: string;
  /** Ids of files already stored for this session (in the agent's file store) to attach. */
  attachments?: readonly string[];
  /** Data of the client for the callbacks (`context.clientMetadata`). */
  clientMetadata?: Record<string, unknown>;
  /**
   * Who sent it, counted against `messageLimit.perAddress`: the client's address, or a channel's
   * key for its user (`telegram:42`). Without it only the session's limit counts.
   */
  address?: string;
  /** Cancels the turn (nothing is saved then). */
  signal?: AbortSignal;
  /**
   * The user the session belongs to, for an experiment's split (docs/versions.md). Default: the
   * `userId` the session was created for (`POST /api/v1/sessions`, the widget's `identify()`).
   */
  userId?: string;
}

/** The limits of `createApp`'s `limits` that a message is checked against. */
interface CustomerMessageLimits {
  maxMessageLength: number;
  maxAttachments: number;
}

/**
 * Runs customers' messages as turns of their sessions, exactly as `POST /api/v1/sessions/:id/messages`
 * does: what a channel calls (`RouteAreaContext.turns`, `app.turns`). Failures are `ApiError`s with
 * the status and code the HTTP route would answer (429, 413, 400, 404, 503 …).
 */
export interface CustomerTurns {
  /**
   * Counts the message against the message limits, checks it and starts its turn. Iterate the
   * events to the end (the last is `turn-end` or `error`), or use `run`.
   */
  start(message: CustomerMessage): Promise<StartedTurn>;
  /**
   * Runs the message's turn to its end and returns the agent's output, or throws the `ApiError` of
   * its failure.
   *
   * @example
   * const output = await turns.run({ sessionId, message: 'where is my order?', address: `telegram:${chatId}` });
   */
  run(message: CustomerMessage): Promise<AgentOutput>;
}

/**
 * The server's `CustomerTurns`, exactly as the HTTP message route runs messages: the per-session and
 * per-address message limits, the length and attachment limits, then the turn through the server's
 * runner (refused while shutting down, tracked for graceful shutdown, metrics, tracing, the handoff
 * queue), and the agent's own per-session queue, redaction and atomic commit. Failures are
 * `ApiError`s with the status and code the HTTP route would answer (429, 413, 400, 404, 503 …).
 */
export class CustomerTurnRunner implements CustomerTurns {
  readonly #runner: TurnRunner;
  readonly #messageLimits: MessageLimits;
  readonly #limits: CustomerMessageLimits;
  readonly #fileStore: Parameters<typeof resolveAttachments>[0];
  readonly #userOf: (sessionId: string) => Promise<string | null>;

  constructor(options: {
    runner: TurnRunner;
    messageLimits: MessageLimits;
    limits: CustomerMessageLimits;
    fileStore: Parameters<typeof resolveAttachments>[0];
    /** The user a session was created for (the session tokens' `userId`), or `null`. */
    userOf?: (sessionId: string) => Promise<string | null>;
  }) {
    this.#runner = options.runner;
    this.#userOf = options.userOf ?? (async () => null);
    this.#messageLimits = options.messageLimits;
    this.#limits = options.limits;
    this.#fileStore = options.fileStore;
  }

  /**
   * Counts the message against the limits, checks it and starts its turn. Iterate the events to
   * the end (the last is `turn-end` or `error`), or use `run`.
   */
  async start(message: CustomerMessage): Promise<StartedTurn> {
    if (message.address !== undefined) this.#messageLimits.countAddress(message.address);
    this.#messageLimits.countSession(message.sessionId);
    return this.startCounted(message);
  }

  /**
   * `start` for a message already counted against the message limits (the HTTP route counts before
   * it reads the body, so that a flood of malformed requests is limited too).
   */
  async startCounted(message: CustomerMessage): Promise<StartedTurn> {
    this.#check(message);
    const attachments = await resolveAttachments(this.#fileStore, message.sessionId, message.attachments);
    const userId = message.userId ?? (await this.#userOf(message.sessionId));
    return this.#runner.start({
      sessionId: message.sessionId,
      message: message.message,
      attachments,
      ...(message.signal === undefined ? {} : { signal: message.signal }),
      ...(message.selectedOption === undefined ? {} : { selectedOption: message.selectedOption }),
      ...(message.clientMetadata === undefined ? {} : { clientMetadata: message.clientMetadata }),
      ...(userId ? { userId } : {}),
    });
  }

  /**
   * Runs the message's turn to its end and returns the agent's output, or throws the `ApiError` of
   * its failure.
   *
   * @example
   * const output = await app.turns.run({ sessionId, message: 'where is my order?', address: `telegram:${chatId}` });
   */
  async run(message: CustomerMessage): Promise<AgentOutput> {
    return TurnRunner.output(await this.start(message));
  }

  #check(message: CustomerMessage): void {
    if (message.message.trim() === '' && message.selectedOption === undefined)
      throw invalidRequest('The message is empty: send some text, or a selectedOption.');
    const { maxMessageLength, maxAttachments } = this.#limits;
    const characters = characterCount(message.message);
    if (characters > maxMessageLength) {
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The message has ${characters} characters; the limit is ${maxMessageLength}.`,
        {
          details: { maxMessageLength },
          userMessage: {
            key: 'messageTooLong',
            values: { length: message.message.length, max: maxMessageLength },
          },
        },
      );
    }
    const count = message.attachments?.length ?? 0;
    if (count > maxAttachments)
      throw invalidRequest(`The message has ${count} attachments; the limit is ${maxAttachments}.`);
  }
}
