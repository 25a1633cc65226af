import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { clientAddress } from '../http/client-address.js';
import { endStreamWith } from '../http/event-streams.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import { requireVisibleHandoff, teamsOf } from './handoff-queue-routes.js';

/**
 * The operator console's live stream, `GET /api/v1/operator/events` (operators): server-sent events
 * `queue` (read the queue again), `session` (read that handoff again) and `typing` (a user typing),
 * a keep-alive comment every 15 s; it ends at logout and under the stream caps. An operator with
 * teams gets the `session` and `typing` events of the handoffs they may see only
 * (`requireVisibleHandoff`), in the order they happened.
 */
export function handoffEventRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs } = services;

  routes.get('/', (c) => {
    const operator = operatorOf(c);
    const open = services.streams.open(
      {
        address: clientAddress(c),
        operator: { id: operator.id, login: services.operatorAuth.loginOf(c) ?? '' },
      },
      services.operatorAuth.stillLoggedIn(c, 'operator'),
    );
    return streamSSE(c, async (stream) => {
      let closed = false;
      let wake: (() => void) | null = null;
      const limited = teamsOf(operator) !== null;
      // Another team's session is not named to this operator, not even that it changed.
      let ordered = Promise.resolve();
      const aboutSession = (sessionId: string, write: () => Promise<void>) => {
        if (!limited) return void write();
        ordered = ordered
          .then(async () => {
            const visible = await requireVisibleHandoff(services, operator, sessionId).then(
              () => true,
              () => false,
            );
            if (visible && !closed) await write();
          })
          .catch(() => {});
      };
      const unsubscribe = handoffs.bus.subscribe((event) => {
        if (closed) return;
        open.touch();
        if (event.kind === 'queue' || event.kind === 'resync')
          void stream.writeSSE({ event: 'queue', data: '{}' });
        if (event.kind === 'session')
          aboutSession(event.sessionId, () =>
            stream.writeSSE({ event: 'session', data: JSON.stringify({ sessionId: event.sessionId }) }),
          );
        if (event.kind === 'user-typing')
          aboutSession(event.sessionId, () =>
            stream.writeSSE({
              event: 'typing',
              data: JSON.stringify({ sessionId: event.sessionId, typing: event.typing }),
            }),
          );
      });
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      endStreamWith(stream, open, () => {
        closed = true;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'queue', data: '{}' });
        while (!closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 15_000);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (!closed) await stream.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe();
        open.release();
      }
    });
  });

  return routes;
}
