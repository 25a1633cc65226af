import { describeAnalyticsStore } from '@treeagent/core/conformance';
import { PostgresSessionStore } from './index.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

// The same generated conversations and known answers as SQLite's: both give the same numbers.
describeAnalyticsStore('PostgresSessionStore', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('analytics');
  const store = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
  return {
    store,
    analytics: (now) => store.analytics(now),
    dispose: async () => {
      await store.close();
      await drop();
    },
  };
});
