import { expect, it } from 'vitest';
import { testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { ScriptedChannel, scriptedUpdate } from '../test-support/scripted-channel.js';

// The seam with a mock channel (ScriptedChannel, labelled) and a recording sessionTrees (mock, labelled).

it("a channel's turns tell sessionTrees the channel's user, so an experiment gives them one variant in every conversation", async () => {
  const asked: [string, string | null][] = [];
  const channel = new ScriptedChannel();
  const { app } = testApp({
    agent: handoffAgent({
      sessionTrees: {
        treeFor: async (sessionId, session) => {
          asked.push([sessionId, session?.userId ?? null]);
          return null;
        },
      },
    }),
    channels: { channels: [channel], retryDelayMs: 20, pollMs: 50 },
  });
  try {
    // The same user in two conversations (a direct chat and a group), and another user.
    for (const [id, chat, user] of [
      ['1', '42', '7'],
      ['2', '-900', '7'],
      ['3', '43', '8'],
    ] as const) {
      const response = await app.request(
        '/channels/scripted/webhook',
        scriptedUpdate({ id, chat, user, text: 'hello' }),
      );
      expect(response.status).toBe(200);
    }
    await expect.poll(() => asked.length).toBe(3);
    expect(asked.map(([, userId]) => userId)).toEqual(['scripted:7', 'scripted:7', 'scripted:8']);
    // Two conversations, two sessions: the unit is the user, not the session.
    expect(new Set(asked.map(([sessionId]) => sessionId)).size).toBe(3);
  } finally {
    await app.shutdown();
  }
});
