import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TreeAgent } from '@treeagent/core';
import { assignVariant } from '@treeagent/core/adapter';
import { createApp } from '@treeagent/server';
import { afterAll, expect, test } from 'vitest';
import { main } from '../main.js';
import { openServerStores } from '../server-stores.js';
import { capture } from '../test-support/capture.js';
import { writeShopTree } from '../test-support/versioned-tree.js';
import { EnvironmentTrees } from './environment-trees.js';

// Inside the package, so that the tree's callbacks module resolves like a user's.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-experiment-users-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const answers = ['Shipping takes 2 days.', 'Shipping takes 1 day.'];

test("through createApp an experiment splits by the session's user (sticky across their sessions), else by session id; expired sessions' versions are forgotten and their tree unloaded", async () => {
  const data = `${scratch}/data`;
  const tree = writeShopTree(scratch);
  const run = async (...args: string[]) => {
    const output = capture();
    expect(await main([...args, '--data', data], output), output.lines.join('\n')).toBe(0);
  };
  await run('publish', 'production', tree, '-m', 'first release');
  writeShopTree(scratch, { shippingAnswer: answers[1] });
  await run('versions', tree, '-m', 'faster');
  const stores = await openServerStores({ data });
  try {
    const [second, first] = (await stores.versions.listVersions('shop')).map((version) => version.id);
    const variants = [
      { versionId: first!, percent: 50 },
      { versionId: second!, percent: 50 },
    ];
    await run('experiment', 'production', tree, '--split', `${first}=50`, `${second}=50`, '--name', 'speed');
    const answerOf = (versionId: string) => answers[versionId === first ? 0 : 1];
    // Two users the split sends to different variants, and the variant of each.
    const users = Array.from({ length: 20 }, (_, index) => `crm:${index}`);
    const onFirst = users.find((user) => assignVariant('speed', user, variants).versionId === first)!;
    const onSecond = users.find((user) => assignVariant('speed', user, variants).versionId === second)!;

    const environment = await EnvironmentTrees.open(stores.versions, tree, 'production', {}, capture());
    const agent = new TreeAgent({
      sessionTrees: environment,
      tree: environment.loaded.tree,
      ...stores.agentOptions,
    });
    const app = createApp({ agent, sessionTokens: stores.sessionTokens, sessions: { sweepIntervalMs: 0 } });
    const ask = async (userId?: string) => {
      const created = await app.request('/api/v1/sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(userId ? { userId } : {}),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const session = (await created.json()) as { sessionId: string; token: string };
      const response = await app.request(`/api/v1/sessions/${session.sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token },
        body: JSON.stringify({ message: 'how long does shipping take' }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const body = (await response.json()) as { messages: { content: string }[] };
      return { sessionId: session.sessionId, answer: body.messages[0]!.content };
    };
    try {
      // Each user gets their variant in every session: the split's unit is the user, not the session.
      for (const [user, versionId] of [
        [onFirst, first!],
        [onSecond, second!],
      ] as const) {
        for (let session = 0; session < 3; session++) {
          const asked = await ask(user);
          expect(asked.answer).toBe(answerOf(versionId));
          expect(await stores.versions.sessionVersion('shop', asked.sessionId)).toBe(versionId);
        }
      }
      // Without a user id, the session id is the unit.
      const anonymous = [];
      for (let session = 0; session < 4; session++) {
        const asked = await ask();
        const versionId = assignVariant('speed', asked.sessionId, variants).versionId;
        expect(asked.answer).toBe(answerOf(versionId));
        anonymous.push(asked.sessionId);
      }
      // The current version is the first: the second is loaded beside it for its sessions.
      expect(agent.loadedTrees()).toHaveLength(1);

      // Every session expires: the sweep deletes them, their pinned versions with them, and the
      // second version, used by no session any more, is unloaded.
      expect(await app.sweepExpiredSessions(new Date(Date.now() + 400 * 24 * 3600 * 1000))).toBe(10);
      for (const sessionId of anonymous)
        expect(await stores.versions.sessionVersion('shop', sessionId)).toBeNull();
      expect(agent.loadedTrees()).toEqual([]);
    } finally {
      await app.shutdown();
    }
  } finally {
    await stores.close();
  }
}, 60_000);
