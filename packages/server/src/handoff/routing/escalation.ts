import type { HandoffEvent, HandoffQueue, QueueEntry } from '@treeagent/core/adapter';
import { handoffEventId } from '@treeagent/core/adapter';
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { ServerLogger } from '../../errors/error-response.js';

/** An e-mail and/or a webhook event when a conversation waits too long (option `handoff.escalation`). */
export interface EscalationOptions {
  /** How long a conversation may wait unclaimed before the escalation. */
  afterMs: number;
  /** How often waiting conversations are checked. Default 15 000 ms. */
  checkEveryMs?: number;
  /**
   * Posts a `handoff.escalated` event to the handoff webhook (`handoff.webhook`, which must be set):
   * through its durable outbox, signed like its other events. Default false.
   */
  webhook?: boolean;
  /** The e-mail to send (optional when `webhook` is true). */
  email?: {
    /** The SMTP server: nodemailer's SMTP options (`host`, `port`, `secure`, `auth`…). */
    smtp: SMTPTransport.Options;
    from: string;
    /** Who is told: one list for every team, or per team (`default` for the others). */
    to: string[] | Record<string, string[]>;
    /** Where the console is, for the link in the e-mail, e.g. `https://agent.example.com`. */
    consoleUrl?: string;
  };
}

/** The internal note that marks a conversation escalated (so it is escalated once, and operators see it). */
const ESCALATED = 'Escalated: waited longer than';
const ROUTING = { id: 'routing', name: 'Routing' };

/** Puts a webhook event in the handoff webhook's outbox (and wakes its delivery loop). */
export type EscalationWebhook = (event: HandoffEvent) => Promise<void>;

/**
 * Escalates conversations that wait unclaimed longer than `afterMs`: an e-mail through SMTP to the
 * team's recipients and/or a `handoff.escalated` event for the handoff webhook (queue, reason and
 * wait — never what the user wrote, nor the summary made from it), and an internal note on
 * the conversation, which also keeps it from being escalated twice (by this process or another one
 * sharing the queue, apart from two checks at the very same moment).
 */
export class Escalation {
  readonly #options: EscalationOptions;
  readonly #queue: HandoffQueue;
  readonly #logger: ServerLogger;
  readonly #transport: Transporter | null;
  readonly #webhook: EscalationWebhook | null;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;

  constructor(
    options: EscalationOptions,
    queue: HandoffQueue,
    logger: ServerLogger,
    webhook: EscalationWebhook | null,
    now = () => new Date(),
  ) {
    if (!(options.afterMs > 0))
      throw new TypeError('handoff.escalation.afterMs must be a number of milliseconds above 0.');
    if (!options.email && !options.webhook)
      throw new TypeError(
        'handoff.escalation needs a way to escalate: set `email` (SMTP) and/or `webhook: true` (the handoff webhook).',
      );
    if (options.webhook && !webhook)
      throw new TypeError(
        'handoff.escalation.webhook is true but no handoff webhook is configured: set `handoff.webhook` ({ url, secret }) or remove `escalation.webhook`.',
      );
    this.#options = options;
    this.#queue = queue;
    this.#logger = logger;
    this.#now = now;
    this.#webhook = options.webhook ? webhook : null;
    this.#transport = options.email ? createTransport(options.email.smtp) : null;
  }

  /** Starts checking every `checkEveryMs`. */
  start(): void {
    this.#timer ??= setInterval(() => void this.check(), this.#options.checkEveryMs ?? 15_000);
    this.#timer.unref();
  }

  /** Stops checking (after the check in progress). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
    this.#transport?.close();
  }

  /** Checks once; resolves to the sessions escalated. Failures are logged and retried at the next check. */
  check(): Promise<void> {
    this.#running ??= this.#check().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #check(): Promise<void> {
    const now = this.#now();
    // The 1,000 longest waiting (claimed ones, however many, do not crowd them out).
    const waiting = (await this.#queue.list({ status: 'waiting', limit: 1000 })).filter(
      (entry) =>
        now.getTime() - Date.parse(entry.since) >= this.#options.afterMs &&
        !entry.notes.some((note) => note.text.startsWith(ESCALATED)),
    );
    for (const entry of waiting) {
      try {
        const done: string[] = [];
        if (this.#webhook) {
          await this.#webhook(escalationEvent(entry, now));
          done.push('webhook event queued');
        }
        if (this.#transport) {
          await this.#send(entry, now, this.#transport);
          done.push(`e-mail sent to ${this.#recipients(entry.queue).length} recipient(s)`);
        }
        await this.#queue.addNote(entry.sessionId, {
          at: now.toISOString(),
          operator: ROUTING,
          text: `${ESCALATED} ${Math.round(this.#options.afterMs / 60_000)} min; ${done.join('; ')}.`,
        });
      } catch (error) {
        this.#logger.error(`Escalating session ${entry.sessionId} failed; the next check retries`, error);
      }
    }
  }

  #recipients(team: string): string[] {
    const to = this.#options.email?.to ?? [];
    return Array.isArray(to) ? to : (to[team] ?? to.default ?? []);
  }

  async #send(entry: QueueEntry, now: Date, transport: Transporter): Promise<void> {
    const email = this.#options.email;
    const to = this.#recipients(entry.queue);
    if (!email || to.length === 0) return;
    const minutes = Math.floor((now.getTime() - Date.parse(entry.since)) / 60_000);
    const link = email.consoleUrl
      ? `\n\nOpen it: ${email.consoleUrl.replace(/\/$/, '')}/staff/console?session=${encodeURIComponent(entry.sessionId)}`
      : '';
    await transport.sendMail({
      from: email.from,
      to,
      subject: `[${entry.queue}] A conversation has waited ${minutes} min for an operator`,
      text: `A conversation in the team "${entry.queue}" has waited since ${entry.since} and nobody has taken it.\n\nReason: ${entry.reason || '—'}\nSession: ${entry.sessionId}${link}`,
    });
  }
}

/**
 * The webhook event of an escalation: the same id for the same wait in every process (the outbox
 * keeps it once), and nothing the user wrote — no summary, which is made from their messages.
 */
function escalationEvent(entry: QueueEntry, now: Date): HandoffEvent {
  return {
    id: handoffEventId(entry.sessionId, entry.since, 'handoff.escalated'),
    type: 'handoff.escalated',
    at: now.toISOString(),
    sessionId: entry.sessionId,
    queue: entry.queue,
    reason: entry.reason,
    summary: null,
    waitedMs: now.getTime() - Date.parse(entry.since),
  };
}
