import {
  type AgentEvent,
  type AgentOutput,
  type HandoffState,
  type TreeAgent,
  TreeAgentError,
} from '@treeagent/core';
import {
  type AuditValue,
  type CallbackRequests,
  type CannedResponses,
  type EventBus,
  type HandoffAction,
  type HandoffEvent,
  type HandoffOutbox,
  type HandoffQueue,
  type HandoffUpdate,
  handoffEventId,
  InMemoryCallbackRequests,
  InMemoryCannedResponses,
  InMemoryEventBus,
  InMemoryHandoffOutbox,
  InMemoryHandoffQueue,
  InMemoryOperatorRouting,
  InMemorySatisfactionRatings,
  type OperatorRef,
  type OperatorRouting,
  type QueueEntry,
  type SatisfactionRatings,
  tallyOpenEntries,
} from '@treeagent/core/adapter';
import type { ServerLogger } from '../errors/error-response.js';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import type { OperatorIdentity } from '../operators/operator-accounts.js';
import type { OperatorAuth } from '../operators/operator-auth.js';
import type { TurnObserver } from '../turns/turn-observer.js';
import { HandoffMetrics } from './handoff-metrics.js';
import { HandoffWebhook, type HandoffWebhookOptions } from './handoff-webhook.js';
import { Escalation, type EscalationOptions } from './routing/escalation.js';
import { HandoffRouter } from './routing/handoff-router.js';
import { checkTeams, type TeamOptions } from './routing/team-options.js';

/** Human handoff on the server (option `handoff` of `createApp`). */
export interface HandoffOptions {
  /** The queue of handed-off sessions. Default: in memory (one process). */
  queue?: HandoffQueue;
  /** Fan-out between processes. Default: in memory (one process); `PostgresEventBus` across processes. */
  bus?: EventBus;
  /** A signed webhook called when a handoff starts and ends (to open a ticket in a helpdesk). */
  webhook?: HandoffWebhookOptions;
  /**
   * Where the webhook's events wait for delivery. Default: the session store's own outbox
   * (`sessionStore.handoffOutbox()`: SQLite, PostgreSQL and memory have one), written in the commit of
   * each transition; given here (or with a store without one), the server adds the events right
   * after the commit. Without a webhook nothing is kept.
   */
  outbox?: HandoffOutbox;
  /** How often a live stream re-reads its session even without news from the bus. Default 10 000 ms. */
  streamPollMs?: number;
  /**
   * The teams, by queue name (the handoff's `queue` is its team): assignment policy, the most
   * conversations per operator, business hours (docs/handoff.md). A queue not listed is manual and
   * always open.
   */
  teams?: Record<string, TeamOptions>;
  /** The most open conversations one operator holds before assignment passes them over (a team's own wins). Default unlimited. */
  maxConcurrent?: number;
  /**
   * Where operators' presence and the round robins live. Default: in memory (one process);
   * `openSqlite(...).operatorRouting` or `PostgresOperatorRouting` across processes.
   */
  routing?: OperatorRouting;
  /**
   * Where the canned responses live. Default: in memory (one process); `openSqlite(...).cannedResponses`
   * or `PostgresCannedResponses` keep them.
   */
  cannedResponses?: CannedResponses;
  /**
   * Where the users' ratings (CSAT) of conversations with people live. Default: in memory (one
   * process); `openSqlite(...).satisfaction` keeps them.
   */
  satisfaction?: SatisfactionRatings;
  /**
   * Where users' callback requests left out of hours live. Default: in memory (one process);
   * `openSqlite(...).callbacks` or `PostgresCallbackRequests` keep them.
   */
  callbacks?: CallbackRequests;
  /** An e-mail (SMTP) and/or a webhook event when a conversation waits unclaimed longer than `afterMs` (docs/handoff.md). */
  escalation?: EscalationOptions;
}

/** An operator as the engine records it: id and the name users see. */
function ref(operator: OperatorIdentity): OperatorRef {
  return { id: operator.id, name: operator.name };
}

function entryOf(sessionId: string, state: HandoffState, previous: QueueEntry | null): QueueEntry {
  return {
    sessionId,
    status: state.operator ? 'claimed' : 'waiting',
    queue: state.queue,
    reason: state.reason,
    summary: state.summary,
    since: state.since,
    operator: state.operator,
    claimedAt: state.claimedAt,
    lastUserMessageAt: previous?.since === state.since ? previous.lastUserMessageAt : null,
    closedAt: null,
    outcome: null,
    notes: [],
  };
}

