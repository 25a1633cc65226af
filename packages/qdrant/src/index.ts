export { DEFAULT_COLLECTION_PREFIX, qdrantCollectionName } from './collection-name.js';
export {
  isUuid,
  NUMBER_ID_NAMESPACE,
  type QdrantPointId,
  STRING_ID_NAMESPACE,
  toQdrantPointId,
  uuidV5,
} from './point-id.js';
export { type QdrantFilter, toQdrantFilter } from './qdrant-filter.js';
export { ID_KEY, QdrantVectorStore, type QdrantVectorStoreOptions, TEXT_KEY } from './qdrant-vector-store.js';
