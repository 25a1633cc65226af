import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChannelsConfig } from './channels-config.js';
import { SlackChannel } from './slack/slack-channel.js';
import { TeamsChannel } from './teams/teams-channel.js';

// The Slack and Teams entries of channels.json (the Telegram and WhatsApp ones: channels-config.test.ts).

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function configFile(channels: unknown[], secrets: Record<string, { value: string; mode: number }> = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-channels-chat-'));
  directories.push(directory);
  for (const [name, { value, mode }] of Object.entries(secrets)) {
    writeFileSync(join(directory, name), value);
    chmodSync(join(directory, name), mode);
  }
  const file = join(directory, 'channels.json');
  writeFileSync(file, JSON.stringify({ publicUrl: 'https://help.example.com', channels }));
  return file;
}

const slack = {
  platform: 'slack',
  botToken: { env: 'SLACK_BOT_TOKEN' },
  signingSecret: { file: 'slack.secret' },
};
const teams = {
  platform: 'teams',
  name: 'helpdesk-teams',
  appId: '00000000-0000-4000-8000-00000000b07a',
  tenantId: '11111111-2222-4333-8444-555555555555',
  appPassword: { env: 'TEAMS_APP_PASSWORD' },
};
const env = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', TEAMS_APP_PASSWORD: 'client~secret' };

describe('loadChannelsConfig: Slack and Teams', () => {
  it('builds both from the environment and a 0600 file and says where each URL is registered', () => {
    const file = configFile([slack, teams], { 'slack.secret': { value: 'signing-secret\n', mode: 0o600 } });
    const loaded = loadChannelsConfig(file, env);
    expect(loaded.channels[0]).toBeInstanceOf(SlackChannel);
    expect(loaded.channels[1]).toBeInstanceOf(TeamsChannel);
    expect(loaded.webhooks).toEqual([
      {
        name: 'slack',
        platform: 'slack',
        url: 'https://help.example.com/channels/slack/webhook',
        where: 'the Request URL of Event Subscriptions and of Interactivity & Shortcuts',
      },
      {
        name: 'helpdesk-teams',
        platform: 'teams',
        url: 'https://help.example.com/channels/helpdesk-teams/webhook',
        where: 'the messaging endpoint of the Azure Bot (Settings → Configuration)',
      },
    ]);
  });

  it('refuses a world-readable signing secret, an inline app password and a missing app id, naming the fix', () => {
    expect(() =>
      loadChannelsConfig(configFile([slack], { 'slack.secret': { value: 's', mode: 0o644 } }), env),
    ).toThrow(/channels\[0\]\.signingSecret.*can be read by other users.*chmod 600/);
    expect(() => loadChannelsConfig(configFile([{ ...teams, appPassword: 'inline' }]), env)).toThrow(
      /channels\[0\]\.appPassword is written in the file itself/,
    );
    expect(() => loadChannelsConfig(configFile([{ ...teams, appId: undefined }]), env)).toThrow(
      /channels\[0\]\.appId is missing.*Microsoft App ID/,
    );
    expect(() =>
      loadChannelsConfig(configFile([slack], { 'slack.secret': { value: 's', mode: 0o600 } }), {}),
    ).toThrow(/SLACK_BOT_TOKEN is not set/);
  });
});
