import type { FileMetadata } from '@treeagent/core';
import type { FileStore } from '@treeagent/core/adapter';
import { z } from 'zod';
import { notFound } from '../errors/api-error.js';

/** File ids the server accepts: letters, digits, `-` and `_` (no dots or slashes, so no paths). */
export const FileId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a file id is 1–128 letters, digits, "-" or "_"');

/** Where a client downloads a session's file. */
export function fileUrl(sessionId: string, fileId: string): string {
  return `/api/v1/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(fileId)}`;
}

/**
 * The metadata of a file of `sessionId`, with its download `url`. A file of another session (or
 * of no session) is reported exactly like a missing one: 404, revealing nothing.
 */
export async function findSessionFile(
  store: FileStore,
  sessionId: string,
  fileId: string,
): Promise<FileMetadata> {
  const metadata = await store.metadata(fileId);
  if (!metadata || metadata.sessionId !== sessionId) {
    throw notFound(
      `There is no file "${fileId}" in this session. Upload it with POST /api/v1/sessions/{id}/files.`,
    );
  }
  return { ...metadata, url: fileUrl(sessionId, fileId) };
}

/** The attachments of a message, by id; every one must be a file of the session. */
export function resolveAttachments(
  store: FileStore,
  sessionId: string,
  fileIds: readonly string[] = [],
): Promise<FileMetadata[]> {
  return Promise.all(fileIds.map((fileId) => findSessionFile(store, sessionId, fileId)));
}
