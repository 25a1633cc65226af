import type { AnalyticsStore } from '@treeagent/core/adapter';
import type { ReportFilter } from '@treeagent/core/analytics';
import { Hono } from 'hono';
import { z } from 'zod';
import type {
  ClusterActionResponse,
  ComparisonResponse,
  ConversationsResponse,
  TranscriptResponse,
  UnmatchedResponse,
} from '../api-types.js';
import { ApiError, invalidRequest, notFound } from '../errors/api-error.js';
import { QueryDay } from '../http/query-day.js';
import { readJson, validate } from '../http/read-json.js';
import { storedSessionId } from '../http/stored-session-id.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { AnalyticsOptions } from './analytics-options.js';
import { appendUtterances, planChunks, shownFile } from './tree-file-edits.js';
import { routingEffect, unmatchedClusters } from './unmatched-clusters.js';

const FilterQuery = z.strictObject({
  from: QueryDay.optional(),
  to: QueryDay.optional(),
  version: z.string().min(1).max(128).optional(),
  lowMargin: z.coerce.number().min(0).max(2).optional(),
});
const CompareQuery = FilterQuery.omit({ version: true }).extend({
  a: z.string().min(1).max(128),
  b: z.string().min(1).max(128),
});
const ConversationsQuery = FilterQuery.extend({
  text: z.string().max(200).optional(),
  nodeId: z.coerce.number().int().optional(),
  status: z.enum(['answered', 'no-match', 'fallback', 'error', 'handed-off']).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
const Messages = z.array(z.string().min(1).max(10_000)).min(1).max(500);
const ActionBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add-chunks'), nodeId: z.number().int(), messages: Messages }),
  z.strictObject({
    action: z.literal('add-utterances'),
    label: z.string().min(1).max(200),
    messages: Messages,
  }),
]);
const EffectBody = z.strictObject({ nodeId: z.number().int().nullable(), messages: Messages });
const LabelBody = z.strictObject({ label: z.string().min(1).max(200).nullable() });

const filterOf = (query: z.infer<typeof FilterQuery>): ReportFilter => ({
  ...(query.from ? { from: query.from } : {}),
  ...(query.to ? { to: query.to } : {}),
  ...(query.version ? { treeVersion: query.version } : {}),
  ...(query.lowMargin === undefined ? {} : { lowMargin: query.lowMargin }),
});

/**
 * `/api/v1/analytics/*` (docs/analytics.md), behind the operator login (`OperatorAuth.require`,
 * mounted by `createApp`; changes are audited): the report and the comparison of two versions, the unmatched clusters and their
 * actions, conversation review and labels.
 */
