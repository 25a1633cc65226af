import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { capture } from '../test-support/capture.js';
import { startServe } from './serve.js';

// `treeagent serve --channels` with the Slack and Teams entries of channels.json: the channels are
// served at their webhooks, and the URLs to register are printed with where they go.

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A one-agent tree file and Slack's signing secret in a 0600 file (`slack.secret`); resolves to the tree's path. */
function writeTreeAndSlackSecret(): string {
  const tree = join(scratch, 'tree.json');
  const nodes = [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
  ];
  writeFileSync(tree, JSON.stringify({ nodes }));
  const secret = join(scratch, 'slack.secret');
  writeFileSync(secret, 'slack-signing-secret\n');
  chmodSync(secret, 0o600);
  return tree;
}

describe('treeagent serve --channels (Slack and Teams)', () => {
  it('serves both webhooks and prints the URL to register on each platform', async () => {
    const tree = writeTreeAndSlackSecret();
    const channels = join(scratch, 'channels.json');
    writeFileSync(
      channels,
      JSON.stringify({
        publicUrl: 'https://help.example.com',
        channels: [
          {
            platform: 'slack',
            botToken: { env: 'SERVE_TEST_SLACK_TOKEN' },
            signingSecret: { file: 'slack.secret' },
          },
          {
            platform: 'teams',
            appId: '00000000-0000-4000-8000-00000000b07a',
            tenantId: '11111111-2222-4333-8444-555555555555',
            appPassword: { env: 'SERVE_TEST_TEAMS_PASSWORD' },
          },
        ],
      }),
    );
    process.env.SERVE_TEST_SLACK_TOKEN = 'xoxb-1-2-abc';
    process.env.SERVE_TEST_TEAMS_PASSWORD = 'client~secret';
    const out = capture();
    const server = await startServe(tree, { port: '0', data: join(scratch, 'data'), channels }, out).finally(
      () => {
        delete process.env.SERVE_TEST_SLACK_TOKEN;
        delete process.env.SERVE_TEST_TEAMS_PASSWORD;
      },
    );
    try {
      expect(out.out).toContain(
        `Channel slack (slack): ${server.url}/channels/slack/webhook here; register https://help.example.com/channels/slack/webhook as the Request URL of Event Subscriptions and of Interactivity & Shortcuts.`,
      );
      expect(out.out).toContain(
        `Channel teams (teams): ${server.url}/channels/teams/webhook here; register https://help.example.com/channels/teams/webhook as the messaging endpoint of the Azure Bot (Settings → Configuration).`,
      );
      // Slack's handshake, signed with the secret from the 0600 file, is answered; an unsigned one is 401.
      const body = JSON.stringify({ type: 'url_verification', challenge: 'c-123' });
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = `v0=${createHmac('sha256', 'slack-signing-secret').update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const handshake = await fetch(`${server.url}/channels/slack/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': signature,
        },
        body,
      });
      expect(await handshake.json()).toEqual({ challenge: 'c-123' });
      const unsigned = await fetch(`${server.url}/channels/slack/webhook`, { method: 'POST', body });
      expect(unsigned.status).toBe(401);
      // Teams without a bearer token: 401.
      const teams = await fetch(`${server.url}/channels/teams/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'message', text: 'hi' }),
      });
      expect(teams.status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('"webChat": false and "openAiCompatible": false: a server with only its platforms (404 on /api/v1/sessions and /v1)', async () => {
    const tree = writeTreeAndSlackSecret();
    const config = (switches: object) => {
      const file = join(scratch, `channels-${Object.keys(switches).length}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          ...switches,
          channels: [
            {
              platform: 'slack',
              botToken: { env: 'SERVE_TEST_SLACK_TOKEN' },
              signingSecret: { file: 'slack.secret' },
            },
          ],
        }),
      );
      return file;
    };
    process.env.SERVE_TEST_SLACK_TOKEN = 'xoxb-1-2-abc';
    const surfaces = async (channels: string) => {
      const server = await startServe(
        tree,
        { port: '0', data: join(scratch, 'data-only'), channels },
        capture(),
      );
      try {
        const session = await fetch(`${server.url}/api/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        const models = await fetch(`${server.url}/v1/models`);
        const slack = await fetch(`${server.url}/channels/slack/webhook`, { method: 'POST', body: '{}' });
        return { webChat: session.status, models: models.status, slack: slack.status };
      } finally {
        await server.close();
      }
    };
    try {
      expect(await surfaces(config({}))).toEqual({ webChat: 201, models: 200, slack: 401 });
      expect(await surfaces(config({ webChat: false, openAiCompatible: false }))).toEqual({
        webChat: 404,
        models: 404,
        slack: 401,
      });
    } finally {
      delete process.env.SERVE_TEST_SLACK_TOKEN;
    }
  });
});
