import type { Channel } from '@treeagent/core/adapter';
import { openAiCompatible } from '../openai/openai-channel.js';
import { webChat } from '../sessions/web-chat-channel.js';
import type { ChannelsOption, ChannelsOptions, MessagingChannels } from './channels-options.js';
import { isRouteChannel, type RouteChannel, type ServerChannel } from './route-channel.js';

/** The channels of a server, by kind: what `createApp` mounts. */
export interface ServerChannels {
  /** Route channels, in the order given: their areas are mounted before the server's own. */
  routes: RouteChannel[];
  /** The messaging channels and their delivery settings, or `null` when the server runs none. */
  messaging: MessagingChannels | null;
}

/** The channels of a server without option `channels`: the web chat and the OpenAI-compatible endpoint. */
export function defaultChannels(): RouteChannel[] {
  return [webChat(), openAiCompatible()];
}

/**
 * Sorts option `channels` of `createApp` into route and messaging channels, adding the defaults
 * where `ChannelsOptions.defaults` says, and refusing two channels of one name.
 */
export function serverChannels(option: ChannelsOption | undefined): ServerChannels {
  if (option === undefined) return { routes: defaultChannels(), messaging: null };
  const isList = Array.isArray(option);
  const options: ChannelsOptions = isList
    ? { channels: option as readonly ServerChannel[], defaults: false }
    : (option as ChannelsOptions);
  const { channels: listed, defaults, ...delivery } = options;
  if (!Array.isArray(listed))
    throw new TypeError(
      'The option "channels" is neither a list of channels nor { channels: [...] }: give e.g. channels: [webChat(), openAiCompatible()].',
    );
  const routes = listed.filter(isRouteChannel);
  const messaging = listed.filter((channel): channel is Channel => !isRouteChannel(channel));
  if (defaults ?? routes.length === 0) routes.unshift(...defaultChannels());
  const names = new Set<string>();
  for (const channel of [...routes, ...messaging]) {
    if (names.has(channel.name))
      throw new TypeError(
        `Two channels are named "${channel.name}": give each its own name (webChat({ name }), openAiCompatible({ name }) and every messaging channel take one).`,
      );
    names.add(channel.name);
  }
  // A list given as an object keeps a channel service even when empty (its admin routes answer).
  return { routes, messaging: messaging.length > 0 || !isList ? { ...delivery, channels: messaging } : null };
}
