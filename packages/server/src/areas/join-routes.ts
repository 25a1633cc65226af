import { Hono } from 'hono';

/** One Hono of several route modules mounted at the same prefix, in order. */
export function joinRoutes(...modules: Hono[]): Hono {
  const joined = new Hono();
  for (const routes of modules) joined.route('/', routes);
  return joined;
}
