import { type QueueEntry, queueLimit, sortQueue } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { z } from 'zod';
import type { HandoffListResponse } from '../api-types.js';
import { channelOfSession } from '../channels/channel-of-session.js';
import { notFound } from '../errors/api-error.js';
import { validate } from '../http/read-json.js';
import type { OperatorIdentity } from '../operators/operator-accounts.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import { summaryOf } from './handoff-summary.js';

const ListQuery = z.strictObject({
  status: z.enum(['open', 'closed']).optional(),
  queue: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/**
 * Refuses `operator` a session of another team (`handoffVisibleTo`) as not found, for every route
 * that reads or acts on one handed-off session: the record is the truth while the session is with
 * people, the queue remembers it after.
 */
export async function requireVisibleHandoff(
  services: Pick<Services, 'handoffs' | 'agent'>,
  operator: OperatorIdentity,
  sessionId: string,
): Promise<void> {
  if (teamsOf(operator) === null) return;
  const [entry, record] = await Promise.all([
    services.handoffs.queue.get(sessionId),
    services.agent.inspectSession(sessionId),
  ]);
  const state = record?.handoff ?? null;
  const queue = state?.queue ?? entry?.queue;
  const holderId = (state ? state.operator?.id : entry?.operator?.id) ?? null;
  if (queue !== undefined && !handoffVisibleTo(operator, { queue, holderId }))
    throw notFound(`Session "${sessionId}" was never handed to people.`);
}

/** The most open handoffs the queue lists without a `limit` (the store's maximum). */
const OPEN_LIMIT = 1000;

/**
 * The teams whose handoffs `operator` works on, or `null` for every team: an admin, or an operator
 * without teams. A handoff's `queue` is its team; every handoff has one (`default` unless a node
 * names another), so an operator with teams does not see the `default` queue unless it is a team of
 * theirs.
 */
export function teamsOf(operator: OperatorIdentity): readonly string[] | null {
  return operator.role === 'admin' || !operator.teams?.length ? null : operator.teams;
}

/**
 * Whether `operator` may see and act on a handoff in `queue` held by `holderId`: one of their teams,
 * or one they hold (a colleague of another team passed it to them by name).
 */
export function handoffVisibleTo(
  operator: OperatorIdentity,
  handoff: { queue: string; holderId: string | null },
): boolean {
  const teams = teamsOf(operator);
  return teams === null || teams.includes(handoff.queue) || handoff.holderId === operator.id;
}

/**
 * The queue of the operator console, `GET /api/v1/operator/handoffs?status=&queue=&limit=` (operators):
 * the handed-off sessions, open ones by default (all of them up to 1000, oldest first; closed: the
 * 200 most recent), with the names of the open queues. An operator
 * with teams gets those of their teams and those they hold (`handoffVisibleTo`); an admin or an
 * operator without teams every team's.
 */
export function handoffQueueRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, agent } = services;
  const visibleTo = (operator: OperatorIdentity) => (entry: QueueEntry) =>
    handoffVisibleTo(operator, { queue: entry.queue, holderId: entry.operator?.id ?? null });

  /** The entries of `status` the operator sees: each team's own page, and those they hold in others. */
  const listFor = async (
    operator: OperatorIdentity,
    query: { status: 'open' | 'closed'; queue?: string; limit?: number },
  ): Promise<QueueEntry[]> => {
    const teams = teamsOf(operator);
    if (teams === null) return handoffs.queue.list(query);
    const mine = teams.filter((team) => query.queue === undefined || team === query.queue);
    const lists = await Promise.all([
      ...mine.map((team) => handoffs.queue.list({ ...query, queue: team })),
      // Those they hold in other teams: among the claimed ones (the open list's waiting ones would
      // crowd them out of its 1,000).
      handoffs.queue.list({
        ...query,
        status: query.status === 'open' ? 'claimed' : query.status,
        limit: 1000,
      }),
    ]);
    const held = lists.pop()!.filter(visibleTo(operator));
    const entries = new Map(lists.flat().map((entry) => [entry.sessionId, entry]));
    for (const entry of held) entries.set(entry.sessionId, entry);
    return sortQueue([...entries.values()], query.status).slice(0, queueLimit(query));
  };

  routes.get('/', async (c) => {
    const query = validate(ListQuery, c.req.query(), 'query');
    const operator = operatorOf(c);
    const status = query.status ?? 'open';
    // Every open conversation the store lists (the console alerts on the newest, and open is oldest
    // first): the store's default of 200 would leave them out.
    const limit = query.limit ?? (status === 'open' ? OPEN_LIMIT : undefined);
    const entries = await listFor(operator, { ...query, status, ...(limit ? { limit } : {}) });
    const now = Date.now();
    const list = await Promise.all(
      entries.map(async (entry) =>
        summaryOf(
          entry,
          await agent.history(entry.sessionId, { limit: 20 }),
          now,
          await channelOfSession(agent, entry.sessionId),
        ),
      ),
    );
    const open = status === 'closed' ? await listFor(operator, { status: 'open' }) : entries;
    const response: HandoffListResponse = {
      handoffs: list,
      queues: [...new Set(open.map((entry) => entry.queue))].sort(),
    };
    c.header('Cache-Control', 'no-store');
    return c.json(response);
  });

  return routes;
}
