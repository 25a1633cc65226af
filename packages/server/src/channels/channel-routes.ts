import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { ApiError, notFound } from '../errors/api-error.js';
import { validate } from '../http/read-json.js';
import type { ChannelService } from './channel-service.js';
import type { RouteChannel } from './route-channel.js';

/**
 * `/channels/<name>/webhook`: where each platform delivers (no API key: the channel verifies the
 * platform's signature or secret). `GET` too, for Meta's verify-token handshake.
 */
export function mountChannelWebhooks(app: Hono, channels: ChannelService): void {
  const limit = bodyLimit({
    maxSize: channels.maxBodyBytes,
    onError: () => {
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `A webhook body is at most ${channels.maxBodyBytes} bytes.`,
      );
    },
  });
  app.on(['GET', 'POST'], '/channels/:name/webhook', limit, async (c) => {
    const channel = channels.channels.get(c.req.param('name'));
    if (!channel) throw notFound(`There is no channel "${c.req.param('name')}" on this server.`);
    return channels.receive(channel, c.req.raw);
  });
}

/**
 * `GET /api/v1/channels` (behind `guard`, an admin's): every channel of the server, each with its
 * `kind`. A messaging channel (`messaging`) has its platform, webhook path, capabilities, and outbox
 * and inbox counts; a route channel (`routes`: the web chat, the OpenAI-compatible endpoint, a
 * program's own) its capabilities and the routes it answers with who may call each. Mounted whether
 * or not the server has messaging channels.
 */
export function mountChannelList(
  app: Hono,
  routeChannels: readonly RouteChannel[],
  messaging: ChannelService | null,
  guard: MiddlewareHandler,
): void {
  app.get('/api/v1/channels', guard, async (c) => {
    const counts = messaging ? await messaging.store.counts() : [];
    const inbox = messaging ? await messaging.inbox.counts() : [];
    return c.json({
      channels: [
        ...routeChannels.map((channel) => ({
          kind: 'routes' as const,
          name: channel.name,
          capabilities: channel.capabilities,
          routes: channel.routes,
        })),
        ...[...(messaging?.channels.values() ?? [])].map((channel) => ({
          kind: 'messaging' as const,
          name: channel.name,
          platform: channel.platform,
          webhook: `/channels/${channel.name}/webhook`,
          capabilities: channel.capabilities,
          outbox: counts.find((count) => count.channel === channel.name) ?? { pending: 0, dead: 0 },
          inbox: inbox.find((count) => count.channel === channel.name) ?? { pending: 0, failed: 0 },
        })),
      ],
    });
  });
}

/** `?limit=` of the admin's lists: 1–1000, 100 when left out. */
const ListQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() });

/**
 * The admin's routes of the messaging channels under `/api/v1/channels/` (behind `guard`): the dead
 * letters, putting one back in line, and the incoming messages whose turn was given up (with their
 * reason). The list of the channels is `mountChannelList`'s.
 */
export function mountChannelAdmin(app: Hono, channels: ChannelService, guard: MiddlewareHandler): void {
  app.use('/api/v1/channels/*', guard);
  app.get('/api/v1/channels/dead-letters', async (c) => {
    const { limit = 100 } = validate(ListQuery, c.req.query(), 'query');
    return c.json({ deadLetters: await channels.store.deadLetters(limit) });
  });
  app.get('/api/v1/channels/inbox/failures', async (c) => {
    const { limit = 100 } = validate(ListQuery, c.req.query(), 'query');
    return c.json({ failures: await channels.inbox.failures(limit) });
  });
  app.post('/api/v1/channels/inbox/failures/:channel/:messageId/retry', async (c) => {
    const { channel, messageId } = c.req.param();
    if (!(await channels.inbox.retry(channel, messageId, new Date())))
      throw notFound(
        `There is no given-up message "${messageId}" of channel "${channel}" in the inbox (GET /api/v1/channels/inbox/failures lists them).`,
      );
    channels.worker.poke();
    return c.json({ retried: { channel, messageId } });
  });
  app.post('/api/v1/channels/dead-letters/:id/retry', async (c) => {
    const id = c.req.param('id');
    if (!(await channels.store.retry(id, new Date())))
      throw notFound(
        `There is no dead-lettered channel message "${id}" (GET /api/v1/channels/dead-letters lists them).`,
      );
    channels.delivery.poke();
    return c.json({ retried: id });
  });
}
