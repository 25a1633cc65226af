import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@treeagent/sqlite';
import { describeOperatorStores } from '../test-support/describe-operator-stores.js';
import { InMemoryAuditLog } from './audit-log.js';
import { InMemoryOperatorSessions } from './operator-sessions.js';

describeOperatorStores(
  'in-memory operator stores',
  async () => ({
    sessions: new InMemoryOperatorSessions(),
    auditLog: new InMemoryAuditLog(),
    dispose: async () => {},
  }),
  {
    skip: [
      {
        reason: 'kept in process memory: nothing outlives the object',
        tests: [
          'a persistent store is seen by another instance on the same storage (restart, second process)',
        ],
      },
    ],
  },
);

describeOperatorStores('SQLite operator stores (openSqlite)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-operators-'));
  const opened = [openSqlite(directory)];
  return {
    sessions: opened[0]!.operatorSessions,
    auditLog: opened[0]!.auditLog,
    reopen: async () => {
      const other = openSqlite(directory);
      opened.push(other);
      return { sessions: other.operatorSessions, auditLog: other.auditLog };
    },
    dispose: async () => {
      for (const stores of opened) await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
