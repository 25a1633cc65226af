import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '@treeagent/core/adapter';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { ANALYTICS_FIXTURE } from '@treeagent/core/conformance';
import { PersonalData } from '@treeagent/server';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import type { Output } from '../output.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const quiet: Output = { log: () => {}, write: () => {}, error: () => {} };

/** The user's texts, each unique, so a byte scan of the file finds any copy of them. */
const MARKERS = {
  user: 'crm:erasemeUSER4711',
  message: 'MKmessageQUIXOTE',
  answer: 'MKanswerROCINANTE',
  state: 'MKstateDULCINEA',
  note: 'MKnoteSANCHOPANZA',
  fileName: 'MKfilenameBARATARIA',
  fileContent: 'MKfilecontentMAMBRINO',
  summary: 'MKsummaryTOBOSO',
};

const FACT = ANALYTICS_FIXTURE[0]!.facts[0]!;

/** Another user's text, which must survive (the scan is not blind). */
const KEPT = 'MKkeptCERVANTES';

/**
 * Writes what a real deployment stores about a user across several turns: history (long enough to
 * spill into overflow pages), the session record rewritten each turn (so stale copies are freed),
 * turn facts, an uploaded file no message references (1.5 MiB: whole chunk pages), a handoff with an
 * operator's note, its webhook delivery dead-lettered, and the user-to-session link.
 */
async function writeUserData(stores: SqliteStores): Promise<void> {
  const outbox = stores.sessionStore.handoffOutbox();
  for (const [sessionId, userId, marker] of [
    ['s-erase-1', MARKERS.user, ''],
    ['s-erase-2', MARKERS.user, ''],
    ['s-keep', 'crm:other', KEPT],
  ] as const) {
    await stores.sessionTokens.save(sessionId, 'f'.repeat(64), userId);
    const file = await stores.fileStore.put({
      name: `${marker || MARKERS.fileName}.pdf`,
      mimeType: 'application/pdf',
      data: new TextEncoder().encode(`${marker || MARKERS.fileContent} `.repeat(70_000)),
      origin: 'chat',
      sessionId,
    });
    let record: SessionRecord = emptySessionRecord(sessionId, new Date().toISOString());
    for (let turn = 1; turn <= 6; turn++) {
      const at = new Date(Date.UTC(2026, 10, 3, 10, turn)).toISOString();
      const text = marker || `${MARKERS.message} ${turn} ${'lorem ipsum '.repeat(turn * 120)}`;
      const next: SessionRecord = {
        ...record,
        version: turn,
        turn,
        state: { said: `${marker || MARKERS.state} ${turn} ${'x'.repeat(turn * 900)}` },
        files: [file],
        updatedAt: at,
      };
      await stores.sessionStore.commit({
        record: next,
        history: [
          { role: 'user', content: text, turn, at },
          { role: 'assistant', content: `${marker || MARKERS.answer} ${turn}`, turn, at },
        ],
        expectedVersion: record.version,
        facts: [{ ...FACT, sessionId, turn, at, message: text }],
      });
      record = next;
      await stores.sessionTokens.touch(sessionId, new Date());
    }
    await stores.handoffQueue.put({
      sessionId,
      status: 'closed',
      queue: 'support',
      reason: 'asked for a person',
      summary: marker || MARKERS.summary,
      since: '2026-11-03T10:00:00.000Z',
      operator: null,
      claimedAt: null,
      lastUserMessageAt: null,
      closedAt: '2026-11-03T10:05:00.000Z',
      outcome: 'closed',
      notes: [
        {
          at: '2026-11-03T10:01:00.000Z',
          operator: { id: 'bruno', name: 'Bruno' },
          text: `${marker || MARKERS.note} ${'n'.repeat(2000)}`,
        },
      ],
    });
    const event = {
      id: `ev-${sessionId}`,
      type: 'handoff.started' as const,
      at: '2026-11-03T10:00:00.000Z',
      sessionId,
      queue: 'support',
      reason: 'asked for a person',
      summary: marker || MARKERS.summary,
    };
    await outbox.add([event], new Date());
    await outbox.lease(new Date(Date.now() + 1000), 10, 1000);
    await outbox.failed(event.id, 'HTTP 404', null);
  }
}

/** The markers found in the database file and its WAL: the equivalent of `strings file | grep`. */
function markersOnDisk(file: string): string[] {
  const bytes = [file, `${file}-wal`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
  expect(bytes).toContain(KEPT);
  return Object.values(MARKERS).filter((marker) => bytes.includes(marker));
}

describe('personal-data delete leaves no copy of the user in the SQLite file (issue #36)', () => {
  test('after `treeagent personal-data delete --yes` and a clean close, neither the .db nor the -wal holds a marker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeagent-erasure-'));
    dirs.push(dir);
    const data = join(dir, 'data');
    const stores = openSqlite(data);
    await writeUserData(stores);
    const file = stores.file;
    await stores.close();
    expect(markersOnDisk(file)).toEqual(Object.values(MARKERS));

    expect(
      await main(['personal-data', 'delete', '--user', MARKERS.user, '--data', data, '--yes'], quiet),
    ).toBe(0);
    expect(markersOnDisk(file)).toEqual([]);
  });

  test('while the server runs (stores open): the deletion is written to the file and the WAL is emptied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeagent-erasure-'));
    dirs.push(dir);
    const stores = openSqlite(join(dir, 'data'));
    try {
      await writeUserData(stores);
      const personalData = new PersonalData({
        sessionStore: stores.sessionStore,
        fileStore: stores.fileStore,
        tokens: stores.sessionTokens,
        auditLog: stores.auditLog,
        handoffQueue: stores.handoffQueue,
        outbox: stores.sessionStore.handoffOutbox(),
      });
      const { deleted } = await personalData.delete({ userId: MARKERS.user }, { id: 'anna', role: 'admin' });
      expect(deleted.sort()).toEqual(['s-erase-1', 's-erase-2']);
      expect(markersOnDisk(stores.file)).toEqual([]);
      // The other user's data is still there and readable.
      expect((await stores.sessionStore.history('s-keep')).length).toBe(12);
    } finally {
      await stores.close();
    }
  });
});
