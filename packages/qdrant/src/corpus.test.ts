import { CORPUS_COLLECTION, describeQdrantCorpus } from '@treeagent/core/conformance';
import { expect } from 'vitest';
import { QdrantVectorStore } from './qdrant-vector-store.js';
import { qdrantSchemaErrors, schemaOfRequest } from './test-support/openapi/qdrant-schema.js';
import { recordingFileName } from './test-support/recording-name.js';
import { loadRecording, startReplayServer } from './test-support/replay-server.js';

/**
 * Qdrant's behaviour corpus (cases from Qdrant's own integration tests) against the adapter: each
 * case replays `test-support/recordings/corpus/<case>.json`, whose answers are the corpus's (Qdrant's),
 * not the evaluator's; the store must send exactly the recorded requests — Qdrant's tests' filters,
 * verbatim — and every body must validate against Qdrant's OpenAPI schema.
 */
describeQdrantCorpus('QdrantVectorStore (recorded from the corpus answers)', async () => {
  const testName = expect.getState().currentTestName?.split(' > ').at(-1) ?? '';
  const server = await startReplayServer(loadRecording(`corpus/${recordingFileName(testName)}`));
  return {
    store: new QdrantVectorStore({ url: server.url }),
    dispose: async () => {
      await server.close();
      server.verify();
      for (const request of server.received) {
        const schema = schemaOfRequest(request.method, new URL(request.url, 'http://replay').pathname);
        if (schema)
          expect({ url: request.url, errors: qdrantSchemaErrors(schema, request.body) }).toEqual({
            url: request.url,
            errors: [],
          });
      }
    },
  };
});

/**
 * The corpus against a real server when one is given (`QDRANT_URL=http://localhost:6333`): Qdrant
 * itself must give the corpus's answers. Each case uses its own collection, dropped afterwards.
 */
const liveUrl = process.env.QDRANT_URL;
if (liveUrl) {
  let run = 0;
  describeQdrantCorpus('QdrantVectorStore (live server at QDRANT_URL)', async () => {
    const store = new QdrantVectorStore({
      url: liveUrl,
      ...(process.env.QDRANT_API_KEY ? { apiKey: process.env.QDRANT_API_KEY } : {}),
      collectionPrefix: `treeagent_corpus_${process.pid}_${run++}_`,
    });
    return { store, dispose: () => store.dropCollection(CORPUS_COLLECTION) };
  });
}
