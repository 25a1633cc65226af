import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { channelsCheckCommand } from './channels.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function setup(secretMode: number) {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-cli-channels-'));
  directories.push(directory);
  writeFileSync(join(directory, 'token'), '123456:abc');
  writeFileSync(join(directory, 'secret'), 'hook_secret');
  chmodSync(join(directory, 'token'), 0o600);
  chmodSync(join(directory, 'secret'), secretMode);
  const file = join(directory, 'channels.json');
  writeFileSync(
    file,
    JSON.stringify({
      publicUrl: 'https://help.example.com',
      channels: [{ platform: 'telegram', token: { file: 'token' }, secretToken: { file: 'secret' } }],
    }),
  );
  const lines: string[] = [];
  const out = {
    log: (line: string) => lines.push(line),
    write: () => {},
    error: (line: string) => lines.push(line),
  };
  return { file, lines, out };
}

describe('treeagent channels check', () => {
  it('prints the webhook URL to register', async () => {
    const { file, lines, out } = setup(0o600);
    expect(await channelsCheckCommand(file, out)).toBe(0);
    expect(lines).toContain(
      'telegram (telegram): register https://help.example.com/channels/telegram/webhook',
    );
  });

  it('refuses a world-readable secret with INVALID_INPUT naming chmod 600', async () => {
    const { file, out } = setup(0o644);
    const error = await channelsCheckCommand(file, out).catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(/chmod 600/);
  });

  it('says where a Slack or Teams URL goes on the platform’s side', async () => {
    const { file, lines, out } = setup(0o600);
    writeFileSync(
      file,
      JSON.stringify({
        publicUrl: 'https://help.example.com',
        channels: [
          { platform: 'slack', botToken: { env: 'CLI_TEST_SLACK_TOKEN' }, signingSecret: { file: 'secret' } },
        ],
      }),
    );
    process.env.CLI_TEST_SLACK_TOKEN = 'xoxb-1-2-abc';
    try {
      expect(await channelsCheckCommand(file, out)).toBe(0);
    } finally {
      delete process.env.CLI_TEST_SLACK_TOKEN;
    }
    expect(lines).toContain(
      'slack (slack): register https://help.example.com/channels/slack/webhook as the Request URL of Event Subscriptions and of Interactivity & Shortcuts',
    );
  });
});