export function analyticsRoutes(services: Services, options: AnalyticsOptions): Hono {
  const routes = new Hono();
  const store = (): AnalyticsStore => {
    const found =
      options.store ?? (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.();
    if (!found) {
      throw new ApiError(
        501,
        'NOT_CONFIGURED',
        'Analytics needs a session store that keeps turn facts (SQLite or PostgreSQL), or analytics.store in the server options.',
      );
    }
    return found;
  };
  const similarity = options.clusterSimilarity ?? 0.6;
  const nodeName = (label: string) => {
    if (label === 'none') return label;
    for (const node of services.agent.tree.nodes.values()) if (node.name === label) return label;
    throw invalidRequest(
      `There is no node named "${label}" in the tree: a label is a node name, or "none" for a message nothing should answer.`,
    );
  };

  routes.get('/report', async (c) => {
    const query = validate(FilterQuery, c.req.query(), 'query');
    return c.json(await store().report(filterOf(query)));
  });

  routes.get('/compare', async (c) => {
    const { a, b, ...query } = validate(CompareQuery, c.req.query(), 'query');
    const filter = filterOf(query);
    const [first, second] = await Promise.all([
      store().report({ ...filter, treeVersion: a }),
      store().report({ ...filter, treeVersion: b }),
    ]);
    return c.json({ a: first, b: second } satisfies ComparisonResponse);
  });

  routes.get('/unmatched', async (c) => {
    const query = validate(FilterQuery, c.req.query(), 'query');
    const result = await unmatchedClusters(services.agent, store(), filterOf(query), similarity);
    const response: UnmatchedResponse = {
      ...result,
      actions: {
        // "Add as chunks" rewrites the served tree: offered to admins only.
        addChunks:
          options.treeFile && operatorOf(c).role === 'admin'
            ? options.treeFile.toLowerCase().endsWith('.json')
              ? 'json-tree'
              : 'chunks-file'
            : null,
        addUtterances: Boolean(options.utterancesFile),
      },
    };
    return c.json(response);
  });

  routes.post('/unmatched/effect', async (c) => {
    const { nodeId, messages } = await readJson(c, EffectBody);
    if (nodeId !== null && !services.agent.tree.has(nodeId))
      throw invalidRequest(`There is no node ${nodeId} in the tree.`);
    return c.json(await routingEffect(services.agent, messages, nodeId));
  });

  routes.post('/unmatched/actions', async (c) => {
    const body = await readJson(c, ActionBody);
    if (body.action === 'add-chunks') {
      if (!options.treeFile) {
        throw new ApiError(
          501,
          'NOT_CONFIGURED',
          'Adding chunks needs the tree file: start the server with analytics.treeFile (treeagent dev sets it).',
        );
      }
      const operator = operatorOf(c);
      if (operator.role !== 'admin')
        throw new ApiError(
          403,
          'FORBIDDEN',
          'Only admins add chunks: it rewrites the served tree. Ask an admin, or add the messages to the utterances.',
        );
      if (!services.agent.tree.has(body.nodeId))
        throw invalidRequest(`There is no node ${body.nodeId} in the tree.`);
      const edit = planChunks(options.treeFile, body.nodeId, body.messages);
      await services.operatorAuth.audit(operator, 'analytics.add-chunks', {
        detail: {
          nodeId: body.nodeId,
          file: edit.kind,
          messages: body.messages.length,
          added: edit.added.length,
        },
      });
      edit.write();
      if (edit.added.length) options.onTreeChange?.();
      const response: ClusterActionResponse = {
        action: body.action,
        file: shownFile(edit.file),
        added: edit.added.length,
        effect: await routingEffect(services.agent, body.messages, body.nodeId),
      };
      return c.json(response);
    }
    if (!options.utterancesFile) {
      throw new ApiError(
        501,
        'NOT_CONFIGURED',
        'Adding utterances needs the utterance set: start the server with analytics.utterancesFile (treeagent dev --utterances <file>).',
      );
    }
    const label = nodeName(body.label);
    await services.operatorAuth.audit(operatorOf(c), 'analytics.add-utterances', {
      detail: { label, messages: body.messages.length },
    });
    const added = appendUtterances(
      options.utterancesFile,
      body.messages.map((message) => [message, label] as const),
    );
    const target =
      label === 'none'
        ? null
        : [...services.agent.tree.nodes.values()].find((node) => node.name === label)!.id;
    const response: ClusterActionResponse = {
      action: body.action,
      file: shownFile(options.utterancesFile),
      added,
      effect: await routingEffect(services.agent, body.messages, target),
    };
    return c.json(response);
  });

  routes.get('/conversations', async (c) => {
    const { text, nodeId, status, limit, offset, ...query } = validate(
      ConversationsQuery,
      c.req.query(),
      'query',
    );
    const conversations = await store().conversations({
      ...filterOf(query),
      ...(text ? { text } : {}),
      ...(nodeId === undefined ? {} : { nodeId }),
      ...(status ? { status } : {}),
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
    });
    return c.json({ conversations } satisfies ConversationsResponse);
  });

  routes.get('/conversations/:id', async (c) => {
    const sessionId = storedSessionId(c.req.param('id'));
    const [history, facts] = await Promise.all([services.agent.history(sessionId), store().turns(sessionId)]);
    if (history.length === 0 && facts.length === 0)
      throw notFound(`There is no conversation "${sessionId}".`);
    return c.json({ sessionId, history, facts } satisfies TranscriptResponse);
  });

  routes.put('/conversations/:id/turns/:turn/label', async (c) => {
    // Checked before anything is read or audited: the id's form, the body, then that the turn exists
    // (an unknown session or turn is 404 with no audit entry).
    const sessionId = storedSessionId(c.req.param('id'));
    const turn = Number(c.req.param('turn'));
    if (!Number.isInteger(turn) || turn < 1) throw invalidRequest('The turn must be a whole number from 1.');
    const { label } = await readJson(c, LabelBody);
    const checked = label === null ? null : nodeName(label);
    const noTurn = () =>
      notFound(
        `There is no conversation "${sessionId}" with a turn ${turn}: pick one from GET /api/v1/analytics/conversations.`,
      );
    if (!(await store().turns(sessionId)).some((fact) => fact.turn === turn)) throw noTurn();
    await services.operatorAuth.audit(operatorOf(c), 'analytics.label', {
      sessionId,
      detail: { turn, label: checked },
    });
    if (!(await store().label(sessionId, turn, checked, new Date().toISOString()))) throw noTurn();
    return c.json({ sessionId, turn, label: checked });
  });

  routes.get('/labels', async (c) => {
    const labels = await store().labels();
    if (c.req.query('format') === 'tsv') {
      const tsv = labels
        .map((label) => `${label.message.replace(/\s+/g, ' ').trim()}\t${label.label}`)
        .join('\n');
      return c.body(tsv ? `${tsv}\n` : '', 200, {
        'Content-Type': 'text/tab-separated-values; charset=utf-8',
        'Content-Disposition': 'attachment; filename="labelled-utterances.tsv"',
      });
    }
    return c.json({ labels });
  });

  return routes;
}
