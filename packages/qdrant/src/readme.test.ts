import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';
import { loadRecording, startReplayServer } from './test-support/replay-server.js';

const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the README example runs as written against its recorded Qdrant exchanges (QDRANT_URL)', async () => {
  // Not a live Qdrant (it cannot run here): the replay server, which fails on any request that
  // differs from recordings/readme.json and on any recorded exchange left unrequested.
  const server = await startReplayServer(loadRecording('readme.json'));
  try {
    const options = { directory, name: 'qdrant.ts', env: { QDRANT_URL: server.url } };
    expect(await checkExample(markdownExample('packages/qdrant/README.md'), options)).toEqual([]);
    server.verify();
  } finally {
    await server.close();
  }
});
