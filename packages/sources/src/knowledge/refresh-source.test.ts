import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryVectorStore } from '@treeagent/core';
import { InMemorySourceStore } from '@treeagent/core/adapter';
import { openSqlite } from '@treeagent/sqlite';
import { describeCrawlScenario } from '../test-support/crawl-scenario.js';

describeCrawlScenario('SQLite (openSqlite: a real file)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-crawl-'));
  const stores = openSqlite(directory);
  return {
    vectorStore: stores.vectorStore,
    sourceStore: stores.sourceStore,
    close: async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describeCrawlScenario('the in-memory stores', async () => ({
  vectorStore: new InMemoryVectorStore(),
  sourceStore: new InMemorySourceStore(),
  close: async () => {},
}));
