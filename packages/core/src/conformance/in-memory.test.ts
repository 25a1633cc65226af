import { it } from 'vitest';
import { InMemoryChannelInbox } from '../channel/in-memory-channel-inbox.js';
import { InMemoryChannelStore } from '../channel/in-memory-channel-store.js';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import { InMemoryFileStore } from '../files/in-memory-file-store.js';
import { InMemorySourceStore } from '../knowledge/in-memory-source-store.js';
import { InMemorySessionStore } from '../session/in-memory-session-store.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import { InMemoryVersionStore } from '../versions/in-memory-version-store.js';
import { describeChannelInbox, expectInboxDoneInCommit } from './channel-inbox-conformance.js';
import { describeChannelStore } from './channel-store-conformance.js';
import { describeEmbeddingCache } from './embedding-cache-conformance.js';
import { describeFileStore } from './file-store-conformance.js';
import { describeQdrantCorpus } from './qdrant-corpus-conformance.js';
import { describeSessionStore } from './session-store-conformance.js';
import { describeSourceStore } from './source-store-conformance.js';
import { describeVectorStore } from './vector-store-conformance.js';
import { describeVersionStore } from './version-store-conformance.js';

const IN_PROCESS = 'kept in process memory: nothing outlives the object';

describeSessionStore('InMemorySessionStore', async () => ({ store: new InMemorySessionStore() }), {
  skip: [
    {
      reason: 'no lock(): one process, where the engine serialises a session with its KeyedMutex',
      tests: ['lock, when the store has one, serialises holders of the same session and not of others'],
    },
  ],
});
describeVectorStore('InMemoryVectorStore', async () => ({ store: new InMemoryVectorStore() }));
describeFileStore('InMemoryFileStore', async () => ({ store: new InMemoryFileStore() }), {
  skip: [
    {
      reason: IN_PROCESS,
      tests: ['files outlive the store object: a reopened store reads and deletes them'],
    },
  ],
});
describeEmbeddingCache('InMemoryEmbeddingCache', async () => ({ cache: new InMemoryEmbeddingCache() }), {
  skip: [{ reason: IN_PROCESS, tests: ['vectors outlive the cache object: a reopened cache answers them'] }],
});
describeQdrantCorpus('InMemoryVectorStore', async () => ({ store: new InMemoryVectorStore() }));
describeSourceStore(
  'InMemorySourceStore',
  async () => ({ store: new InMemorySourceStore(), dispose: async () => {} }),
  {
    skip: [
      {
        reason: IN_PROCESS,
        tests: ['sources and pages outlive the store object: a reopened store reads them'],
      },
    ],
  },
);
describeChannelStore(
  'InMemoryChannelStore',
  async () => ({ store: new InMemoryChannelStore(), dispose: async () => {} }),
  { skip: [{ reason: IN_PROCESS, tests: ['a pending message survives a restart'] }] },
);
describeChannelInbox(
  'InMemoryChannelInbox',
  async () => ({ inbox: new InMemoryChannelInbox(), dispose: async () => {} }),
  {
    skip: [
      { reason: IN_PROCESS, tests: ['a pending entry survives a restart, its files and option with it'] },
    ],
  },
);
describeVersionStore(
  'InMemoryVersionStore',
  async () => ({ store: new InMemoryVersionStore(), dispose: async () => {} }),
  {
    skip: [
      {
        reason: IN_PROCESS,
        tests: ['versions and environments outlive the store object: a reopened store reads them'],
      },
    ],
  },
);

it('InMemorySessionStore: a commit with an update’s receipt takes the update out of the inbox', async () => {
  await expectInboxDoneInCommit(new InMemorySessionStore());
});
