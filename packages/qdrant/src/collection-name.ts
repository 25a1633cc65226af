import { createHash } from 'node:crypto';
import { TreeAgentError } from '@treeagent/core';

/** Prefix of the Qdrant collections of Tree Agent collections, unless configured otherwise. */
export const DEFAULT_COLLECTION_PREFIX = 'treeagent_';

const SAFE = /^[A-Za-z0-9_-]*$/;
const MAX_LENGTH = 255;

/**
 * The Qdrant collection that holds a Tree Agent collection: `prefix + name` when the name only
 * uses letters, digits, `_` and `-`; otherwise every other character becomes `_` and the first
 * 8 hex digits of the SHA-256 of the original name are appended, so two names that sanitise alike
 * (`shop:3`, `shop/3`) never share a collection. Names too long for Qdrant are cut and hashed too.
 */
export function qdrantCollectionName(name: string, prefix: string = DEFAULT_COLLECTION_PREFIX): string {
  checkPrefix(prefix);
  if (typeof name !== 'string' || name.length === 0) {
    throw new TreeAgentError(
      'VECTOR_STORE',
      `Collection names must be non-empty strings, got ${JSON.stringify(name)}.`,
    );
  }
  const plain = `${prefix}${name}`;
  if (SAFE.test(name) && plain.length <= MAX_LENGTH) return plain;
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 8);
  const sanitised = `${prefix}${name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_LENGTH - 9);
  return `${sanitised}_${hash}`;
}

/** Prefixes must be safe as they are: letters, digits, `_` and `-`, at most 200 characters. */
export function checkPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !SAFE.test(prefix) || prefix.length > 200) {
    throw new TreeAgentError(
      'VECTOR_STORE',
      `Invalid Qdrant collection prefix ${JSON.stringify(prefix)}: use only letters, digits, "_" and "-" (at most 200 characters).`,
    );
  }
}
