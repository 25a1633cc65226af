import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Channel } from '@treeagent/core/adapter';
import { InstagramChannel } from './meta/instagram-channel.js';
import { MessengerChannel } from './meta/messenger-channel.js';
import { WhatsAppChannel } from './meta/whatsapp-channel.js';
import { SlackChannel } from './slack/slack-channel.js';
import { TeamsChannel } from './teams/teams-channel.js';
import { TelegramChannel } from './telegram/telegram-channel.js';

/** A secret in the configuration: the name of an environment variable, or a file readable by its owner only. */
export type SecretSource = { env: string } | { file: string };

/** What `treeagent serve --channels <file>` reads (docs/channels.md, "Configuration"). */
export interface ChannelsConfig {
  /** The server's public HTTPS origin, for the webhook URLs to register (`treeagent channels check`). */
  publicUrl?: string;
  /** Whether the server keeps its web chat (`/api/v1/sessions`, the chat page's and widget's API). Default true. */
  webChat?: boolean;
  /** Whether the server keeps its OpenAI-compatible endpoint (`/v1`). Default true. */
  openAiCompatible?: boolean;
  channels: (
    | {
        platform: 'telegram';
        name?: string;
        token: SecretSource;
        /** The webhook's secret token; absent (and refused) with `mode: "polling"`. */
        secretToken?: SecretSource;
        /** `polling` fetches updates with long polling (development); default the webhook. */
        mode?: 'webhook' | 'polling';
      }
    | {
        platform: 'whatsapp';
        name?: string;
        phoneNumberId: string;
        accessToken: SecretSource;
        appSecret: SecretSource;
        verifyToken: SecretSource;
        template?: { name: string; language: string };
        /** The label of the button that opens a list of options (at most 20 characters). Default `Options`. */
        listButton?: string;
      }
    | { platform: 'slack'; name?: string; botToken: SecretSource; signingSecret: SecretSource }
    | { platform: 'teams'; name?: string; appId: string; tenantId: string; appPassword: SecretSource }
    | {
        platform: 'messenger' | 'instagram';
        name?: string;
        pageAccessToken: SecretSource;
        appSecret: SecretSource;
        verifyToken: SecretSource;
      }
  )[];
}

/** The channels of a configuration file, and the webhook URL of each. */
export interface LoadedChannels {
  channels: Channel[];
  /** `where`: the setting on the platform's side the URL goes in, when it is not plain. */
  webhooks: { name: string; platform: string; url: string; where?: string }[];
  /** Whether the server keeps its web chat beside these channels (`webChat` of the file). */
  webChat: boolean;
  /** Whether the server keeps its OpenAI-compatible endpoint (`openAiCompatible` of the file). */
  openAiCompatible: boolean;
}

/** Thrown for a configuration that cannot be used; the message names the entry and the fix. */
export class ChannelsConfigError extends Error {
  override readonly name = 'ChannelsConfigError';
}

/**
 * Reads a channels configuration file: every secret from the environment or a file that only its
 * owner can read (a missing variable, a missing file or one other users can read is refused, naming
 * the fix), then builds the channels. `env` defaults to `process.env`.
 */
