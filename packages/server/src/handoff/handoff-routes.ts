import type { AnalyticsStore } from '@treeagent/core/adapter';
import type { StoredTurnFact } from '@treeagent/core/analytics';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { HandoffDetail, UploadedFile } from '../api-types.js';
import { channelOfSession } from '../channels/channel-of-session.js';
import { ApiError, invalidRequest, notFound } from '../errors/api-error.js';
import { serveSessionFile, uploadAllowance } from '../files/file-routes.js';
import { receiveUpload } from '../files/receive-upload.js';
import { FileId, resolveAttachments } from '../files/session-files.js';
import { readJson } from '../http/read-json.js';
import { storedSessionId } from '../http/stored-session-id.js';
import type { OperatorIdentity } from '../operators/operator-accounts.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import { requireVisibleHandoff } from './handoff-queue-routes.js';
import { summaryOf } from './handoff-summary.js';

const ClaimBody = z.strictObject({ takeOver: z.boolean().optional() });
const MessageBody = z
  .strictObject({
    content: z.string().max(10_000),
    options: z.array(z.string().trim().min(1).max(200)).max(10).optional(),
    attachments: z.array(FileId).max(10).optional(),
  })
  .refine((body) => body.content.trim() !== '' || (body.attachments?.length ?? 0) > 0, {
    message: 'the message is empty: write some text or attach a file',
    path: ['content'],
  });
const NoteBody = z.strictObject({ text: z.string().trim().min(1).max(5000) });
const TypingBody = z.strictObject({ typing: z.boolean() });
const HandBackBody = z.strictObject({
  nodeTarget: z.number().int().optional(),
  step: z.enum(['explore', 'before']).optional(),
  resume: z.boolean().optional(),
});
const CloseBody = z.strictObject({ takeOver: z.boolean().optional() });

/**
 * One handed-off session, under `/api/v1/operator/handoffs/:id` (operators; every action audited):
 * `GET /:id` (transcript, state, notes, turn facts), `POST /:id/` `claim` · `release` · `messages` ·
 * `files` · `typing` · `notes` · `hand-back` · `close`, and `GET /:id/files/:fileId`. A session of a
 * team the operator is not in (and that they do not hold) is 404 on every one, as one never handed
 * off: it does not say it exists (`handoffVisibleTo`).
 */
