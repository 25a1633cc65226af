import { rejection } from '@treeagent/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PgVectorStore, PostgresSessionStore } from './index.js';
import { testAgent } from './test-support/agent.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';
import { closedPort, TcpProxy } from './test-support/tcp-proxy.js';

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

const target = new URL(TEST_DATABASE_URL);
const urlAt = (port: number) => {
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
};

function store(schema: string, connection: string): PostgresSessionStore {
  const created = new PostgresSessionStore({ connection, schema });
  cleanups.push(() => created.close());
  return created;
}

describe('a store that is down', () => {
  it('fails with SESSION_STORE saying where, and the session is intact when the store comes back', async () => {
    const { schema, drop } = testSchema('down');
    cleanups.push(drop);
    const up = testAgent({ name: 'up', sessionStore: store(schema, TEST_DATABASE_URL) });
    await up.send('s', 'alpha');
    await up.send('s', 'beta');
    const before = await up.sessionStore.load('s');
    const history = await up.history('s');

    const port = await closedPort();
    const down = testAgent({ name: 'down', sessionStore: store(schema, urlAt(port)) });
    const error = await rejection(down.send('s', 'alpha'));
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${port} is unreachable (ECONNREFUSED)`);
    const direct = await rejection(down.sessionStore.load('s'));
    expect(direct.code).toBe('SESSION_STORE');

    const back = testAgent({ name: 'back', sessionStore: store(schema, TEST_DATABASE_URL) });
    expect(await back.sessionStore.load('s')).toEqual(before);
    expect(await back.history('s')).toEqual(history);
    expect((await back.send('s', 'alpha')).turn).toBe(3);
  });

  it('the same store recovers after an outage, also one that cuts an interaction in the middle', async () => {
    const { schema, drop } = testSchema('outage');
    cleanups.push(drop);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    cleanups.push(() => proxy.stop());
    const sessionStore = store(schema, urlAt(proxy.port));
    const agent = testAgent({ name: 'a', sessionStore });
    const slow = testAgent({ name: 'slow', sessionStore, delayMs: 300 });
    await agent.send('s', 'alpha');
    await agent.send('s', 'beta');
    const before = (await sessionStore.load('s'))!;
    const history = await sessionStore.history('s');

    // Down between interactions: every operation fails with SESSION_STORE.
    await proxy.stop();
    expect((await rejection(agent.send('s', 'alpha'))).code).toBe('SESSION_STORE');
    expect((await rejection(sessionStore.history('s'))).message).toContain('unreachable');

    // Back: the same store instance reconnects, the session is as it was.
    await proxy.start();
    expect(await sessionStore.load('s')).toEqual(before);
    expect((await agent.send('s', 'alpha')).turn).toBe(3);

    // Down in the middle of an interaction (after load, before commit): nothing is saved.
    const afterThree = (await sessionStore.load('s'))!;
    const cut = rejection(slow.send('s', 'beta'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await proxy.stop();
    expect((await cut).code).toBe('SESSION_STORE');
    await proxy.start();
    expect(await sessionStore.load('s')).toEqual(afterThree);
    const afterCut = await sessionStore.history('s');
    expect(afterCut).toHaveLength(6);
    expect(afterCut.slice(0, 4)).toEqual(history);
    expect((await slow.send('s', 'beta')).turn).toBe(4);
  });

  it('the vector store fails with VECTOR_STORE saying where', async () => {
    const port = await closedPort();
    const vectors = new PgVectorStore({ connection: urlAt(port), dimensions: 2 });
    cleanups.push(() => vectors.close());
    const error = await rejection(vectors.ids('c'));
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${port} is unreachable`);
  });
});
