import { describeSourceStore } from '@treeagent/core/conformance';
import { dataDirectory } from './test-support/data-directory.js';

describeSourceStore('SqliteSourceStore (openSqlite)', async () => {
  const data = dataDirectory('sources');
  return {
    store: data.open().sourceStore,
    reopen: async () => data.open().sourceStore,
    dispose: data.dispose,
  };
});
