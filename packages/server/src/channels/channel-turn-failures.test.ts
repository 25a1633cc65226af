import type { NodeDefinition } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import { serverMessage } from '../i18n/server-messages.js';
import { testApp } from '../test-support/fixtures.js';
import { handoffAgent, handoffNodes } from '../test-support/handoff.js';
import { ScriptedChannel, scriptedUpdate } from '../test-support/scripted-channel.js';
import { loggedUpdateId } from './channel-inbox-worker.js';

// The seam with a mock channel (ScriptedChannel, labelled): a turn that fails.

const user = { chat: '42', user: '7' };

describe('a channel turn that fails', () => {
  it('a callback that throws runs once (no retries of its side effects) and the user is told something went wrong', async () => {
    let runs = 0;
    const nodes = handoffNodes().map(
      (node): NodeDefinition =>
        node.id === 6
          ? {
              ...(node as Extract<NodeDefinition, { type: 'emit' }>),
              emit: () => {
                runs++;
                throw new Error('the payment API refused the card');
              },
            }
          : node,
    );
    const channel = new ScriptedChannel();
    const { app, logger } = testApp({
      agent: handoffAgent({ nodes }),
      channels: { channels: [channel], retryDelayMs: 10, pollMs: 20, inbox: { maxAttempts: 5 } },
    });
    try {
      const response = await app.request(
        '/channels/scripted/webhook',
        scriptedUpdate({ id: 'wamid.M1', ...user, text: 'fail' }),
      );
      expect(response.status).toBe(200);
      await expect.poll(() => channel.texts()).toEqual([serverMessage('en', 'serverError')]);
      // Past when four retries would have run.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(runs).toBe(1);
      expect(channel.texts()).toHaveLength(1);
      const lines = logger.entries.map((entry) => entry.message).join('\n');
      expect(lines).toContain(`update ${loggedUpdateId('wamid.M1')}`);
      expect(lines).not.toContain('wamid.M1');
      const metrics = await (await app.request('/metrics')).text();
      expect(metrics).toContain(
        'treeagent_channel_messages_received_total{channel="scripted",result="failed"} 1',
      );
    } finally {
      await app.shutdown();
    }
  });
});
