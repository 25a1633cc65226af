import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import {
  chat,
  requirePostgres,
  serverStarter,
  TEST_DATABASE_URL,
  testSchema,
} from './test-support/server-process.js';

/**
 * A server process is killed with SIGKILL in the middle of a turn (holding the session's lock);
 * another process must serve the session promptly — not after the 30 s SQLite lease — and the
 * killed turn must not have been saved. SQLite (dead holder detected by its pid) and PostgreSQL
 * (the advisory lock dies with the killed process's connection).
 */

const cleanups = cleanupsAfterEach();
const startProcess = serverStarter(cleanups);
const start = (args: string[], env: Record<string, string>) => startProcess(args, { env });

async function killMidTurnThenTakeOver(args: string[]): Promise<number> {
  // The first process's turns wait 20 s in a callback: it dies holding the lock.
  const first = await start(args, {
    TREEAGENT_TEST_TURN_DELAY_MS: '20000',
    TREEAGENT_TEST_LEASE_MS: '30000',
  });
  const second = await start(args, { TREEAGENT_TEST_TURN_DELAY_MS: '5', TREEAGENT_TEST_LEASE_MS: '30000' });
  expect((await chat(second.url, 'taken', 'first')).turn).toBe(1);
  const hanging = chat(first.url, 'taken', 'never acknowledged').catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await first.kill()).toBe('SIGKILL');
  await hanging;
  const started = Date.now();
  const result = await chat(second.url, 'taken', 'after the kill');
  const waited = Date.now() - started;
  expect(result.status).toBe(200);
  // The killed turn saved nothing: this is turn 2.
  expect(result.turn).toBe(2);
  return waited;
}

describe('a session held by a killed process is taken over promptly', () => {
  it('SQLite: the dead holder is detected (no 30 s lease wait)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-takeover-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const waited = await killMidTurnThenTakeOver(['sqlite', directory]);
    expect(waited).toBeLessThan(5000);
  }, 60_000);

  it('PostgreSQL: the advisory lock is freed with the dead connection', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('takeover');
    cleanups.push(drop);
    const waited = await killMidTurnThenTakeOver(['postgres', TEST_DATABASE_URL, schema]);
    expect(waited).toBeLessThan(5000);
  }, 60_000);
});