export function loadChannelsConfig(file: string, env: NodeJS.ProcessEnv = process.env): LoadedChannels {
  let config: ChannelsConfig;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as ChannelsConfig;
  } catch (error) {
    throw new ChannelsConfigError(
      `--channels ${file}: cannot read it as JSON (${(error as Error).message}).`,
    );
  }
  if (!Array.isArray(config?.channels) || config.channels.length === 0)
    throw new ChannelsConfigError(
      `--channels ${file}: "channels" must be a non-empty array (docs/channels.md, "Configuration").`,
    );
  for (const key of ['webChat', 'openAiCompatible'] as const)
    if (config[key] !== undefined && typeof config[key] !== 'boolean')
      throw new ChannelsConfigError(
        `--channels ${file}: "${key}" must be true or false (false: the server has no ${key === 'webChat' ? 'web chat, /api/v1/sessions' : 'OpenAI-compatible endpoint, /v1'}); got ${JSON.stringify(config[key])}.`,
      );
  const base = dirname(resolve(file));
  const channels = config.channels.map((entry, index): Channel => {
    const where = `--channels ${file}, channels[${index}]`;
    const secret = (key: string, source: unknown) => readSecret(`${where}.${key}`, source, base, env);
    switch (entry.platform) {
      case 'telegram': {
        if (entry.mode !== undefined && entry.mode !== 'webhook' && entry.mode !== 'polling')
          throw new ChannelsConfigError(
            `${where}.mode must be "webhook" or "polling"; got ${JSON.stringify(entry.mode)}.`,
          );
        if (entry.mode === 'polling') {
          if (entry.secretToken !== undefined)
            throw new ChannelsConfigError(
              `${where}: "mode": "polling" and a webhook "secretToken" together — Telegram gives updates to a webhook or to polling, not both. Remove "secretToken" to poll (development), or remove "mode" to use the webhook.`,
            );
          return new TelegramChannel({
            ...(entry.name ? { name: entry.name } : {}),
            token: secret('token', entry.token),
            mode: 'polling',
          });
        }
        return new TelegramChannel({
          ...(entry.name ? { name: entry.name } : {}),
          token: secret('token', entry.token),
          secretToken: secret('secretToken', entry.secretToken),
        });
      }
      case 'whatsapp':
        return new WhatsAppChannel({
          ...(entry.name ? { name: entry.name } : {}),
          phoneNumberId: entry.phoneNumberId,
          accessToken: secret('accessToken', entry.accessToken),
          appSecret: secret('appSecret', entry.appSecret),
          verifyToken: secret('verifyToken', entry.verifyToken),
          ...(entry.template === undefined ? {} : { template: whatsAppTemplate(where, entry.template) }),
          ...(entry.listButton === undefined ? {} : { listButton: String(entry.listButton) }),
        });
      case 'slack':
        return new SlackChannel({
          ...(entry.name ? { name: entry.name } : {}),
          botToken: secret('botToken', entry.botToken),
          signingSecret: secret('signingSecret', entry.signingSecret),
        });
      case 'teams':
        for (const key of ['appId', 'tenantId'] as const)
          if (typeof entry[key] !== 'string' || !entry[key])
            throw new ChannelsConfigError(
              `${where}.${key} is missing: copy it from the Azure Bot's Configuration page (${key === 'appId' ? 'Microsoft App ID' : 'App Tenant ID'}); it is not a secret.`,
            );
        return new TeamsChannel({
          ...(entry.name ? { name: entry.name } : {}),
          appId: entry.appId,
          tenantId: entry.tenantId,
          appPassword: secret('appPassword', entry.appPassword),
        });
      case 'messenger':
      case 'instagram': {
        const options = {
          ...(entry.name ? { name: entry.name } : {}),
          pageAccessToken: secret('pageAccessToken', entry.pageAccessToken),
          appSecret: secret('appSecret', entry.appSecret),
          verifyToken: secret('verifyToken', entry.verifyToken),
        };
        return entry.platform === 'messenger' ? new MessengerChannel(options) : new InstagramChannel(options);
      }
      default:
        throw new ChannelsConfigError(
          `${where}: unknown platform ${JSON.stringify((entry as { platform?: unknown }).platform)}; this version knows "telegram", "whatsapp", "messenger", "instagram", "slack" and "teams".`,
        );
    }
  });
  const origin = (config.publicUrl ?? 'https://<your-host>').replace(/\/$/, '');
  return {
    channels,
    webChat: config.webChat ?? true,
    openAiCompatible: config.openAiCompatible ?? true,
    // A polling channel has no webhook to register.
    webhooks: channels
      .filter((channel) => !channel.listen)
      .map((channel) => ({
        name: channel.name,
        platform: channel.platform,
        url: `${origin}/channels/${channel.name}/webhook`,
        ...(WHERE[channel.platform] ? { where: WHERE[channel.platform] } : {}),
      })),
  };
}

/** Where the webhook URL goes on the platforms whose setting is not plainly "the webhook" (docs/channels.md). */
const WHERE: Record<string, string> = {
  slack: 'the Request URL of Event Subscriptions and of Interactivity & Shortcuts',
  teams: 'the messaging endpoint of the Azure Bot (Settings → Configuration)',
};

/** A WhatsApp template entry: an approved template's name and language code. */
function whatsAppTemplate(where: string, template: unknown): { name: string; language: string } {
  const { name, language } = (template ?? {}) as { name?: unknown; language?: unknown };
  if (
    typeof name !== 'string' ||
    !/^[a-z0-9_]{1,512}$/.test(name) ||
    typeof language !== 'string' ||
    !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)
  )
    throw new ChannelsConfigError(
      `${where}.template must be { "name": "<template name>", "language": "<code>" }: the name of a template approved in WhatsApp Manager (lowercase letters, digits and "_") and its language code ("it", "en_US"); got ${JSON.stringify(template)}.`,
    );
  return { name, language };
}

function readSecret(where: string, source: unknown, base: string, env: NodeJS.ProcessEnv): string {
  if (typeof source === 'string')
    throw new ChannelsConfigError(
      `${where} is written in the file itself: secrets come from the environment or a private file. Write { "env": "VARIABLE" } or { "file": "path" } (chmod 600).`,
    );
  if (source && typeof source === 'object' && 'env' in source && typeof source.env === 'string') {
    const value = env[source.env];
    if (!value)
      throw new ChannelsConfigError(
        `${where}: the environment variable ${source.env} is not set; export it before starting the server.`,
      );
    return value.trim();
  }
  if (source && typeof source === 'object' && 'file' in source && typeof source.file === 'string') {
    const path = resolve(base, source.file);
    let mode: number;
    try {
      mode = statSync(path).mode;
    } catch {
      throw new ChannelsConfigError(`${where}: the secret file ${path} does not exist.`);
    }
    if (process.platform !== 'win32' && (mode & 0o077) !== 0)
      throw new ChannelsConfigError(
        `${where}: the secret file ${path} can be read by other users of this machine (mode ${(mode & 0o777).toString(8)}). Run: chmod 600 ${path}`,
      );
    const value = readFileSync(path, 'utf8').trim();
    if (!value) throw new ChannelsConfigError(`${where}: the secret file ${path} is empty.`);
    return value;
  }
  throw new ChannelsConfigError(`${where} is missing: give { "env": "VARIABLE" } or { "file": "path" }.`);
}
