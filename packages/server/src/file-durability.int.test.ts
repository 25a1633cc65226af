import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import {
  requirePostgres,
  SERVER_PROCESS_API_KEY,
  serverStarter,
  TEST_DATABASE_URL,
  testSchema,
} from './test-support/server-process.js';

/**
 * A file the server acknowledged with 201 is durable: the server process is killed with SIGKILL
 * right after the answer, a new one starts on the same store, and the file downloads byte for byte
 * (SQLite file store in the data directory; PostgreSQL file store shared by processes).
 */

const auth = { Authorization: `Bearer ${SERVER_PROCESS_API_KEY}` };
const cleanups = cleanupsAfterEach();
const start = serverStarter(cleanups);

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function uploadThenKill(args: string[]) {
  const first = await start(args);
  const session = (await (
    await fetch(`${first.url}/api/v1/sessions`, { method: 'POST', headers: auth })
  ).json()) as {
    sessionId: string;
    token: string;
  };
  const data = randomBytes(3 * 1024 * 1024 + 17);
  const form = new FormData();
  form.append('file', new Blob([data], { type: 'application/octet-stream' }), 'scan.bin');
  const uploaded = await fetch(`${first.url}/api/v1/sessions/${session.sessionId}/files`, {
    method: 'POST',
    headers: { ...auth, 'X-Session-Token': session.token },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const file = (await uploaded.json()) as { id: string; size: number; url: string };
  expect(file.size).toBe(data.byteLength);
  expect(await first.kill()).toBe('SIGKILL');

  const second = await start(args);
  const download = await fetch(`${second.url}${file.url}`, {
    headers: { ...auth, 'X-Session-Token': session.token },
  });
  expect(download.status).toBe(200);
  expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(data));
}

describe('a file acknowledged with 201 survives kill -9', () => {
  it('SQLite (the data directory)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-files-kill-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    await uploadThenKill(['sqlite', directory]);
  }, 60_000);

  it('PostgreSQL', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('files_kill');
    cleanups.push(drop);
    await uploadThenKill(['postgres', TEST_DATABASE_URL, schema]);
  }, 60_000);
});
