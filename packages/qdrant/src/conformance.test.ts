import { describeVectorStore } from '@treeagent/core/conformance';
import { expect } from 'vitest';
import { QdrantVectorStore } from './qdrant-vector-store.js';
import { recordingFileName } from './test-support/recording-name.js';
import { loadRecording, startReplayServer } from './test-support/replay-server.js';

/**
 * The shared VectorStore suite against recorded Qdrant exchanges: each test replays
 * `test-support/recordings/conformance/<test name>.json`, and fails if the store sends anything other
 * than the recorded requests, or fewer of them.
 */
describeVectorStore('QdrantVectorStore (recorded Qdrant exchanges)', async () => {
  const testName = expect.getState().currentTestName?.split(' > ').at(-1) ?? '';
  const server = await startReplayServer(loadRecording(`conformance/${recordingFileName(testName)}`));
  return {
    store: new QdrantVectorStore({ url: server.url }),
    dispose: async () => {
      await server.close();
      server.verify();
    },
  };
});

/**
 * The same suite against a real server when one is given (`QDRANT_URL=http://localhost:6333`):
 * how to check the recordings against Qdrant. Each test uses its own collections, dropped afterwards.
 */
const liveUrl = process.env.QDRANT_URL;
if (liveUrl) {
  let run = 0;
  describeVectorStore('QdrantVectorStore (live server at QDRANT_URL)', async () => {
    const store = new QdrantVectorStore({
      url: liveUrl,
      ...(process.env.QDRANT_API_KEY ? { apiKey: process.env.QDRANT_API_KEY } : {}),
      collectionPrefix: `treeagent_test_${process.pid}_${run++}_`,
    });
    return {
      store,
      dispose: async () => {
        await store.dropCollection('c');
        await store.dropCollection('other');
      },
    };
  });
}
