import { useCallback, useState } from 'preact/hooks';
import type { UploadedFile } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';

/** A file chosen for the next message, uploading or uploaded. */
export interface PendingFile {
  key: string;
  file: File;
  status: 'uploading' | 'ready' | 'failed';
  metadata: UploadedFile | null;
  error: string | null;
}

/** The files of the next message: each is uploaded to the session as soon as it is chosen. */
export interface Uploads {
  pending: PendingFile[];
  add(files: readonly File[]): Promise<void>;
  remove(key: string): void;
  clear(): void;
  /** The uploaded files, to send with the message. */
  ready(): UploadedFile[];
  uploading: boolean;
}

/** `ensureSession` makes sure there is a session to upload to (false when none could be made). */
export function useUploads(ensureSession: () => Promise<boolean>): Uploads {
  const { api } = useApp();
  const [pending, setPending] = useState<PendingFile[]>([]);
  const update = (key: string, change: Partial<PendingFile>) =>
    setPending((list) => list.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  const add = useCallback(
    async (files: readonly File[]) => {
      if (!files.length || !(await ensureSession())) return;
      for (const file of files) {
        const key = crypto.randomUUID();
        setPending((list) => [...list, { key, file, status: 'uploading', metadata: null, error: null }]);
        sessionApi.upload(api, file).then(
          (metadata) => update(key, { status: 'ready', metadata }),
          (error: unknown) => update(key, { status: 'failed', error: messageOf(error) }),
        );
      }
    },
    [api, ensureSession],
  );

  return {
    pending,
    add,
    remove: (key) => setPending((list) => list.filter((entry) => entry.key !== key)),
    clear: () => setPending([]),
    ready: () => pending.flatMap((entry) => (entry.metadata ? [entry.metadata] : [])),
    uploading: pending.some((entry) => entry.status === 'uploading'),
  };
}
