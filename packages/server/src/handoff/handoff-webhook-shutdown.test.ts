import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@treeagent/sqlite';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';

const cleanups = cleanupsAfterEach();

/** A helpdesk endpoint that takes `delayMs` to answer 204, and says when a delivery arrived. */
async function slowReceiver(delayMs: number) {
  let arrived = 0;
  const server = createServer((request, response) => {
    arrived++;
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(204).end(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived: () => arrived,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a shutdown and the handoff webhook', () => {
  it('waits for a delivery in progress, so its result is recorded before the stores close', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-webhook-shutdown-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const receiver = await slowReceiver(400);
    cleanups.push(receiver.close);
    const data = openSqlite(directory);
    const { app, logger } = testApp({
      agent: handoffAgent({ sessionStore: data.sessionStore, fileStore: data.fileStore }),
      sessionTokens: data.sessionTokens,
      handoff: {
        queue: data.handoffQueue,
        webhook: { url: receiver.url, secret: 'a-shared-webhook-secret' },
      },
    });
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'a human please' })).status).toBe(200);
    await expect.poll(receiver.arrived).toBe(1);

    // As `treeagent serve` stops: the app, then the stores.
    await app.shutdown();
    const counts = await data.sessionStore.handoffOutbox().counts();
    await data.close();
    expect(counts).toEqual({ pending: 0, dead: 0 });
    expect(logger.entries.map((entry) => entry.message)).toEqual([]);
  });
});
