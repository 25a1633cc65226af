import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { PostgresFileStore, PostgresSessionStore, PostgresSessionTokens } from '@treeagent/postgres';
import { expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { main } from '../main.js';
import type { Output } from '../output.js';

const quiet: Output = { log: () => {}, write: () => {}, error: () => {} };

it('treeagent personal-data on PostgreSQL exports an unreferenced upload and a dead webhook delivery, and deletes both', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('cli_personal');
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-personal-pg-'));
  const where = { connection: TEST_DATABASE_URL, schema };
  const sessionStore = new PostgresSessionStore(where);
  const tokens = new PostgresSessionTokens(where);
  const fileStore = new PostgresFileStore(where);
  try {
    const at = new Date().toISOString();
    await tokens.save('pg-erase', 'f'.repeat(64), 'crm:pg');
    await sessionStore.commit({
      record: { ...emptySessionRecord('pg-erase', at), version: 1, turn: 1 },
      history: [{ role: 'user', content: 'hello', turn: 1, at }],
      expectedVersion: 0,
    });
    const file = await fileStore.put({
      name: 'unreferenced.txt',
      mimeType: 'text/plain',
      data: new TextEncoder().encode('never mentioned'),
      origin: 'chat',
      sessionId: 'pg-erase',
    });
    const outbox = sessionStore.handoffOutbox();
    const event = {
      id: 'ev-pg-erase',
      type: 'handoff.started' as const,
      at,
      sessionId: 'pg-erase',
      queue: 'support',
      reason: 'asked for a person',
      summary: 'the order of Maria',
    };
    await outbox.add([event], new Date());
    await outbox.lease(new Date(Date.now() + 1000), 10, 1000);
    await outbox.failed(event.id, 'HTTP 404', null);

    const cli = ['--user', 'crm:pg', '--database-url', TEST_DATABASE_URL, '--schema', schema];
    const out = join(dir, 'export.json');
    expect(await main(['personal-data', 'export', ...cli, '--out', out], quiet)).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8')) as {
      sessions: { files: { id: string }[]; webhookDeliveries: { status: string; event: { id: string } }[] }[];
    };
    expect(exported.sessions[0]!.files.map((item) => item.id)).toEqual([file.id]);
    expect(
      exported.sessions[0]!.webhookDeliveries.map((delivery) => [delivery.event.id, delivery.status]),
    ).toEqual([['ev-pg-erase', 'dead']]);

    expect(await main(['personal-data', 'delete', ...cli, '--yes'], quiet)).toBe(0);
    expect(await outbox.sessionDeliveries(['pg-erase'])).toEqual([]);
    expect(await outbox.retry('ev-pg-erase', new Date())).toBe(false);
    expect(await fileStore.metadata(file.id)).toBeNull();
    expect(await sessionStore.load('pg-erase')).toBeNull();
  } finally {
    await Promise.all([sessionStore.close(), tokens.close(), fileStore.close()]);
    rmSync(dir, { recursive: true, force: true });
    await drop();
  }
});