/**
 * What the server does around the engine's handoff: keeps the queue in step after turns and operator
 * actions, tells every process (the bus), audits operator actions, calls the webhook, and counts.
 */
export class HandoffService {
  readonly queue: HandoffQueue;
  readonly bus: EventBus;
  readonly webhook: HandoffWebhook | null;
  readonly metrics: HandoffMetrics;
  readonly streamPollMs: number;
  /** Teams, presence and assignment. */
  readonly router: HandoffRouter;
  /** The canned responses operators insert with a `/shortcut`. */
  readonly canned: CannedResponses;
  /** The users' ratings of conversations with people. */
  readonly satisfaction: SatisfactionRatings;
  /** Users' callback requests left out of hours. */
  readonly callbacks: CallbackRequests;
  /** The escalation of long waits, when configured. */
  readonly escalation: Escalation | null;
  readonly #agent: TreeAgent;
  readonly #auth: OperatorAuth;
  readonly #logger: ServerLogger;
  /** The webhook's outbox (or the store's, without a webhook): forgetting a session empties its part. */
  readonly #outbox: HandoffOutbox | null;
  /** True when the outbox is not written by the session store's commits: the server adds the events. */
  #addsEvents = false;
  readonly #actionListeners: ((sessionId: string, update: HandoffUpdate) => Promise<void>)[] = [];
  readonly #typingListeners: ((sessionId: string) => void)[] = [];

  constructor(init: {
    agent: TreeAgent;
    options: HandoffOptions | undefined;
    registry: MetricsRegistry;
    auth: OperatorAuth;
    logger: ServerLogger;
  }) {
    const options = init.options ?? {};
    this.#agent = init.agent;
    this.#auth = init.auth;
    this.#logger = init.logger;
    this.queue = options.queue ?? new InMemoryHandoffQueue();
    this.bus = options.bus ?? new InMemoryEventBus();
    this.metrics = new HandoffMetrics(init.registry);
    // The store's outbox takes the events in the transition's own commit; another outbox gets them from us.
    const storeOutbox = options.outbox ? null : (init.agent.sessionStore.handoffOutbox?.() ?? null);
    if (options.webhook) {
      this.#addsEvents = storeOutbox === null;
      const outbox = options.outbox ?? storeOutbox ?? new InMemoryHandoffOutbox();
      this.#outbox = outbox;
      this.webhook = new HandoffWebhook(options.webhook, outbox, init.logger, this.metrics);
      this.webhook.start();
    } else {
      // No delivery now, but deliveries an earlier configuration left in the store still belong to their sessions.
      this.#outbox = options.outbox ?? storeOutbox;
      this.webhook = null;
    }
    this.streamPollMs = options.streamPollMs ?? 10_000;
    checkTeams(options.teams ?? {});
    this.router = new HandoffRouter({
      routing: options.routing ?? new InMemoryOperatorRouting(),
      teams: options.teams ?? {},
      maxConcurrent: options.maxConcurrent,
      handoffs: this,
      logger: init.logger,
    });
    this.canned = options.cannedResponses ?? new InMemoryCannedResponses();
    this.satisfaction = options.satisfaction ?? new InMemorySatisfactionRatings();
    this.callbacks = options.callbacks ?? new InMemoryCallbackRequests();
    const webhook = this.webhook;
    // Escalations are no transition of the session: the outbox gets them here (idempotent by id).
    const escalate = webhook
      ? async (event: HandoffEvent) => {
          await webhook.outbox.add([event], new Date());
          webhook.poke();
        }
      : null;
    this.escalation = options.escalation
      ? new Escalation(options.escalation, this.queue, init.logger, escalate)
      : null;
    this.escalation?.start();
  }

  /**
   * Forgets a deleted or expired session: its queue entry goes, with the last messages, the agent's
   * summary and the operators' notes it holds, and the webhook's deliveries about it, pending or dead,
   * so nothing of it is sent or retried afterwards (the retention of conversation data, docs/privacy.md).
   */
  async forget(sessionId: string): Promise<void> {
    await this.queue.delete(sessionId);
    await this.satisfaction.forget(sessionId);
    await this.callbacks.deleteSessions([sessionId]);
    await this.#outbox?.deleteSessions([sessionId]);
  }

  /** The outbox holding the handoff webhook's deliveries: the webhook's, or without one the store's (deliveries an earlier configuration left). */
  get outbox(): HandoffOutbox | null {
    return this.#outbox;
  }

