import { TreeAgentError } from '@treeagent/core';
import {
  type AnalyticsStore,
  type EnvironmentChange,
  type EnvironmentExperiment,
  NO_GATE,
  promoteVariant,
  publishedFigures,
  rollbackTarget,
  type TreeVersion,
  variantFigures,
  versionDiff,
} from '@treeagent/core/adapter';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AnalyticsOptions } from '../analytics/analytics-options.js';
import type { ExperimentResponse } from '../api-types.js';
import { ApiError, invalidRequest, notFound } from '../errors/api-error.js';
import { readJson } from '../http/read-json.js';
import type { Services } from '../services.js';
import { decideVariants } from './decide-variants.js';
import { experimentConversations } from './experiment-conversations.js';
import type { VersionRoutesOptions } from './version-routes-options.js';

const DEFAULT_ENVIRONMENTS = ['draft', 'staging', 'production'];
const PublishBody = z.strictObject({
  environment: z.string().min(1).max(100),
  version: z.string().min(1).max(100),
  message: z.string().max(2000),
});
const PromoteBody = z.strictObject({
  version: z.string().min(1).max(100),
  message: z.string().max(2000),
});
const RollbackBody = z.strictObject({
  environment: z.string().min(1).max(100),
  message: z.string().max(2000).optional(),
});

/**
 * The tree's versions under `/api/v1/versions` (admin only; docs/versions.md): `GET /` the versions
 * newest first, `GET /diff?from=&to=` what changed between two, `GET /environments` each environment
 * with its version, gate, experiment and history, `POST /publish` `{ environment, version, message }`
 * (gated: `{ published: false, failures }` when refused, nothing moved), `POST /rollback`
 * `{ environment }` (refused, moving nothing, when the version it returns to cannot be loaded; it
 * ends a running experiment), `GET /experiments/:environment` the experiment's figures per variant
 * over its own conversations and the test's decision, `POST /experiments/:environment/promote`
 * `{ version, message }` the winner published and the experiment ended in one action (`treeagent
 * experiment --promote`). A publish is refused (409) while an experiment runs.
 */
