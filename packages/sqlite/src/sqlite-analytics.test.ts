import { join } from 'node:path';
import { describeAnalyticsStore } from '@treeagent/core/conformance';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { tempDir } from './test-support/temp-dir.js';

// The report figures over the generated conversations with known answers (docs/analytics.md).
describeAnalyticsStore('SqliteSessionStore', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteSessionStore(join(dir, 'sessions.db'));
  return {
    store,
    analytics: (now) => store.analytics(now),
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});

// The same figures when the queries run on the store's own connection (`analyticsReads: 'inline'`).
describeAnalyticsStore('SqliteSessionStore (reads inline)', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteSessionStore(join(dir, 'sessions.db'), { analyticsReads: 'inline' });
  return {
    store,
    analytics: (now) => store.analytics(now),
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});
