import type { AnalyticsStore } from '@treeagent/core/adapter';
import { satisfactionBy } from '@treeagent/core/adapter';
import { resolveReportFilter } from '@treeagent/core/analytics';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, invalidRequest } from '../../errors/api-error.js';
import { QueryDay } from '../../http/query-day.js';
import { readJson, validate } from '../../http/read-json.js';
import type { Services } from '../../services.js';

const RatingBody = z.strictObject({
  rating: z
    .number()
    .int()
    .min(1, 'rating is 1 (very unsatisfied) to 5 (very satisfied)')
    .max(5, 'rating is 1 to 5'),
  comment: z.string().trim().max(2000, 'the comment is at most 2000 characters').optional(),
});

const ReportQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }).optional(),
  from: QueryDay.optional(),
  to: QueryDay.optional(),
  version: z.string().min(1).max(128).optional(),
});
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `POST /sessions/:id/satisfaction` `{ rating: 1–5, comment? }` (the session's token): the user's
 * rating of their conversation with people, once the operator handed it back or closed it (409
 * before, or when the session was never with people, or already rated). Kept with the operator,
 * the team and the tree version that ran the session (its last turn fact, else the current tree). With
 * redaction on, the comment is stored redacted.
 */
export function satisfactionRoutes(services: Services, analytics: AnalyticsStore | undefined): Hono {
  const routes = new Hono();
  routes.post('/:id/satisfaction', async (c) => {
    const sessionId = c.req.param('id');
    const body = await readJson(c, RatingBody);
    const entry = await services.handoffs.queue.get(sessionId);
    if (entry?.status !== 'closed')
      throw new ApiError(
        409,
        'NOT_RATEABLE',
        'This conversation cannot be rated now: ask for a rating after the operator hands it back or closes it.',
      );
    const facts = analytics ? await analytics.turns(sessionId).catch(() => []) : [];
    const treeVersion = facts.at(-1)?.treeVersion ?? services.agent.tree.contentHash;
    const added = await services.handoffs.satisfaction.add({
      sessionId,
      rating: body.rating as 1 | 2 | 3 | 4 | 5,
      // Redacted like the history before it is stored (docs/privacy.md): users write contacts here too.
      comment: body.comment ? (services.agent.redactor?.redactText(body.comment) ?? body.comment) : null,
      operatorId: entry.operator?.id ?? null,
      team: entry.queue,
      treeVersion,
      at: new Date(),
    });
    if (!added)
      throw new ApiError(409, 'ALREADY_RATED', 'This conversation has already been rated: one rating each.');
    return c.json({ rated: true }, 201);
  });
  return routes;
}

/**
 * `GET /analytics/satisfaction?from=&to=&version=` (operators): the users' ratings grouped by
 * operator (with the name colleagues see), team and tree version (`{ count, average, distribution }`
 * each), and the overall count and average. `from`/`to` are UTC days, both included, as the
 * report's (a range that ends before it starts is a 400); `version` keeps the ratings of sessions run
 * by that tree version; `since` (an ISO time) is the older form. Without any: every rating.
 */
export function satisfactionReportRoutes(services: Services): Hono {
  const routes = new Hono();
  routes.get('/satisfaction', async (c) => {
    const query = validate(ReportQuery, c.req.query(), 'query');
    if (query.since && (query.from || query.to))
      throw invalidRequest('Give either since (an ISO time) or from/to (days), not both.');
    const range = query.from || query.to ? resolveReportFilter({ from: query.from, to: query.to }) : null;
    const start = range
      ? new Date(`${range.from}T00:00:00Z`)
      : query.since
        ? new Date(query.since)
        : undefined;
    const end = range ? Date.parse(`${range.to}T00:00:00Z`) + DAY_MS : Number.POSITIVE_INFINITY;
    const ratings = (await services.handoffs.satisfaction.list(start)).filter(
      (rating) =>
        rating.at.getTime() < end && (query.version === undefined || rating.treeVersion === query.version),
    );
    const total = ratings.reduce((sum, rating) => sum + rating.rating, 0);
    c.header('Cache-Control', 'no-store');
    return c.json({
      count: ratings.length,
      average: ratings.length ? total / ratings.length : null,
      byOperator: await Promise.all(
        satisfactionBy(ratings, 'operatorId').map(async (group) => ({
          ...group,
          name: group.key ? await services.operatorAuth.nameOf(group.key) : null,
        })),
      ),
      byTeam: satisfactionBy(ratings, 'team'),
      byTreeVersion: satisfactionBy(ratings, 'treeVersion'),
      comments: ratings
        .filter((rating) => rating.comment)
        .slice(-20)
        .map((rating) => ({ rating: rating.rating, comment: rating.comment, at: rating.at.toISOString() })),
    });
  });
  return routes;
}