export function versionRoutes(
  services: Services,
  options: VersionRoutesOptions,
  analytics: AnalyticsOptions = {},
): Hono {
  const { store, tree } = options;
  const environments = options.environments ?? DEFAULT_ENVIRONMENTS;
  const routes = new Hono();
  const noStore = { 'Cache-Control': 'no-store' };
  const authorOf = (c: Context) => {
    const operator = c.get('operator');
    // Without operator logins only the developer reaches these routes (dev's debug mode).
    return operator ? `${operator.role}:${operator.id}` : 'dev';
  };
  const checkEnvironment = (name: string) => {
    if (!environments.includes(name))
      throw invalidRequest(`There is no environment "${name}": use one of ${environments.join(', ')}.`);
  };
  const versionOf = async (id: string, field: string): Promise<TreeVersion> => {
    const version = await store.getVersion(tree, id);
    if (!version)
      throw invalidRequest(
        `The tree "${tree}" has no version "${id}" (${field}): pick one of GET /api/v1/versions.`,
      );
    return version;
  };

  routes.get('/', async (c) => {
    const versions = await store.listVersions(tree);
    return c.json({ tree, versions: versions.map(summary) }, 200, noStore);
  });

  routes.get('/diff', async (c) => {
    const from = c.req.query('from');
    const to = c.req.query('to');
    if (!from || !to) throw invalidRequest('Name the two versions to compare: ?from=<id>&to=<id>.');
    const [before, after] = [await versionOf(from, 'from'), await versionOf(to, 'to')];
    const lines = versionDiff(before.document, after.document);
    if (before.callbacksHash !== after.callbacksHash) lines.push('callbacks module changed');
    return c.json({ from: before.id, to: after.id, lines }, 200, noStore);
  });

  routes.get('/environments', async (c) => {
    const stored = new Map((await store.listEnvironments(tree)).map((env) => [env.name, env]));
    const list = [];
    for (const name of environments) {
      const env = stored.get(name);
      list.push({
        name,
        versionId: env?.versionId ?? null,
        gate: env?.gate ?? NO_GATE,
        experiment: env?.experiment
          ? { ...env.experiment, startedAt: env.experiment.startedAt.toISOString() }
          : null,
        history: (await store.history(tree, name)).map(change).reverse(),
      });
    }
    return c.json({ tree, environments: list }, 200, noStore);
  });

  routes.post('/publish', async (c) => {
    const body = await readJson(c, PublishBody);
    checkEnvironment(body.environment);
    const message = body.message.trim();
    if (!message) throw invalidRequest('Say why you publish: a message of what changed.');
    const version = await versionOf(body.version, 'version');
    const env = await store.getEnvironment(tree, body.environment);
    const alreadyServed = { published: false, alreadyServed: true, versionId: version.id, failures: [] };
    if (env?.versionId === version.id) return c.json(alreadyServed);
    if (env?.experiment) throw experimentRunning(body.environment, env.experiment);
    const outcome = await options.gate({
      version,
      environment: body.environment,
      gate: env?.gate ?? NO_GATE,
      previous: publishedFigures(await store.history(tree, body.environment)),
    });
    if (outcome.failures.length)
      return c.json({ published: false, versionId: version.id, failures: outcome.failures });
    // The gate takes seconds: the same publish (a double click) or an experiment may have come since.
    const now = await store.getEnvironment(tree, body.environment);
    if (now?.versionId === version.id) return c.json(alreadyServed);
    if (now?.experiment) throw experimentRunning(body.environment, now.experiment);
    await store.moveEnvironment(tree, {
      environment: body.environment,
      versionId: version.id,
      action: 'publish',
      author: authorOf(c),
      message,
      at: new Date(),
      figures: outcome.figures,
    });
    return c.json({ published: true, versionId: version.id, failures: [] });
  });

  routes.post('/rollback', async (c) => {
    const body = await readJson(c, RollbackBody);
    checkEnvironment(body.environment);
    const history = await store.history(tree, body.environment);
    const target = rollbackTarget(history);
    if (!target)
      throw new ApiError(
        409,
        'NOTHING_TO_ROLL_BACK',
        `${body.environment} has no earlier publish to return to: publish a version there first.`,
      );
    const version = await versionOf(target, 'rollback target');
    const unloadable = await options.unloadable?.(version);
    if (unloadable)
      throw new ApiError(
        409,
        'VERSION_NOT_LOADABLE',
        `${body.environment} cannot roll back to version ${target}: it cannot be loaded any more (${unloadable}). Nothing changed. Restore what it was saved with, or publish a version that loads.`,
      );
    const env = await store.getEnvironment(tree, body.environment);
    const from = env?.versionId ?? history.at(-1)!.versionId;
    // A rollback is the emergency exit: it wins over a running experiment, which it ends (said in its message).
    const experiment = env?.experiment ?? null;
    const message = body.message?.trim() || `rollback from ${from}`;
    await store.moveEnvironment(tree, {
      environment: body.environment,
      versionId: target,
      action: 'rollback',
      author: authorOf(c),
      message: experiment ? `${message} (ended the experiment "${experiment.name}")` : message,
      at: new Date(),
      figures: null,
    });
    if (experiment) await store.setExperiment(tree, body.environment, null);
    return c.json({
      rolledBack: true,
      from,
      versionId: target,
      ...(experiment ? { endedExperiment: experiment.name } : {}),
    });
  });

  routes.get('/experiments/:environment', async (c) => {
    const name = c.req.param('environment');
    checkEnvironment(name);
    const experiment = (await store.getEnvironment(tree, name))?.experiment;
    if (!experiment)
      throw notFound(
        `${name} runs no experiment: start one with treeagent experiment ${name} <tree> --split <version>=<percent>….`,
      );
    const facts = analyticsStore(services, analytics);
    // The users' CSAT ratings, each with the tree version that ran its session.
    const ratings = await services.handoffs.satisfaction.list();
    const variants = [];
    for (const variant of experiment.variants) {
      const version = await versionOf(variant.versionId, 'variant');
      const treeVersion = await options.treeVersionOf(version).catch((error: unknown) => {
        // Its sessions are served the environment's version instead: say so, and the way out.
        throw new ApiError(
          409,
          'VARIANT_NOT_LOADABLE',
          `The experiment "${experiment.name}" on ${name} has a variant that cannot be loaded any more, ${variant.versionId} (${error instanceof Error ? error.message : String(error)}): its new sessions get the environment's version instead. Stop the experiment (treeagent experiment ${name} <tree> --stop) or promote another variant, or restore what ${variant.versionId} was saved with.`,
        );
      });
      // The experiment's conversations: begun on this variant since its start (no 30-day cap; not
      // those begun before it).
      const { totals, sessionIds } = await experimentConversations(facts, {
        treeVersion,
        since: experiment.startedAt,
        from: version.createdAt.toISOString().slice(0, 10),
      });
      const rated = ratings.filter((rating) => sessionIds.has(rating.sessionId));
      const { treeVersion: _, ...figures } = variantFigures(treeVersion, totals, rated);
      variants.push({ versionId: variant.versionId, percent: variant.percent, ...figures });
    }
    const decision = decideVariants(variants);
    return c.json(
      {
        environment: name,
        name: experiment.name,
        startedAt: experiment.startedAt.toISOString(),
        variants,
        decision,
      } satisfies ExperimentResponse,
      200,
      noStore,
    );
  });

  routes.post('/experiments/:environment/promote', async (c) => {
    const name = c.req.param('environment');
    checkEnvironment(name);
    const body = await readJson(c, PromoteBody);
    try {
      const ended = await promoteVariant(store, {
        tree,
        environment: name,
        versionId: body.version,
        author: authorOf(c),
        message: body.message,
      });
      return c.json({ promoted: true, environment: name, versionId: body.version, experiment: ended.name });
    } catch (error) {
      if (TreeAgentError.hasCode(error, 'INVALID_INPUT')) throw invalidRequest(error.message);
      throw error;
    }
  });

  return routes;
}

/** A publish while an experiment runs would not reach new sessions: refused, naming the ways out. */
function experimentRunning(environment: string, experiment: EnvironmentExperiment): ApiError {
  return new ApiError(
    409,
    'EXPERIMENT_RUNNING',
    `${environment} runs the experiment "${experiment.name}" (${experiment.variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ')}): new sessions get its variants, not a publish. Promote a variant (POST /api/v1/versions/experiments/${environment}/promote), stop it (treeagent experiment ${environment} <tree> --stop), or roll back, then publish.`,
  );
}

function analyticsStore(services: Services, options: AnalyticsOptions): AnalyticsStore {
  const found =
    options.store ?? (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.();
  if (!found)
    throw new ApiError(
      501,
      'NOT_CONFIGURED',
      "An experiment's figures need a session store that keeps turn facts (SQLite or PostgreSQL), or analytics.store in the server options.",
    );
  return found;
}

function summary(version: TreeVersion) {
  return {
    id: version.id,
    createdAt: version.createdAt.toISOString(),
    author: version.author,
    message: version.message,
    parentId: version.parentId,
    diff: version.diff,
  };
}

function change(entry: EnvironmentChange) {
  return { ...entry, at: entry.at.toISOString() };
}
