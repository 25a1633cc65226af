import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionStore } from '@treeagent/core';
import { InMemoryAuditLog, InMemoryHandoffQueue, InMemoryVersionStore } from '@treeagent/core/adapter';
import { openSqlite } from '@treeagent/sqlite';
import { InMemorySessionTokens } from '../auth/session-tokens.js';
import { describePersonalData } from '../test-support/describe-personal-data.js';

describePersonalData('in memory', async () => ({
  sessionStore: new InMemorySessionStore(),
  tokens: new InMemorySessionTokens(),
  auditLog: new InMemoryAuditLog(),
  handoffQueue: new InMemoryHandoffQueue(),
  keepsFacts: false,
  versions: new InMemoryVersionStore(),
  dispose: async () => {},
}));

describePersonalData('SQLite (openSqlite: one file, real stores)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-personal-data-'));
  const stores = openSqlite(directory);
  return {
    sessionStore: stores.sessionStore,
    tokens: stores.sessionTokens,
    auditLog: stores.auditLog,
    handoffQueue: stores.handoffQueue,
    fileStore: stores.fileStore,
    keepsFacts: true,
    versions: stores.versionStore,
    dispose: async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
