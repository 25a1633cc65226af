import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFileStore } from '../conformance/file-store-conformance.js';
import { LocalFileStore } from './local-file-store.js';

describeFileStore('LocalFileStore', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-files-'));
  return {
    store: new LocalFileStore(directory),
    reopen: async () => new LocalFileStore(directory),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});
