import type { Hono, MiddlewareHandler } from 'hono';
import { requireSessionToken } from '../auth/session-access.js';
import type { Services } from '../services.js';
import type { RouteArea, RouteAreaContext } from './route-area.js';

/** The middleware that enforces an area's access rule, and the paths it applies to. */
function accessGuard(
  area: RouteArea<never>,
  services: Services,
): { paths: string[]; guard: MiddlewareHandler } | null {
  const under = (suffix: string) => (area.prefix === '/' ? suffix : `${area.prefix}${suffix}`);
  switch (area.access) {
    case 'public':
      return null;
    case 'session':
      return { paths: [under('/:id'), under('/:id/*')], guard: requireSessionToken(services) };
    case 'operator':
    case 'admin':
      return {
        paths: [area.prefix, under('/*')],
        guard: services.operatorAuth.require(area.access),
      };
  }
}

/**
 * Mounts a route area on `app`: first `guards` (the server's guards of its path, when it has its
 * own), then the guard of its access rule, then its routes.
 */
export function mountArea<Context extends RouteAreaContext>(
  app: Hono,
  area: RouteArea<Context>,
  context: Context & Services,
  guards: readonly MiddlewareHandler[] = [],
): void {
  const all = area.prefix === '/' ? ['/*'] : [area.prefix, `${area.prefix}/*`];
  if (guards.length > 0) for (const path of all) app.use(path, ...guards);
  const access = accessGuard(area as RouteArea<never>, context);
  if (access) for (const path of access.paths) app.use(path, access.guard);
  app.route(area.prefix, area.routes(context));
}
