import { describeVersionStore } from '@treeagent/core/conformance';
import { dataDirectory } from './test-support/data-directory.js';

describeVersionStore('SqliteVersionStore (openSqlite)', async () => {
  const data = dataDirectory('versions');
  return {
    store: data.open().versionStore,
    reopen: async () => data.open().versionStore,
    dispose: data.dispose,
  };
});
