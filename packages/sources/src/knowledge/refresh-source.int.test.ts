import { HashedEmbedder } from '@treeagent/core';
import { PgVectorStore, PostgresSourceStore } from '@treeagent/postgres';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { describeCrawlScenario } from '../test-support/crawl-scenario.js';

describeCrawlScenario('PostgreSQL (pgvector and PostgresSourceStore)', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('crawl');
  const vectorStore = new PgVectorStore({
    connection: TEST_DATABASE_URL,
    schema,
    dimensions: new HashedEmbedder().dimensions,
  });
  const sourceStore = new PostgresSourceStore({ connection: TEST_DATABASE_URL, schema });
  return {
    vectorStore,
    sourceStore,
    close: async () => {
      await Promise.all([vectorStore.close(), sourceStore.close()]);
      await drop();
    },
  };
});
