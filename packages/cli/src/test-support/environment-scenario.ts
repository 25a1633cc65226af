import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { startServe } from '../commands/serve.js';
import { main } from '../main.js';
import { capture } from './capture.js';
import type { ScenarioStore } from './publish-scenario.js';
import { writeShopTree } from './versioned-tree.js';

/** Polls `check` until it returns true (or throws after `timeoutMs`): no fixed sleeps on a loaded machine. */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A chat session on a server: created, then each message's first answer. */
export async function chatSession(url: string): Promise<{ id: string; token: string }> {
  const response = await fetch(`${url}/api/v1/sessions`, { method: 'POST' });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`creating a session: HTTP ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { sessionId: string; token: string };
  return { id: created.sessionId, token: created.token };
}

export async function say(
  url: string,
  session: { id: string; token: string },
  message: string,
): Promise<string> {
  const response = await fetch(`${url}/api/v1/sessions/${session.id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-token': session.token },
    body: JSON.stringify({ message }),
  });
  const body = (await response.json()) as { messages?: { content: string }[] };
  if (!body.messages) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
  return body.messages[0]!.content;
}

/**
 * `treeagent serve --env production` on a backend: new sessions get the published version, a
 * session keeps the version it started on across a publish and a restart.
 */
export function describeEnvironmentScenario(name: string, openStore: () => Promise<ScenarioStore>): void {
  describe(`serve --env on ${name}`, () => {
    const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-serve-env-', import.meta.url)));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    test('sessions keep the version they started on across a publish and a restart; new sessions get the published one', async () => {
      const store = await openStore();
      const previousPoll = process.env.TREEAGENT_VERSION_POLL_MS;
      process.env.TREEAGENT_VERSION_POLL_MS = '200';
      const data = `${scratch}/data`;
      const storeOptions = Object.fromEntries(
        [
          ['databaseUrl', store.flags[store.flags.indexOf('--database-url') + 1]],
          ['schema', store.flags[store.flags.indexOf('--schema') + 1]],
        ].filter(([, value]) => store.flags.length && value),
      );
      const serveOptions = { port: '0', data, env: 'production', ...storeOptions };
      const tree = writeShopTree(scratch);
      const question = 'how long does shipping take';
      const publish = async (message: string) => {
        const output = capture();
        const code = await main(
          ['publish', 'production', tree, '-m', message, '--data', data, ...store.flags],
          output,
        );
        expect(output.err).toEqual([]);
        expect(code).toBe(0);
      };
      const out = capture();
      let server: Awaited<ReturnType<typeof startServe>> | null = null;
      try {
        const refused = await startServe(tree, serveOptions, out).catch((error: Error) => error);
        expect((refused as Error).message).toMatch(
          /--env production: nothing of "shop" is published there\. Publish a version first: treeagent publish production/,
        );

        await publish('first release');
        server = await startServe(tree, serveOptions, out);
        const early = await chatSession(server.url);
        expect(await say(server.url, early, question)).toBe('Shipping takes 2 days.');

        // The file changes and is published: new sessions switch within a poll, the early one does not.
        writeShopTree(scratch, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
        await publish('faster in town');
        const switches = () =>
          out.lines.filter((line) => / now serves version \w{12} of shop/.test(line)).length;
        await eventually(
          async () => switches() === 1,
          20_000,
          'the server switching to the published version',
        );
        const late = await chatSession(server.url);
        expect(await say(server.url, late, question)).toBe('Shipping takes 2 days, 1 in town.');
        expect(await say(server.url, early, question)).toBe('Shipping takes 2 days.');

        // A restart: each session is still on its version.
        await server.close();
        server = await startServe(tree, serveOptions, out);
        expect(await say(server.url, early, question)).toBe('Shipping takes 2 days.');
        expect(await say(server.url, late, question)).toBe('Shipping takes 2 days, 1 in town.');
        expect(await say(server.url, await chatSession(server.url), question)).toBe(
          'Shipping takes 2 days, 1 in town.',
        );

        // A rollback is followed too.
        expect(await main(['rollback', 'production', tree, '--data', data, ...store.flags], capture())).toBe(
          0,
        );
        await eventually(async () => switches() === 2, 20_000, 'the server following the rollback');
        expect(await say(server.url, await chatSession(server.url), question)).toBe('Shipping takes 2 days.');
        expect(await say(server.url, late, question)).toBe('Shipping takes 2 days, 1 in town.');
      } finally {
        await server?.close();
        if (previousPoll === undefined) delete process.env.TREEAGENT_VERSION_POLL_MS;
        else process.env.TREEAGENT_VERSION_POLL_MS = previousPoll;
        await store.dispose();
      }
    }, 120_000);
  });
}
