import type { BusEvent } from '@treeagent/core/adapter';
import { PostgresEventBus } from '@treeagent/postgres';
import { describe, expect, it } from 'vitest';
import { requirePostgres, TEST_DATABASE_URL } from '../test-support/server-process.js';

describe('PostgresEventBus', () => {
  it('fans events out to every process on the database, and resyncs after losing its connection', async () => {
    await requirePostgres();
    const channel = `treeagent_test_${process.pid}_${Date.now()}`;
    const first = new PostgresEventBus({ connection: TEST_DATABASE_URL, channel });
    const second = new PostgresEventBus({ connection: TEST_DATABASE_URL, channel });
    try {
      const heard: BusEvent[] = [];
      const mine: BusEvent[] = [];
      second.subscribe((event) => heard.push(event as BusEvent));
      first.subscribe((event) => mine.push(event as BusEvent));
      await Promise.all([first.ready(), second.ready()]);
      await first.publish({ kind: 'session', sessionId: 's1' });
      await first.publish({ kind: 'queue' });
      await expect.poll(() => heard).toEqual([{ kind: 'session', sessionId: 's1' }, { kind: 'queue' }]);
      await expect.poll(() => mine.length).toBe(2);

      // The listener's connection is killed (a database restart, a network cut): it comes back and says resync.
      const { Client } = (await import('pg')).default;
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`,
        [`LISTEN "${channel}"`],
      );
      await admin.end();
      await expect.poll(() => heard.some((event) => event.kind === 'resync'), { timeout: 10_000 }).toBe(true);
      await first.publish({ kind: 'queue' });
      await expect
        .poll(() => heard.filter((event) => event.kind === 'queue').length, { timeout: 10_000 })
        .toBe(2);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
