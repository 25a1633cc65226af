import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { describe, expect, it } from 'vitest';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { testOperatorAccounts } from '../test-support/operators.js';
import { ScriptedChannel, scriptedUpdate } from '../test-support/scripted-channel.js';

// The seam with a mock channel (ScriptedChannel, labelled): redaction of what a channel user wrote.

describe('redaction of channel messages', () => {
  it('a channel message is stored redacted, like any other, and the turn facts too', async () => {
    const channel = new ScriptedChannel();
    const { app, agent } = testApp({
      agent: handoffAgent({ redaction: {} }),
      operators: {
        directory: operatorDirectory(await testOperatorAccounts()),
        auditLog: new InMemoryAuditLog(),
      },
      channels: { channels: [channel], retryDelayMs: 20, pollMs: 50 },
    });
    try {
      const response = await app.request(
        '/channels/scripted/webhook',
        scriptedUpdate({
          id: '300',
          chat: '42',
          user: '7',
          text: 'hello, write to giulia.rossi@example.com',
        }),
      );
      expect(response.status).toBe(200);
      const sessionId = await agent.sessionStore.channelStore!().sessionOf(
        { channel: 'scripted', conversationId: '42', userId: '7' },
        'unused',
        new Date(),
      );
      const stored = JSON.stringify(await agent.history(sessionId));
      expect(stored).not.toContain('giulia.rossi@example.com');
      expect(stored).toMatch(/\[email\]/);
    } finally {
      await app.shutdown();
    }
  });
});
