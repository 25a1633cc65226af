import type { Hono } from 'hono';
import type { Services } from '../services.js';
import { mountChannelAdmin, mountChannelWebhooks } from './channel-routes.js';
import { ChannelService } from './channel-service.js';
import type { MessagingChannels } from './channels-options.js';

/**
 * The one hook of `createApp` for messaging channels (the `Channel`s of option `channels`): builds the channel
 * service on the app's turn runner, mounts the webhooks and the admin routes, and follows operator
 * actions so their messages reach the user's platform. Call it after the API's guards are in place.
 */
export function mountChannels(app: Hono, services: Services, options: MessagingChannels): ChannelService {
  const channels = new ChannelService({
    agent: services.agent,
    runner: services.runner,
    tokens: services.tokens,
    registry: services.metrics.registry,
    logger: services.logger,
    limits: services.limits,
    options,
    ...(services.locale ? { locale: services.locale } : {}),
    satisfaction: {
      queue: services.handoffs.queue,
      ratings: services.handoffs.satisfaction,
      treeVersion: () => services.agent.tree.contentHash,
    },
  });
  mountChannelWebhooks(app, channels);
  mountChannelAdmin(app, channels, services.operatorAuth.require('admin'));
  services.handoffs.onAction((sessionId, update) => channels.afterHandoffAction(sessionId, update));
  services.handoffs.onTyping((sessionId) => channels.operatorTyping(sessionId));
  return channels;
}
