import type {
  AuditValue,
  HandoffAction,
  HandoffQueue,
  HandoffUpdate,
  OperatorPresence,
  OperatorRouting,
  PresenceStatus,
} from '@treeagent/core/adapter';
import type { ServerLogger } from '../../errors/error-response.js';
import type { OperatorIdentity } from '../../operators/operator-accounts.js';
import { DEFAULT_OUT_OF_HOURS_MESSAGE, isOpenAt, type TeamOptions } from './team-options.js';

/** What the router needs of the handoff service: the queue, and operator actions (checked, audited, followed). */
export interface RoutedHandoffs {
  readonly queue: HandoffQueue;
  act(
    operator: OperatorIdentity,
    sessionId: string,
    action: HandoffAction,
    audit: { action: string; detail?: Record<string, AuditValue> },
  ): Promise<HandoffUpdate>;
}

/** What a routing decision did with a conversation. */
export type RouteResult =
  | { kind: 'assigned'; operatorId: string }
  | { kind: 'waiting'; why: 'manual' | 'no-operator' }
  | { kind: 'out-of-hours' };

/**
 * Routes handed-off conversations within their team (the handoff's `queue`): out of hours the user
 * is told so and the conversation waits (they leave a message); in hours a `round-robin` or
 * `least-busy` team assigns it at once to an online operator of the team who holds fewer than
 * `maxConcurrent` conversations; a `manual` team leaves it in the queue. Assignments are claims in
 * the operator's name, audited as `handoff.assign`.
 */
export class HandoffRouter {
  readonly routing: OperatorRouting;
  readonly #teams: Record<string, TeamOptions>;
  readonly #maxConcurrent: number | undefined;
  readonly #handoffs: RoutedHandoffs;
  readonly #logger: ServerLogger;
  readonly #now: () => Date;

  constructor(init: {
    routing: OperatorRouting;
    teams: Record<string, TeamOptions>;
    maxConcurrent: number | undefined;
    handoffs: RoutedHandoffs;
    logger: ServerLogger;
    now?: () => Date;
  }) {
    this.routing = init.routing;
    this.#teams = init.teams;
    this.#maxConcurrent = init.maxConcurrent;
    this.#handoffs = init.handoffs;
    this.#logger = init.logger;
    this.#now = init.now ?? (() => new Date());
  }

  /** The options of `team` (a team not configured is manual and always open). */
  /** The teams the configuration names (`helpDesk.teams`), whether or not anyone of them is online. */
  get configuredTeams(): string[] {
    return Object.keys(this.#teams);
  }

  team(team: string): TeamOptions {
    return this.#teams[team] ?? {};
  }

  /** Whether `team` answers now. */
  isOpen(team: string): boolean {
    const hours = this.team(team).hours;
    return !hours || isOpenAt(hours, this.#now());
  }

  /** Routes a conversation that just reached `team`'s queue (a handoff, a transfer). Never throws: failures are logged. */
  async arrived(sessionId: string, team: string): Promise<RouteResult> {
    try {
      if (!this.isOpen(team)) {
        await this.#tellOutOfHours(sessionId, team);
        return { kind: 'out-of-hours' };
      }
      return await this.#assign(sessionId, team);
    } catch (error) {
      this.#logger.error(
        `Routing session ${sessionId} in team "${team}" failed; it waits in the queue`,
        error,
      );
      return { kind: 'waiting', why: 'no-operator' };
    }
  }

  /** Sets an operator's presence; coming online assigns them the waiting conversations of their teams that fit. */
  async setPresence(operator: OperatorIdentity, status: PresenceStatus): Promise<OperatorPresence> {
    const presence: OperatorPresence = {
      operatorId: operator.id,
      name: operator.name,
      teams: operator.teams ?? [],
      status,
      at: this.#now(),
    };
    await this.routing.setPresence(presence);
    if (status === 'online') await this.assignWaiting(presence.teams);
    return presence;
  }

  /** Offers the waiting conversations (oldest first) of `teams` (none: every team) to the operators online. */
  async assignWaiting(teams: readonly string[]): Promise<void> {
    const waiting = (await this.#handoffs.queue.list({ status: 'waiting', limit: 1000 }))
      .filter((entry) => teams.length === 0 || teams.includes(entry.queue))
      .sort((a, b) => (a.since < b.since ? -1 : 1));
    for (const entry of waiting) {
      if (this.isOpen(entry.queue)) await this.#assign(entry.sessionId, entry.queue).catch(() => {});
    }
  }

  async #assign(sessionId: string, team: string): Promise<RouteResult> {
    const options = this.team(team);
    const policy = options.policy ?? 'manual';
    if (policy === 'manual') return { kind: 'waiting', why: 'manual' };
    // Each operator's load: the conversations they hold (waiting ones, however many, do not crowd them out).
    const claimed = await this.#handoffs.queue.list({ status: 'claimed', limit: 1000 });
    const load = new Map<string, number>();
    for (const entry of claimed) {
      if (entry.operator) load.set(entry.operator.id, (load.get(entry.operator.id) ?? 0) + 1);
    }
    const max = options.maxConcurrent ?? this.#maxConcurrent ?? Number.POSITIVE_INFINITY;
    const available = (await this.routing.presence()).filter(
      (presence) =>
        presence.status === 'online' &&
        (presence.teams.length === 0 || presence.teams.includes(team)) &&
        (load.get(presence.operatorId) ?? 0) < max,
    );
    if (available.length === 0) return { kind: 'waiting', why: 'no-operator' };
    const chosenId =
      policy === 'round-robin'
        ? await this.routing.nextInRotation(
            team,
            available.map((presence) => presence.operatorId),
          )
        : leastBusy(available, load);
    const chosen = available.find((presence) => presence.operatorId === chosenId);
    if (!chosen) return { kind: 'waiting', why: 'no-operator' };
    const operator = { id: chosen.operatorId, name: chosen.name };
    await this.#handoffs.act(
      { id: chosen.operatorId, name: chosen.name, role: 'operator' },
      sessionId,
      { type: 'claim', operator },
      { action: 'handoff.assign', detail: { policy, team } },
    );
    return { kind: 'assigned', operatorId: chosen.operatorId };
  }

  /** The team writes to the user that it is closed, as an operator would (joins, writes, leaves). */
  async #tellOutOfHours(sessionId: string, team: string): Promise<void> {
    const options = this.team(team);
    const teamOperator: OperatorIdentity = {
      id: `team.${team}`,
      name: options.name ?? `${team} team`,
      role: 'operator',
    };
    const ref = { id: teamOperator.id, name: teamOperator.name };
    const audit = { action: 'handoff.out-of-hours', detail: { team } };
    await this.#handoffs.act(teamOperator, sessionId, { type: 'claim', operator: ref }, audit);
    await this.#handoffs.act(
      teamOperator,
      sessionId,
      {
        type: 'reply',
        operator: ref,
        reply: { content: options.outOfHoursMessage ?? DEFAULT_OUT_OF_HOURS_MESSAGE },
      },
      audit,
    );
    await this.#handoffs.act(teamOperator, sessionId, { type: 'release', operator: ref }, audit);
  }
}

/** The operator holding the fewest open conversations (ties: by id). */
function leastBusy(available: OperatorPresence[], load: Map<string, number>): string {
  return [...available].sort(
    (a, b) =>
      (load.get(a.operatorId) ?? 0) - (load.get(b.operatorId) ?? 0) || (a.operatorId < b.operatorId ? -1 : 1),
  )[0]!.operatorId;
}
