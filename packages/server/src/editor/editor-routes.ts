import type { AuditValue } from '@treeagent/core/adapter';
import type { TreeDocument } from '@treeagent/core/document';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { EditorProblem } from '../api-types.js';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { characterCount } from '../http/character-count.js';
import { clientAddress } from '../http/client-address.js';
import { endStreamWith } from '../http/event-streams.js';
import { readJson } from '../http/read-json.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { TreeEditorService } from './tree-editor-service.js';
import { TreeEditConflict } from './tree-editor-source.js';

// The document's shape is checked by the tree schema (validateTreeDocument), which names the node.
const Document = z.looseObject({ nodes: z.array(z.unknown()) });
const DocumentBody = z.strictObject({ document: Document });
const RouteBody = z.strictObject({ document: Document, text: z.string().min(1) });
const AmbiguityBody = z.strictObject({ document: Document, nodeId: z.number().int() });
const SaveBody = z.strictObject({
  document: Document,
  baseVersion: z.string().min(1).max(200),
  force: z.boolean().optional(),
});

/** A comment on the event stream this often keeps proxies from closing it, in milliseconds. */
const EVENTS_HEARTBEAT_MS = 15_000;

/** 422 `INVALID_TREE`: the draft does not build; every problem is in `details.problems`. */
function invalidTree(problems: EditorProblem[]): ApiError {
  const first = problems[0];
  return new ApiError(
    422,
    'INVALID_TREE',
    `The tree has ${problems.length} problem${problems.length === 1 ? '' : 's'}${first ? `, the first: ${first.nodeId === undefined ? '' : `node ${first.nodeId}: `}${first.message} Fix: ${first.fix}` : ''}`,
    { details: { problems } },
  );
}

/**
 * The tree editor under `/api/v1/editor` (only with the `editor` option; `createApp` guards it: an
 * admin login when operators are configured, else debug mode, as `treeagent dev` runs):
 * `GET /` the file, its version and the module's callbacks; `GET /version` the version on disk;
 * `GET /events` that version as server-sent events (`version`), now and whenever the file changes;
 * `POST /check`, `/route`, `/ambiguity`, `/suggestions` on a draft `{ document }`; `PUT /` saves
 * `{ document, baseVersion, force? }` (409 `EDIT_CONFLICT` when the file changed, 422 `INVALID_TREE`
 * when the draft does not build: nothing is written).
 */
export function editorRoutes(services: Services, editor: TreeEditorService): Hono {
  const routes = new Hono();
  const noStore = { 'Cache-Control': 'no-store' };

  routes.get('/', async (c) => c.json(await editor.state(), 200, noStore));
  routes.get('/version', async (c) => c.json({ version: await editor.version() }, 200, noStore));

  // The file's version now and at every change on disk, while the page is open: the page offers to
  // reload when it is not the version its draft started from.
  routes.get('/events', (c) => {
    const operator = c.get('operator');
    const open = services.streams.open(
      {
        address: clientAddress(c),
        ...(operator ? { operator: { id: operator.id, login: services.operatorAuth.loginOf(c) ?? '' } } : {}),
      },
      operator ? services.operatorAuth.stillLoggedIn(c, 'admin') : undefined,
    );
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let closed = false;
      let wake: () => void = () => undefined;
      const pending: string[] = [];
      const unsubscribe = editor.versions.subscribe((version) => {
        pending.push(version);
        wake();
      });
      stream.onAbort(() => {
        closed = true;
        wake();
      });
      endStreamWith(stream, open, () => {
        closed = true;
        wake();
      });
      try {
        pending.push(await editor.version());
        while (!closed) {
          while (pending.length && !closed) {
            const version = pending.shift()!;
            open.touch();
            await stream.writeSSE({ event: 'version', data: JSON.stringify({ version }) });
          }
          if (closed) break;
          const woken = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), EVENTS_HEARTBEAT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          if (!woken && !closed) await stream.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe();
        open.release();
      }
    });
  });

  // Checks and saves are audited before they run: building a draft imports its callback module.
  const audit = async (c: Context, action: string, detail: Record<string, AuditValue>) => {
    if (services.operatorAuth.configured)
      await services.operatorAuth.audit(operatorOf(c), action, { detail });
  };
  const draftDetail = (document: z.infer<typeof Document>) => ({
    nodes: document.nodes.length,
    module: typeof document.module === 'string' ? document.module.slice(0, 300) : null,
  });

  routes.post('/check', async (c) => {
    const { document } = await readJson(c, DocumentBody);
    await audit(c, 'tree.check', draftDetail(document));
    return c.json(await editor.check(document as unknown as TreeDocument));
  });

  routes.post('/route', async (c) => {
    const { document, text } = await readJson(c, RouteBody);
    if (characterCount(text) > services.limits.maxMessageLength)
      throw invalidRequest(`The text is longer than ${services.limits.maxMessageLength} characters.`);
    const result = await editor.route(document as unknown as TreeDocument, text);
    if (Array.isArray(result)) throw invalidTree(result);
    return c.json(result);
  });

  routes.post('/ambiguity', async (c) => {
    const { document, nodeId } = await readJson(c, AmbiguityBody);
    const result = await editor.ambiguity(document as unknown as TreeDocument, nodeId);
    if (Array.isArray(result)) throw invalidTree(result);
    return c.json(result);
  });

  routes.post('/suggestions', async (c) => {
    const { document } = await readJson(c, DocumentBody);
    const result = await editor.suggestions(document as unknown as TreeDocument);
    if (Array.isArray(result)) throw invalidTree(result);
    return c.json(result);
  });

  routes.put('/', async (c) => {
    const { document, baseVersion, force } = await readJson(c, SaveBody);
    await audit(c, 'tree.save', { ...draftDetail(document), force: force ?? false });
    let result: Awaited<ReturnType<TreeEditorService['save']>>;
    try {
      const operator = c.get('operator');
      // Who saved: the version the save records names them (docs/versions.md).
      const author = operator ? `${operator.role}:${operator.id}` : 'editor';
      result = await editor.save(document as unknown as TreeDocument, baseVersion, force ?? false, author);
    } catch (error) {
      if (TreeEditConflict.isInstance(error)) {
        await audit(c, 'tree.save-refused', { code: 'EDIT_CONFLICT' });
        throw new ApiError(409, 'EDIT_CONFLICT', error.message, { details: { version: error.version } });
      }
      throw error;
    }
    if (Array.isArray(result)) {
      await audit(c, 'tree.save-refused', { code: 'INVALID_TREE', problems: result.length });
      throw invalidTree(result);
    }
    await audit(c, 'tree.saved', { version: result.version, nodes: document.nodes.length });
    return c.json(result);
  });

  return routes;
}
