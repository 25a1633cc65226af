import { createHash } from 'node:crypto';
import { versionDiff } from './version-diff.js';
import type { TreeVersion } from './version-store.js';

/** What a save gives `treeVersionOf`. */
export interface VersionContent {
  /** The tree's name. */
  tree: string;
  /** The tree document, JSON text. */
  document: string;
  /** The callbacks module's text (or a code tree's source files, concatenated); `null` when none. */
  callbacks: string | null;
  author: string;
  message: string;
  at?: Date;
}

/** SHA-256 in hexadecimal. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The version a save records (not yet stored): its hashes, id, and the diff from `parent` (the
 * tree's latest version; `null` for the first). The same content always gets the same id.
 */
export function treeVersionOf(content: VersionContent, parent: TreeVersion | null): TreeVersion {
  const documentHash = sha256(content.document);
  const callbacksHash = content.callbacks === null ? null : sha256(content.callbacks);
  const hash = sha256(`${documentHash}:${callbacksHash ?? ''}`);
  return {
    tree: content.tree,
    id: hash.slice(0, 12),
    hash,
    documentHash,
    callbacksHash,
    document: content.document,
    createdAt: content.at ?? new Date(),
    author: content.author,
    message: content.message,
    parentId: parent?.id ?? null,
    diff: parent
      ? [
          ...versionDiff(parent.document, content.document),
          ...(parent.callbacksHash !== callbacksHash ? ['callbacks module changed'] : []),
        ].join('\n')
      : '',
  };
}
