import { InMemorySessionStore } from '../session/in-memory-session-store.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import { describeQdrantCorpus } from './qdrant-corpus-conformance.js';
import { describeSessionStore } from './session-store-conformance.js';
import { describeVectorStore } from './vector-store-conformance.js';

describeSessionStore('InMemorySessionStore', async () => ({ store: new InMemorySessionStore() }));
describeVectorStore('InMemoryVectorStore', async () => ({ store: new InMemoryVectorStore() }));
describeQdrantCorpus('InMemoryVectorStore', async () => ({ store: new InMemoryVectorStore() }));
