import { beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../app.js';
import type { CreateAppOptions } from '../app-options.js';
import { createSecret, hashSecret } from '../auth/secrets.js';
import type { InMemorySessionTokens } from '../auth/session-tokens.js';
import { type ChannelRoute, isUnderPrefix, type RouteChannel } from '../channels/route-channel.js';
import type { OperatorAccount } from '../operators/operator-accounts.js';
import {
  CONFORMANCE_API_KEY,
  conformanceAccounts,
  conformanceLogin,
  conformanceServer,
} from './conformance-server.js';

type App = ReturnType<typeof createApp>;

const WITH_KEY = { Authorization: `Bearer ${CONFORMANCE_API_KEY}` };
const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** What a channel's servers in the suite get besides the channel (e.g. stores its routes need). */
export interface RouteChannelSuiteOptions {
  /** Options of every `createApp` the suite makes (the agent, API key, operators and tokens are its own). */
  appOptions?: Partial<CreateAppOptions>;
}

/**
 * The conformance suite of route channels (`RouteChannel`), published as
 * `@treeagent/server/conformance`: what every channel that brings its own routes must do, run by the
 * web chat, the OpenAI-compatible channel and a program's own channel. Call it in a vitest test file
 * with a function that makes a new channel. It builds servers with `createApp({ channels: [channel] })`
 * (a one-node agent, an API key, an admin and an operator) and checks that the channel declares exactly the routes it
 * answers, that each is behind the server's guards (API key, body limits) and its stated access
 * (`session`: 401 without the session's token, 403 with another session's; `operator`/`admin`: 401
 * without a login, 403 for an operator on an admin route), and that a server without it answers 404.
 */
export function describeRouteChannel(
  label: string,
  channel: () => RouteChannel,
  suiteOptions: RouteChannelSuiteOptions = {},
): void {
  describe(`route channel conformance: ${label}`, () => {
    let accounts: OperatorAccount[];
    beforeAll(async () => {
      accounts = await conformanceAccounts();
    });

    function server(channels: RouteChannel[], options: Partial<CreateAppOptions> = {}) {
      return conformanceServer(channels, accounts, { ...suiteOptions.appOptions, ...options });
    }

    it('declares a usable name, its capabilities, and at least one route under its areas', () => {
      const made = channel();
      expect(made.kind).toBe('routes');
      expect(made.name).toMatch(NAME);
      const { capabilities } = made;
      for (const flag of [
        capabilities.streaming,
        capabilities.options,
        capabilities.typing,
        capabilities.handoff,
      ])
        expect(typeof flag).toBe('boolean');
      expect(typeof capabilities.files.receive).toBe('boolean');
      expect(typeof capabilities.files.send).toBe('boolean');
      expect(made.routes.length).toBeGreaterThan(0);
      for (const route of made.routes)
        expect(made.areas.some((area) => isUnderPrefix(route.path, area.prefix))).toBe(true);
    });

    it('declares exactly the routes it answers, each with who may call it', () => {
      const without = routesOf(server([]).app);
      const added = routesOf(server([channel()]).app).filter((route) => !without.includes(route));
      const declared = channel().routes.map((route) => `${route.method} ${route.path}`);
      expect([...declared].sort()).toEqual([...added].sort());
    });

    const apiRoutes = channel().routes.filter((route) => isUnderApi(route.path));
    itFor(
      apiRoutes,
      'every route under /api or /v1 needs the API key (401 without it)',
      'it has none there',
      async () => {
        const { app } = server([channel()]);
        for (const route of apiRoutes) {
          const response = await call(app, route, 'no-such-session', {});
          expect(response.status, `${route.method} ${route.path}`).toBe(401);
        }
      },
    );

    const sessionRoutes = channel().routes.filter((route) => route.access === 'session');
    itFor(
      sessionRoutes,
      'a session route needs the token of its session: none 401, another session’s 403, its own passes',
      'it has none',
      async () => {
        const { app, tokens } = server([channel()]);
        for (const route of sessionRoutes) {
          const mine = await session(tokens);
          const other = await session(tokens);
          const what = `${route.method} ${route.path}`;
          expect((await call(app, route, mine.id, WITH_KEY)).status, what).toBe(401);
          const wrong = await call(app, route, mine.id, { ...WITH_KEY, 'X-Session-Token': other.token });
          expect(wrong.status, what).toBe(403);
          const right = await call(app, route, mine.id, { ...WITH_KEY, 'X-Session-Token': mine.token });
          expect([401, 403], `${what}: ${right.status}`).not.toContain(right.status);
          expect(right.route, `${what} is answered by a route`).toBe(true);
        }
      },
    );

    const staff = channel().routes.filter((route) => route.access === 'operator' || route.access === 'admin');
    itFor(
      staff,
      'an operator or admin route needs a login: none 401; an admin route refuses an operator (403)',
      'it has none',
      async () => {
        const { app } = server([channel()]);
        const operator = await conformanceLogin(app, 'operator');
        const admin = await conformanceLogin(app, 'admin');
        for (const route of staff) {
          const what = `${route.method} ${route.path}`;
          expect((await call(app, route, 'x', WITH_KEY)).status, what).toBe(401);
          const asOperator = await call(app, route, 'x', { ...WITH_KEY, 'X-Operator-Token': operator });
          if (route.access === 'admin') expect(asOperator.status, what).toBe(403);
          else expect([401, 403], what).not.toContain(asOperator.status);
          const asAdmin = await call(app, route, 'x', { ...WITH_KEY, 'X-Operator-Token': admin });
          expect([401, 403], what).not.toContain(asAdmin.status);
        }
      },
    );

    const publicRoutes = channel().routes.filter((route) => route.access === 'public');
    itFor(
      publicRoutes,
      'a public route is open to whoever passes the server’s guards',
      'it has none',
      async () => {
        const { app } = server([channel()]);
        for (const route of publicRoutes) {
          const response = await call(app, route, 'x', WITH_KEY);
          expect([401, 403], `${route.method} ${route.path}: ${response.status}`).not.toContain(
            response.status,
          );
        }
      },
    );

    const withBody = channel().routes.filter((route) => route.method !== 'GET' && route.method !== 'DELETE');
    itFor(
      withBody,
      'a request body over the server’s limit is refused before the route runs (413)',
      'it takes none',
      async () => {
        const { app, tokens } = server([channel()], { limits: { maxBodyBytes: 256, maxUploadBytes: 256 } });
        for (const route of withBody) {
          const mine = await session(tokens);
          const headers = { ...WITH_KEY, 'X-Session-Token': mine.token };
          const response = await call(
            app,
            route,
            mine.id,
            headers,
            JSON.stringify({ text: 'x'.repeat(4096) }),
          );
          expect(response.status, `${route.method} ${route.path}`).toBe(413);
        }
      },
    );

    it('a server without it answers 404 on every one of its routes', async () => {
      const { app, tokens } = server([]);
      for (const route of channel().routes) {
        const mine = await session(tokens);
        const response = await call(app, route, mine.id, { ...WITH_KEY, 'X-Session-Token': mine.token });
        expect(response.status, `${route.method} ${route.path}`).toBe(404);
        expect(response.route, `${route.method} ${route.path} is answered by no route`).toBe(false);
      }
    });
  });
}

/** A case over `routes`, skipped with its reason when the channel has none of them. */
function itFor(routes: readonly ChannelRoute[], title: string, none: string, run: () => Promise<void>): void {
  if (routes.length === 0) it.skip(`${title} — skipped: ${none}`, run);
  else it(title, run);
}

/** The `METHOD /path` of every route handler of `app` (middleware left out). */
function routesOf(app: App): string[] {
  return [
    ...new Set(app.routes.filter((route) => route.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
  ];
}

function isUnderApi(path: string): boolean {
  return isUnderPrefix(path, '/api') || isUnderPrefix(path, '/v1');
}

/** A session with its token, registered as `POST /api/v1/sessions` would. */
async function session(tokens: InMemorySessionTokens): Promise<{ id: string; token: string }> {
  const id = `conformance-${createSecret().slice(0, 12)}`;
  const token = createSecret();
  await tokens.save(id, hashSecret(token), null);
  return { id, token };
}

/** Calls `route` with `:id` as `sessionId` (other parameters `x`); a stream's body is cancelled. */
async function call(
  app: App,
  route: ChannelRoute,
  sessionId: string,
  headers: Record<string, string>,
  body = '{}',
): Promise<Response & { route: boolean }> {
  const path = route.path.replace(/:id\b/, encodeURIComponent(sessionId)).replace(/:[A-Za-z]+/g, 'x');
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const response = await app.request(path, {
    method: route.method,
    headers: {
      ...headers,
      ...(hasBody
        ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }
        : {}),
    },
    ...(hasBody ? { body } : {}),
  });
  // The server's own 404 (no route matched) says "There is no …"; a route's 404 (no such file) does not.
  const missing =
    response.status === 404 && (await response.clone().text()).includes(`There is no ${route.method} `);
  await response.body?.cancel();
  return Object.assign(response, { route: !missing });
}
