import { Hono } from 'hono';
import type { Services } from '../services.js';

type Check = { ok: true } | { ok: false; reason: string };

/** Settles with the check's result, or a failure after `timeoutMs`. */
async function check(run: () => Promise<unknown>, timeoutMs: number, what: string): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `${what} did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      run().then(
        (): Check => ({ ok: true }),
        (error: unknown): Check => ({
          ok: false,
          reason: error instanceof Error ? error.message : String(error),
        }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health`: the process answers (liveness). `GET /ready`: 200 when the tree is loaded
 * (`agent.ready()`: chunks embedded and indexed), the session store answers, and the server is not
 * shutting down; 503 with the failing checks otherwise.
 */
export function healthRoutes(services: Services): Hono {
  const routes = new Hono();

  routes.get('/health', (c) => c.json({ status: 'ok' }));

  routes.get('/ready', async (c) => {
    const { agent, readyTimeoutMs } = services;
    const [tree, sessionStore] = await Promise.all([
      check(() => agent.ready(), readyTimeoutMs, 'loading the tree'),
      check(() => agent.sessionStore.load('treeagent-readiness-probe'), readyTimeoutMs, 'the session store'),
    ]);
    const accepting: Check = services.tracker.draining
      ? { ok: false, reason: 'shutting down' }
      : { ok: true };
    const checks = { tree, sessionStore, accepting };
    const ready = tree.ok && sessionStore.ok && accepting.ok;
    return c.json({ status: ready ? 'ready' : 'not-ready', checks }, ready ? 200 : 503);
  });

  return routes;
}
