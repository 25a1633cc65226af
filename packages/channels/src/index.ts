/**
 * `@treeagent/channels`: messaging platforms on the Tree Agent server's channel seam
 * (docs/channels.md). Give them to `createApp({ channels: { channels: [...] } })`, or name them in
 * `treeagent serve --channels channels.json`.
 */

export {
  type ChannelsConfig,
  ChannelsConfigError,
  type LoadedChannels,
  loadChannelsConfig,
  type SecretSource,
} from './channels-config.js';
export { InstagramChannel } from './meta/instagram-channel.js';
export { MessengerChannel } from './meta/messenger-channel.js';
export {
  type MessengerChannelOptions,
  type MessengerPlatform,
  MessengerPlatformChannel,
} from './meta/messenger-platform-channel.js';
export { META_SIGNATURE_HEADER, signMetaBody } from './meta/meta-signature.js';
export {
  WhatsAppChannel,
  type WhatsAppChannelOptions,
  type WhatsAppDeliveryFailure,
  type WhatsAppTemplate,
} from './meta/whatsapp-channel.js';
export {
  SlackChannel,
  type SlackChannelOptions,
} from './slack/slack-channel.js';
export {
  TeamsChannel,
  type TeamsChannelOptions,
  type TeamsTokenProvider,
} from './teams/teams-channel.js';
export {
  TELEGRAM_SECRET_HEADER,
  TelegramChannel,
  type TelegramChannelOptions,
} from './telegram/telegram-channel.js';
