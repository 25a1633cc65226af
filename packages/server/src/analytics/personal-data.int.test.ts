import { emptySessionRecord } from '@treeagent/core/adapter';
import { ANALYTICS_FIXTURE } from '@treeagent/core/conformance';
import {
  PostgresAuditLog,
  PostgresFileStore,
  PostgresHandoffQueue,
  PostgresSessionStore,
  PostgresSessionTokens,
  PostgresVersionStore,
} from '@treeagent/postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describePersonalData } from '../test-support/describe-personal-data.js';
import { requirePostgres, TEST_DATABASE_URL, testSchema } from '../test-support/server-process.js';
import { PersonalData } from './personal-data.js';

describePersonalData('PostgreSQL (real stores in a schema of their own)', async () => {
  await requirePostgres();
  const { schema, drop } = testSchema('personal');
  const connection = TEST_DATABASE_URL;
  const sessionStore = new PostgresSessionStore({ connection, schema });
  const tokens = new PostgresSessionTokens({ connection, schema });
  const auditLog = new PostgresAuditLog({ connection, schema });
  const handoffQueue = new PostgresHandoffQueue({ connection, schema });
  const fileStore = new PostgresFileStore({ connection, schema });
  const versions = new PostgresVersionStore({ connection, schema });
  return {
    sessionStore,
    tokens,
    auditLog,
    handoffQueue,
    fileStore,
    keepsFacts: true,
    versions,
    dispose: async () => {
      await Promise.all([
        sessionStore.close(),
        tokens.close(),
        auditLog.close(),
        handoffQueue.close(),
        fileStore.close(),
        versions.close(),
      ]);
      await drop();
    },
  };
});

describe('PostgreSQL: a deletion VACUUMs every table it touched (docs/privacy.md)', () => {
  it('the rows are gone and each table was vacuumed by the request', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('vacuum');
    const connection = TEST_DATABASE_URL;
    const sessionStore = new PostgresSessionStore({ connection, schema });
    const tokens = new PostgresSessionTokens({ connection, schema });
    const auditLog = new PostgresAuditLog({ connection, schema });
    const handoffQueue = new PostgresHandoffQueue({ connection, schema });
    const fileStore = new PostgresFileStore({ connection, schema });
    const outbox = sessionStore.handoffOutbox();
    const client = new pg.Client({ connectionString: connection });
    await client.connect();
    try {
      const at = new Date().toISOString();
      await tokens.save('vacuum-1', 'f'.repeat(64), 'crm:vacuum');
      await sessionStore.commit({
        record: { ...emptySessionRecord('vacuum-1', at), version: 1, turn: 1 },
        history: [{ role: 'user', content: 'MKvacuumMESSAGE', turn: 1, at }],
        expectedVersion: 0,
        facts: [{ ...ANALYTICS_FIXTURE[0]!.facts[0]!, sessionId: 'vacuum-1', message: 'MKvacuumMESSAGE' }],
      });
      await fileStore.put({
        name: 'MKvacuumFILE.txt',
        mimeType: 'text/plain',
        data: new TextEncoder().encode('MKvacuumCONTENT'),
        origin: 'chat',
        sessionId: 'vacuum-1',
      });
      await handoffQueue.put({
        sessionId: 'vacuum-1',
        status: 'waiting',
        queue: 'support',
        reason: 'asked for a person',
        summary: 'MKvacuumSUMMARY',
        since: at,
        operator: null,
        claimedAt: null,
        lastUserMessageAt: null,
        closedAt: null,
        outcome: null,
        notes: [],
      });
      await outbox.add(
        [
          {
            id: 'ev-vacuum',
            type: 'handoff.started',
            at,
            sessionId: 'vacuum-1',
            queue: 'support',
            reason: 'r',
            summary: 'MKvacuumSUMMARY',
          },
        ],
        new Date(Date.now() + 3_600_000),
      );

      const personalData = new PersonalData({
        sessionStore,
        fileStore,
        tokens,
        auditLog,
        handoffQueue,
        outbox,
      });
      const started = new Date();
      expect(await personalData.delete({ userId: 'crm:vacuum' }, { id: 'anna', role: 'admin' })).toEqual({
        userId: 'crm:vacuum',
        deleted: ['vacuum-1'],
      });

      const touched = [
        'treeagent_sessions',
        'treeagent_history',
        'treeagent_turn_facts',
        'treeagent_files',
        'treeagent_file_chunks',
        'treeagent_session_tokens',
        'treeagent_handoff_queue',
        'treeagent_handoff_outbox',
      ];
      for (const table of touched) {
        const { rows } = await client.query<{ count: string }>(
          `SELECT count(*) FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`,
        );
        expect([table, Number(rows[0]!.count)]).toEqual([table, 0]);
      }
      const vacuumed = async () => {
        const { rows } = await client.query<{ relname: string; last_vacuum: Date | null }>(
          'SELECT relname, last_vacuum FROM pg_stat_user_tables WHERE schemaname = $1',
          [schema],
        );
        return rows
          .filter((row) => row.last_vacuum !== null && row.last_vacuum >= new Date(started.getTime() - 1000))
          .map((row) => row.relname)
          .sort();
      };
      await expect.poll(vacuumed, { timeout: 5000 }).toEqual(expect.arrayContaining(touched.sort()));
    } finally {
      await client.end();
      await Promise.all([
        sessionStore.close(),
        tokens.close(),
        auditLog.close(),
        handoffQueue.close(),
        fileStore.close(),
      ]);
      await drop();
    }
  });
});