export function handoffRoutes(services: Services, analytics?: AnalyticsStore): Hono {
  const routes = new Hono();
  const { handoffs, agent, operatorAuth } = services;
  // The per-turn debug view: the turn facts the session store keeps (docs/analytics.md), if any.
  const turnFacts = async (sessionId: string): Promise<StoredTurnFact[] | null> => {
    const store =
      analytics ?? (agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.() ?? null;
    return store ? store.turns(sessionId) : null;
  };

  const sessionIdOf = (raw: string) => storedSessionId(raw, 'handed-off session');
  // What only the operator holding a handed-off session does to its user (send files, show "… is
  // typing"): not before the handoff (404), not while it waits or another holds it (409), admins too.
  const requireHolder = async (sessionId: string, operator: OperatorIdentity, doing: string) => {
    const record = await agent.inspectSession(sessionId);
    if (!record?.handoff)
      throw notFound(
        `Session "${sessionId}" is not with people: claim a handed-off session before ${doing} its user.`,
      );
    if (record.handoff.operator?.id !== operator.id)
      throw new ApiError(409, 'HANDOFF', `Claim the session before ${doing} its user.`);
  };

  // Another team's session is not found (read or act), whatever the route does next.
  const teamGuard: MiddlewareHandler = async (c, next) => {
    await requireVisibleHandoff(services, operatorOf(c), sessionIdOf(c.req.param('id')!));
    await next();
  };
  // `/:id/*` matches `/:id` too.
  routes.use('/:id/*', teamGuard);

  routes.get('/:id', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const entry = await handoffs.sync(sessionId);
    if (!entry) throw notFound(`Session "${sessionId}" was never handed to people.`);
    const [history, record, facts] = await Promise.all([
      agent.history(sessionId),
      agent.inspectSession(sessionId),
      turnFacts(sessionId),
    ]);
    const detail: HandoffDetail = {
      handoff: summaryOf(entry, history, Date.now(), await channelOfSession(agent, sessionId)),
      state: record?.handoff ?? null,
      history,
      notes: entry.notes,
      session: record
        ? {
            turn: record.turn,
            state: record.state,
            lastNodeId: record.lastNodeId,
            failCounter: record.failCounter,
            files: record.files ?? [],
            updatedAt: record.updatedAt,
          }
        : null,
      facts,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(detail);
  });

  routes.post('/:id/claim', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, ClaimBody);
    const operator = operatorOf(c);
    if (body.takeOver && operator.role !== 'admin') {
      throw new ApiError(
        403,
        'FORBIDDEN',
        'Only admins take a session over from another operator; ask them to release it.',
      );
    }
    const update = await handoffs.act(
      operator,
      sessionId,
      { type: 'claim', operator: { id: operator.id, name: operator.name }, takeOver: body.takeOver ?? false },
      { action: body.takeOver ? 'handoff.take-over' : 'handoff.claim' },
    );
    return c.json({ handoff: update.handoff });
  });

  routes.post('/:id/release', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const operator = operatorOf(c);
    const update = await handoffs.act(
      operator,
      sessionId,
      { type: 'release', operator: { id: operator.id, name: operator.name } },
      { action: 'handoff.release' },
    );
    return c.json({ handoff: update.handoff });
  });

  routes.post('/:id/messages', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, MessageBody);
    const operator = operatorOf(c);
    const attachments = await resolveAttachments(agent.fileStore, sessionId, body.attachments);
    const update = await handoffs.act(
      operator,
      sessionId,
      {
        type: 'reply',
        operator: { id: operator.id, name: operator.name },
        reply: { content: body.content, options: body.options ?? [], attachments },
      },
      {
        action: 'handoff.reply',
        detail: {
          characters: body.content.length,
          options: body.options?.length ?? 0,
          files: attachments.length,
        },
      },
    );
    return c.json({ entries: update.entries }, 201);
  });

  routes.post('/:id/files', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const operator = operatorOf(c);
    await requireHolder(sessionId, operator, 'sending files to');
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw invalidRequest('Upload files as multipart/form-data with one field named "file".');
    }
    const metadata = await receiveUpload(
      c.req.raw,
      agent.fileStore,
      sessionId,
      await uploadAllowance(services, sessionId),
    );
    await operatorAuth.audit(operator, 'handoff.upload', {
      sessionId,
      detail: { bytes: metadata.size ?? null, mimeType: metadata.mimeType },
    });
    const uploaded: UploadedFile = {
      ...metadata,
      url: `/api/v1/operator/handoffs/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(metadata.id)}`,
    };
    return c.json(uploaded, 201);
  });

  routes.get('/:id/files/:fileId', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    if (!(await handoffs.queue.get(sessionId)))
      throw notFound(`Session "${sessionId}" was never handed to people.`);
    return serveSessionFile(c, services, sessionId);
  });

  routes.post('/:id/typing', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, TypingBody);
    const operator = operatorOf(c);
    await requireHolder(sessionId, operator, 'typing to');
    await handoffs.typing(operator, sessionId, body.typing);
    return c.body(null, 204);
  });

  routes.post('/:id/notes', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, NoteBody);
    const operator = operatorOf(c);
    if (!(await handoffs.queue.get(sessionId)))
      throw notFound(`Session "${sessionId}" was never handed to people.`);
    await operatorAuth.audit(operator, 'handoff.note', {
      sessionId,
      detail: { characters: body.text.length },
    });
    const note = {
      at: new Date().toISOString(),
      operator: { id: operator.id, name: operator.name },
      // Stored as the agent's redaction stores messages (docs/privacy.md).
      text: agent.redactor?.redactText(body.text) ?? body.text,
    };
    await handoffs.queue.addNote(sessionId, note);
    await handoffs.bus.publish({ kind: 'session', sessionId });
    return c.json({ note }, 201);
  });

  routes.post('/:id/hand-back', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, HandBackBody);
    const operator = operatorOf(c);
    if ((body.step !== undefined || body.resume !== undefined) && body.nodeTarget === undefined) {
      throw invalidRequest(
        'step and resume need a nodeTarget; without one the agent continues from its default.',
      );
    }
    const target =
      body.nodeTarget === undefined
        ? null
        : { nodeTarget: body.nodeTarget, step: body.step ?? 'explore', resume: body.resume ?? false };
    if (target) {
      const tree = agent.tree;
      const node = tree.has(target.nodeTarget) ? tree.node(target.nodeTarget) : null;
      if (!node || node.type === 'root' || (target.resume && node.type !== 'agent')) {
        throw invalidRequest(
          !node
            ? `Node ${target.nodeTarget} is not in the tree: pick a node of the tree view.`
            : node.type === 'root'
              ? 'The root cannot run: hand back to an agent or a node below it.'
              : `resume needs an agent node; node ${node.id} is a ${node.type} node.`,
        );
      }
    }
    const update = await handoffs.act(
      operator,
      sessionId,
      {
        type: 'end',
        operator: { id: operator.id, name: operator.name },
        outcome: 'handed-back',
        target,
        takeOver: operator.role === 'admin',
      },
      { action: 'handoff.hand-back', detail: { nodeTarget: target?.nodeTarget ?? null } },
    );
    return c.json({ handoff: update.handoff });
  });

  routes.post('/:id/close', async (c) => {
    const sessionId = sessionIdOf(c.req.param('id'));
    const body = await readJson(c, CloseBody);
    const operator = operatorOf(c);
    if (body.takeOver && operator.role !== 'admin') {
      throw new ApiError(403, 'FORBIDDEN', 'Only admins close a session another operator claimed.');
    }
    const update = await handoffs.act(
      operator,
      sessionId,
      {
        type: 'end',
        operator: { id: operator.id, name: operator.name },
        outcome: 'closed',
        takeOver: body.takeOver ?? false,
      },
      { action: 'handoff.close' },
    );
    return c.json({ handoff: update.handoff });
  });

  return routes;
}
