import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChannelsConfig } from './channels-config.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function configFile(config: unknown, secrets: Record<string, { value: string; mode: number }> = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-channels-'));
  directories.push(directory);
  for (const [name, { value, mode }] of Object.entries(secrets)) {
    writeFileSync(join(directory, name), value);
    chmodSync(join(directory, name), mode);
  }
  const file = join(directory, 'channels.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

const telegram = (secretToken: unknown) => ({
  publicUrl: 'https://help.example.com/',
  channels: [{ platform: 'telegram', token: { env: 'TG_TOKEN' }, secretToken }],
});

describe('loadChannelsConfig', () => {
  it('builds the channels from the environment and 0600 files and names their webhook URLs', () => {
    const file = configFile(telegram({ file: 'telegram.secret' }), {
      'telegram.secret': { value: 'hook_secret-1\n', mode: 0o600 },
    });
    const loaded = loadChannelsConfig(file, { TG_TOKEN: '123:abc' });
    expect(loaded.channels.map((channel) => channel.name)).toEqual(['telegram']);
    expect(loaded.webhooks).toEqual([
      { name: 'telegram', platform: 'telegram', url: 'https://help.example.com/channels/telegram/webhook' },
    ]);
  });

  it('keeps the web chat and the OpenAI-compatible endpoint unless the file turns them off; refuses a switch that is not true or false', () => {
    const secret = { 'telegram.secret': { value: 'hook_secret-1\n', mode: 0o600 } };
    const env = { TG_TOKEN: '123:abc' };
    const kept = loadChannelsConfig(configFile(telegram({ file: 'telegram.secret' }), secret), env);
    expect([kept.webChat, kept.openAiCompatible]).toEqual([true, true]);
    const only = { ...telegram({ file: 'telegram.secret' }), webChat: false, openAiCompatible: false };
    const off = loadChannelsConfig(configFile(only, secret), env);
    expect([off.webChat, off.openAiCompatible]).toEqual([false, false]);
    const wrong = { ...telegram({ file: 'telegram.secret' }), openAiCompatible: 'no' };
    expect(() => loadChannelsConfig(configFile(wrong, secret), env)).toThrow(
      /"openAiCompatible" must be true or false \(false: the server has no OpenAI-compatible endpoint, \/v1\); got "no"/,
    );
  });

  it('refuses a world-readable secret file, naming chmod 600', () => {
    const file = configFile(telegram({ file: 'telegram.secret' }), {
      'telegram.secret': { value: 'hook_secret-1', mode: 0o644 },
    });
    expect(() => loadChannelsConfig(file, { TG_TOKEN: '123:abc' })).toThrow(
      /can be read by other users.*chmod 600/,
    );
  });

  it('refuses a missing variable, a missing file and a secret written inline, naming the fix', () => {
    expect(() =>
      loadChannelsConfig(configFile(telegram({ env: 'TG_SECRET' })), { TG_TOKEN: '123:abc' }),
    ).toThrow(/TG_SECRET is not set/);
    expect(() => loadChannelsConfig(configFile(telegram({ file: 'none' })), { TG_TOKEN: '123:abc' })).toThrow(
      /does not exist/,
    );
    expect(() => loadChannelsConfig(configFile(telegram('inline-secret')), { TG_TOKEN: '123:abc' })).toThrow(
      /written in the file itself.*"env"/,
    );
    expect(() => loadChannelsConfig(configFile({ channels: [{ platform: 'fax' }] }))).toThrow(
      /unknown platform "fax"/,
    );
  });

  it('builds Messenger and Instagram channels from the same Meta app secrets', () => {
    const meta = {
      pageAccessToken: { env: 'PAGE_TOKEN' },
      appSecret: { env: 'APP_SECRET' },
      verifyToken: { env: 'VERIFY' },
    };
    const file = configFile({
      channels: [
        { platform: 'messenger', ...meta },
        { platform: 'instagram', name: 'ig-shop', ...meta },
      ],
    });
    const loaded = loadChannelsConfig(file, { PAGE_TOKEN: 'EAAG', APP_SECRET: 's', VERIFY: 'v' });
    expect(loaded.webhooks.map((hook) => [hook.name, hook.platform])).toEqual([
      ['messenger', 'messenger'],
      ['ig-shop', 'instagram'],
    ]);
    expect(() => loadChannelsConfig(file, { APP_SECRET: 's', VERIFY: 'v' })).toThrow(
      /channels\[0\]\.pageAccessToken: the environment variable PAGE_TOKEN is not set/,
    );
  });

  it('reads the WhatsApp template for the closed 24-hour window, and refuses one it cannot send, naming the shape', () => {
    const whatsapp = (template: unknown) =>
      configFile({
        channels: [
          {
            platform: 'whatsapp',
            phoneNumberId: '1098765',
            accessToken: { env: 'WA_TOKEN' },
            appSecret: { env: 'APP_SECRET' },
            verifyToken: { env: 'VERIFY' },
            template,
          },
        ],
      });
    const env = { WA_TOKEN: 't', APP_SECRET: 's', VERIFY: 'v' };
    expect(
      loadChannelsConfig(whatsapp({ name: 'ripresa_conversazione', language: 'it' }), env).channels,
    ).toHaveLength(1);
    for (const bad of ['ripresa', { name: 'Ripresa Conversazione', language: 'it' }, { name: 'ripresa' }])
      expect(() => loadChannelsConfig(whatsapp(bad), env)).toThrow(
        /channels\[0\]\.template must be \{ "name": .*approved in WhatsApp Manager/,
      );
  });
});

describe('loadChannelsConfig: Telegram polling', () => {
  it('builds a polling channel without a secret token and no webhook to register; refuses polling with a secret token', () => {
    const polling = configFile({
      channels: [{ platform: 'telegram', token: { env: 'TG_TOKEN' }, mode: 'polling' }],
    });
    const loaded = loadChannelsConfig(polling, { TG_TOKEN: '123:abc' });
    expect(loaded.channels[0]!.listen).toBeTypeOf('function');
    expect(loaded.webhooks).toEqual([]);
    const both = configFile({
      channels: [
        { platform: 'telegram', token: { env: 'TG_TOKEN' }, secretToken: { env: 'S' }, mode: 'polling' },
      ],
    });
    expect(() => loadChannelsConfig(both, { TG_TOKEN: '123:abc', S: 'x' })).toThrow(
      /"mode": "polling" and a webhook "secretToken" together.*Remove "secretToken"/,
    );
  });
});
