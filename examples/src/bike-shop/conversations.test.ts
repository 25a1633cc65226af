import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { describeConversations } from '@treeagent/testing/vitest';
import { afterAll } from 'vitest';
import { bikeShopTree } from './tree.js';

// The repair booking reads relative dates ("domani") against this clock: Tuesday 1 December 2026, 10:00 in Rome.
const now = () => new Date('2026-12-01T09:00:00Z');
// Sessions live in a real SQLite file, so that `restart: true` re-opens it as a restarted server does.
const directory = mkdtempSync(join(tmpdir(), 'bike-shop-conversations-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeConversations({
  files: ['orders.yaml', 'knowledge.yaml', 'repair.yaml'].map((name) =>
    fileURLToPath(new URL(`conversations/${name}`, import.meta.url)),
  ),
  agent: () => ({
    tree: bikeShopTree({ now }),
    sessionStore: new SqliteSessionStore(join(directory, 'sessions.db')),
  }),
});
