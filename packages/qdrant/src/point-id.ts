import { createHash } from 'node:crypto';
import { TreeAgentError } from '@treeagent/core';
import type { ChunkId } from '@treeagent/core/adapter';

/** A Qdrant point id: an unsigned integer or a UUID string (lowercase, hyphenated). */
export type QdrantPointId = number | string;

/** UUID namespace of the UUIDv5 ids derived from string chunk ids (see {@link toQdrantPointId}). */
export const STRING_ID_NAMESPACE = '9a3f0d5c-2b1e-5c47-8e6d-1f0a7b3c4d21';

/** UUID namespace of the UUIDv5 ids derived from numbers Qdrant cannot store (negative, fractional, unsafe). */
export const NUMBER_ID_NAMESPACE = '4e8b2a61-7d3c-5f90-a1b2-c3d4e5f60718';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a hyphenated UUID (any case), which Qdrant accepts as a point id. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Maps a Tree Agent chunk id to the id of its Qdrant point. Qdrant accepts only unsigned integers
 * and UUIDs, so:
 * - a non-negative safe integer is used as it is;
 * - a hyphenated UUID string is used as it is (lowercased, as Qdrant stores it);
 * - any other string becomes the UUIDv5 of its UTF-8 bytes in {@link STRING_ID_NAMESPACE};
 * - any other finite number becomes the UUIDv5 of its decimal form in {@link NUMBER_ID_NAMESPACE}.
 *
 * The mapping is deterministic, so the same chunk id always lands on the same point, and `has_id`
 * filters, exclusions, deletes and scroll offsets can be mapped the same way. The original id is kept
 * in the point's payload, so results carry it back unchanged.
 */
export function toQdrantPointId(id: ChunkId): QdrantPointId {
  if (typeof id === 'number') {
    if (!Number.isFinite(id)) {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `Chunk id ${id} cannot be stored in Qdrant: ids must be finite.`,
        {
          details: { id: String(id) },
        },
      );
    }
    if (Number.isSafeInteger(id) && id >= 0) return id;
    return uuidV5(NUMBER_ID_NAMESPACE, String(id));
  }
  if (typeof id !== 'string') {
    throw new TreeAgentError('VECTOR_STORE', `Chunk id must be a string or a number, got ${typeof id}.`);
  }
  return isUuid(id) ? id.toLowerCase() : uuidV5(STRING_ID_NAMESPACE, id);
}

/** RFC 9562 UUID version 5 (SHA-1, name-based) of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  if (!isUuid(namespace)) throw new TypeError(`Not a UUID namespace: ${namespace}`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