  /** Follows a user's turn: when it touched a handoff, the queue, the bus, the webhook and the metrics follow. */
  observeTurn(sessionId: string): TurnObserver {
    let output: AgentOutput | null = null;
    return {
      event: (event: AgentEvent) => {
        if (event.type === 'turn-end') output = event.output;
      },
      end: () => {
        if (output) void this.afterTurn(sessionId, output);
      },
    };
  }

  /** Brings the queue in step with a committed turn. Failures are logged (the next turn or an operator's view repairs the entry). */
  async afterTurn(sessionId: string, output: AgentOutput): Promise<void> {
    const transitions = output.trace.flatMap((event) => (event.type === 'handoff' ? [event.transition] : []));
    if (!transitions.length) return;
    try {
      const previous = await this.queue.get(sessionId);
      for (const transition of transitions) {
        if (transition.type === 'start') {
          this.metrics.recordStart(transition.queue);
          const since = output.handoff?.since ?? new Date().toISOString();
          await this.#addEvent({
            id: handoffEventId(sessionId, since, 'handoff.started'),
            type: 'handoff.started',
            at: since,
            sessionId,
            queue: transition.queue,
            reason: transition.reason,
            summary: output.handoff?.summary ?? null,
          });
        } else if (transition.type === 'end' && previous) {
          await this.#close(previous, transition.outcome, null);
        }
      }
      if (output.handoff) {
        const entry = entryOf(sessionId, output.handoff, previous);
        if (transitions.some((transition) => transition.type === 'held'))
          entry.lastUserMessageAt = new Date().toISOString();
        await this.queue.put(entry);
      }
      await this.#announce(sessionId);
    } catch (error) {
      this.#logger.error(`Updating the handoff queue after a turn of session ${sessionId} failed`, error);
      return;
    }
    // A conversation that just reached a team: out of hours the team says so, else it may be assigned.
    const started = transitions.findLast((transition) => transition.type === 'start');
    if (started && output.handoff && !output.handoff.operator)
      await this.router.arrived(sessionId, output.handoff.queue);
  }

  /**
   * An operator's action: checked against the session (a session not handed off, or claimed by
   * someone else, is refused before anything is written), audited, done by the engine (serialised
   * and atomic), then the queue, the bus, the webhook and the metrics follow.
   */
  async act(
    operator: OperatorIdentity,
    sessionId: string,
    action: HandoffAction,
    audit: { action: string; detail?: Record<string, AuditValue> },
  ): Promise<HandoffUpdate> {
    const record = await this.#agent.inspectSession(sessionId);
    const state = record?.handoff ?? null;
    if (!state) {
      await this.sync(sessionId);
      throw new TreeAgentError(
        'HANDOFF',
        `Session "${sessionId}" is not with people (it was never handed off, or the agent has it again).`,
        {
          details: { sessionId, state: 'not-handed-off' },
        },
      );
    }
    const holder = state.operator;
    const mine = holder === null || holder.id === operator.id;
    const takesOver = 'takeOver' in action && action.takeOver === true;
    if (!mine && !takesOver) {
      throw new TreeAgentError(
        'HANDOFF',
        `Session "${sessionId}" is claimed by ${holder!.name}; only they can do this, unless an admin takes it over.`,
        { details: { sessionId, state: 'claimed', operatorId: holder!.id } },
      );
    }
    if (action.type === 'reply' && holder === null) {
      throw new TreeAgentError('HANDOFF', `Claim session "${sessionId}" before writing to its user.`, {
        details: { sessionId, state: 'not-claimed' },
      });
    }
    await this.#auth.audit(operator, audit.action, {
      sessionId,
      detail: { queue: state.queue, ...audit.detail },
    });
    let update: HandoffUpdate;
    try {
      update = await this.#agent.handoffAction(sessionId, action);
    } catch (error) {
      // Audited before it ran: say that it did not happen.
      const code = TreeAgentError.isInstance(error) ? error.code : 'INTERNAL';
      await this.#auth
        .audit(operator, `${audit.action}-refused`, { sessionId, detail: { code } })
        .catch(() => {});
      throw error;
    }
    if (update.entries.length === 0) return update;
    for (const listener of this.#actionListeners) await listener(sessionId, update);
    try {
      const previous = await this.queue.get(sessionId);
      if (update.handoff) {
        if (action.type === 'claim' && !state.operator && !previous?.claimedAt)
          this.metrics.recordFirstClaim(state.queue, state.since);
        await this.queue.put(entryOf(sessionId, update.handoff, previous));
      } else if (action.type === 'end') {
        await this.#close(previous ?? entryOf(sessionId, state, null), action.outcome, ref(operator));
      }
      await this.#announce(sessionId);
    } catch (error) {
      this.#logger.error(
        `Updating the handoff queue after an operator action on session ${sessionId} failed`,
        error,
      );
    }
    return update;
  }

  /** Follows every operator action that changed a session (a messaging channel sends what the user should see). */
  onAction(listener: (sessionId: string, update: HandoffUpdate) => Promise<void>): void {
    this.#actionListeners.push(listener);
  }

  /** Tells the user's stream that an operator is typing (never stored). */
  async typing(operator: OperatorIdentity, sessionId: string, typing: boolean): Promise<void> {
    await this.bus.publish({ kind: 'typing', sessionId, operator: ref(operator), typing });
    if (typing) for (const listener of this.#typingListeners) listener(sessionId);
  }

  /** Calls `listener` in this process when an operator starts typing to a session (a messaging channel shows it). */
  onTyping(listener: (sessionId: string) => void): void {
    this.#typingListeners.push(listener);
  }

  /**
   * Tells the operators' streams that the session's user is typing (never stored). Only while people
   * have the session; resolves to whether it was passed on.
   */
  async userTyping(sessionId: string, typing: boolean): Promise<boolean> {
    const record = await this.#agent.inspectSession(sessionId);
    if (!record?.handoff) return false;
    await this.bus.publish({ kind: 'user-typing', sessionId, typing });
    return true;
  }

  /** Repairs a session's queue entry from its record (the truth); returns the entry. */
  async sync(sessionId: string): Promise<QueueEntry | null> {
    // The entry first, then the record: the record is then at least as new as the state the entry
    // was written from (actions commit the record before the entry), so a repair never writes back
    // an older state over a newer entry.
    const entry = await this.queue.get(sessionId);
    const record = await this.#agent.inspectSession(sessionId);
    const state = record?.handoff ?? null;
    if (state) {
      const fresh = entryOf(sessionId, state, entry);
      if (
        !entry ||
        entry.status !== fresh.status ||
        entry.operator?.id !== fresh.operator?.id ||
        entry.since !== fresh.since
      ) {
        await this.queue.put(fresh);
        await this.bus.publish({ kind: 'queue' });
        return { ...fresh, notes: entry?.notes ?? [] };
      }
      return entry;
    }
    if (entry && entry.status !== 'closed') {
      const closed: QueueEntry = {
        ...entry,
        status: 'closed',
        closedAt: new Date().toISOString(),
        outcome: entry.outcome ?? 'handed-back',
      };
      await this.queue.put(closed);
      await this.bus.publish({ kind: 'queue' });
      return closed;
    }
    return entry;
  }

  /** Refreshes the queue gauges from the shared queue (before a scrape). */
  async refreshMetrics(): Promise<void> {
    try {
      // A store without tallyOpen is counted from the 1,000 oldest open entries it lists.
      this.metrics.setQueue(
        this.queue.tallyOpen
          ? await this.queue.tallyOpen()
          : tallyOpenEntries(await this.queue.list({ status: 'open', limit: 1000 })),
      );
      this.metrics.setOutbox(this.webhook ? await this.webhook.outbox.counts() : null);
    } catch (error) {
      this.#logger.error('Reading the handoff queue for the metrics failed', error);
    }
  }

  async #close(
    entry: QueueEntry,
    outcome: QueueEntry['outcome'] & string,
    operator: OperatorRef | null,
  ): Promise<void> {
    const closedAt = new Date().toISOString();
    await this.queue.put({
      ...entry,
      status: 'closed',
      closedAt,
      outcome,
      ...(operator ? { operator } : {}),
    });
    this.metrics.recordEnd(entry.queue, outcome);
    await this.#addEvent({
      id: handoffEventId(entry.sessionId, entry.since, 'handoff.ended'),
      type: 'handoff.ended',
      at: closedAt,
      sessionId: entry.sessionId,
      queue: entry.queue,
      reason: entry.reason,
      summary: entry.summary,
      outcome,
      operator,
    });
  }

  /**
   * A handoff event for the webhook: the store's commit already put it in the outbox (then the loop
   * is only woken), or it is added now (an outbox given in the options, or a store without one).
   */
  async #addEvent(event: HandoffEvent): Promise<void> {
    if (!this.webhook) return;
    try {
      if (this.#addsEvents) await this.webhook.outbox.add([event], new Date());
    } finally {
      this.webhook.poke();
    }
  }

  async #announce(sessionId: string): Promise<void> {
    await this.bus.publish({ kind: 'session', sessionId });
    await this.bus.publish({ kind: 'queue' });
  }
}
