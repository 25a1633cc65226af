import { createHash } from 'node:crypto';
import type { AuditValue } from '@treeagent/core/adapter';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { CallbackDiagnostic } from '../api-types.js';
import { ApiError } from '../errors/api-error.js';
import { readJson } from '../http/read-json.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { CallbacksModuleSource } from './callbacks-module-source.js';
import { TreeEditConflict } from './tree-editor-source.js';

/** A callbacks module larger than this is refused (a hand-written module is a few kB). */
const MAX_MODULE_CHARACTERS = 1_000_000;
const TextBody = z.strictObject({ text: z.string().max(MAX_MODULE_CHARACTERS) });
const SaveBody = z.strictObject({
  text: z.string().max(MAX_MODULE_CHARACTERS),
  baseVersion: z.string().min(1).max(200),
});

/** 422 `CALLBACK_TYPE_ERRORS`: the module does not type-check; every error is in `details.diagnostics`. */
function typeErrors(diagnostics: CallbackDiagnostic[]): ApiError {
  const first = diagnostics[0]!;
  return new ApiError(
    422,
    'CALLBACK_TYPE_ERRORS',
    `The callbacks module has ${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}, the first at ${first.file}:${first.line}:${first.column}: ${first.message} Fix them and save again; nothing was written.`,
    { details: { diagnostics } },
  );
}

/**
 * The editor's Callbacks panel under `/api/v1/editor/callbacks` (the editor's access: an admin, or
 * the developer in debug mode): `GET /` the module the tree file names (its text and version),
 * `GET /types` the files and options the browser's compiler checks it with, `GET /typescript.js` that
 * compiler, `POST /check` `{ text }` its type errors, `PUT /` `{ text, baseVersion }` saves it — type
 * errors are refused (422 `CALLBACK_TYPE_ERRORS`, with file, line, column and message) and a module
 * changed on disk too (409 `EDIT_CONFLICT`): nothing is written. The path is never the request's.
 */
export function callbacksRoutes(services: Services, source: CallbacksModuleSource | undefined): Hono {
  const routes = new Hono();
  const noStore = { 'Cache-Control': 'no-store' };
  const module = (): CallbacksModuleSource => {
    if (source) return source;
    throw new ApiError(
      404,
      'NOT_CONFIGURED',
      'This editor has no callbacks module to edit: the tree is not a JSON file naming one in "module" (treeagent dev on a JSON tree provides it).',
    );
  };
  const audit = async (c: Context, action: string, detail: Record<string, AuditValue>) => {
    if (services.operatorAuth.configured)
      await services.operatorAuth.audit(operatorOf(c), action, { detail });
  };

  routes.get('/', async (c) => c.json(await module().read(), 200, noStore));
  routes.get('/types', async (c) => c.json(await module().environment(), 200, noStore));
  // The compiler (megabytes) is revalidated, not downloaded again: its ETag is a hash of its text.
  let tagged: { script: string; tag: string } | null = null;
  routes.get('/typescript.js', async (c) => {
    const script = await module().compilerScript();
    if (tagged?.script !== script)
      tagged = { script, tag: `"${createHash('sha256').update(script).digest('hex').slice(0, 32)}"` };
    const headers = {
      'Cache-Control': 'private, no-cache',
      ETag: tagged.tag,
      'Content-Type': 'text/javascript; charset=utf-8',
    };
    if (c.req.header('If-None-Match') === tagged.tag) return c.body(null, 304, headers);
    return c.body(script, 200, headers);
  });
  routes.post('/check', async (c) => {
    const { text } = await readJson(c, TextBody);
    return c.json({ diagnostics: await module().check(text) });
  });
  routes.put('/', async (c) => {
    const { text, baseVersion } = await readJson(c, SaveBody);
    const callbacks = module();
    await audit(c, 'callbacks.save', { characters: text.length });
    // The server checks too: a page that skipped its own check (or another client) cannot save errors.
    const diagnostics = await callbacks.check(text);
    if (diagnostics.length) {
      await audit(c, 'callbacks.save-refused', { code: 'CALLBACK_TYPE_ERRORS', errors: diagnostics.length });
      throw typeErrors(diagnostics);
    }
    try {
      const version = await callbacks.write(text, baseVersion);
      await audit(c, 'callbacks.saved', { version });
      return c.json({ version });
    } catch (error) {
      if (!TreeEditConflict.isInstance(error)) throw error;
      await audit(c, 'callbacks.save-refused', { code: 'EDIT_CONFLICT' });
      throw new ApiError(409, 'EDIT_CONFLICT', error.message, { details: { version: error.version } });
    }
  });
  return routes;
}
