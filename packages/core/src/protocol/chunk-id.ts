/** Chunk identifier: an unsigned integer or a string (Qdrant accepts integers and UUIDs). */
export type ChunkId = string | number;
