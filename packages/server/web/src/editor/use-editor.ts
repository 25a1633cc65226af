import type { TreeDocument } from '@treeagent/core/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { EditorCheckResponse, EditorState } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { ApiError, isAbort } from '../api/api-error';
import { editorApi } from '../api/editor-api';
import { readServerSentEvents } from '../api/server-sent-events';
import { useApp } from '../app/app-context';
import { tOf } from '../i18n/use-t';
import { onModuleSaved } from './callbacks/callback-requests';
import { type History, record, redo, startHistory, undo } from './history';

/** How often the editor asks whether the file changed on disk when it cannot follow the event stream, in milliseconds. */
export const DISK_POLL_MS = 1500;
/** Quiet time after an edit before the draft is checked. */
const CHECK_DELAY_MS = 250;

/** The editor's state and actions (one per editor page). */
export interface TreeEditor {
  status: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  /** The server's code of the load failure (`OPERATOR_LOGIN_REQUIRED`: the page shows the login form). */
  loadErrorCode: string | null;
  file: EditorState | null;
  document: TreeDocument | null;
  canUndo: boolean;
  canRedo: boolean;
  /** The draft differs from what is on disk. */
  dirty: boolean;
  /** The last check (`null` while the first check runs); of an older draft while `checking`. */
  check: EditorCheckResponse | null;
  /** The current draft has not been checked yet. */
  checking: boolean;
  /** The file on disk is no longer the version the draft started from. */
  changedOnDisk: boolean;
  saving: boolean;
  saveError: string | null;
  /** Applies an edit to the draft (one undo step). */
  edit(change: (document: TreeDocument) => TreeDocument): void;
  undo(): void;
  redo(): void;
  /** Saves a valid draft; `force` overwrites a file changed on disk. */
  save(force?: boolean): Promise<void>;
  /**
   * Saves the draft once it is checked, if it is valid and unsaved: what Save and Ctrl+S do, so that
   * a field committed just before (Ctrl+S in it, Save clicked from it) is in the save. A check that
   * fails drops the request (the problem shows).
   */
  requestSave(): void;
  /** A save is asked for and waits for the draft's check. */
  saveWanted: boolean;
  /** Loads the file from disk again, dropping the draft. */
  reload(): Promise<void>;
}

export function useEditor(): TreeEditor {
  const { api, withApiKey } = useApp();
  const [status, setStatus] = useState<TreeEditor['status']>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadErrorCode, setLoadErrorCode] = useState<string | null>(null);
  const [file, setFile] = useState<EditorState | null>(null);
  const [history, setHistory] = useState<History<TreeDocument> | null>(null);
  const [saved, setSaved] = useState<TreeDocument | null>(null);
  const [check, setCheck] = useState<EditorCheckResponse | null>(null);
  const [diskVersion, setDiskVersion] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saveWanted, setSaveWanted] = useState(false);
  /** The draft whose check failed (the server did not answer): a save asked for it is dropped. */
  const failed = useRef<TreeDocument | null>(null);
  /** Counts the Callbacks panel's saves: a draft is checked again against the module's new exports. */
  const [moduleSaves, setModuleSaves] = useState(0);
  const document = history?.present ?? null;
  const checked = useRef<TreeDocument | null>(null);

  const reload = useCallback(async () => {
    try {
      const state = await withApiKey(() => editorApi.state(api));
      setFile(state);
      setHistory(startHistory(state.document));
      setSaved(state.document);
      setDiskVersion(state.version);
      setSaveError(null);
      setLoadError(null);
      setLoadErrorCode(null);
      setStatus('ready');
    } catch (error) {
      setLoadError(
        error instanceof ApiError && error.status === 404 && error.code === 'NOT_FOUND'
          ? tOf('editor')('noEditor')
          : messageOf(error),
      );
      setLoadErrorCode(error instanceof ApiError ? error.code : null);
      setStatus('failed');
    }
  }, [api, withApiKey]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // The Callbacks panel saved the module: its exported names (the inspector's callback choices) are
  // read again, and the draft is checked again; the draft itself is kept.
  useEffect(
    () =>
      onModuleSaved(() => {
        void withApiKey(() => editorApi.state(api))
          .then((state) => {
            setFile((current) => (current ? { ...current, callbacks: state.callbacks } : current));
            checked.current = null;
            setModuleSaves((count) => count + 1);
          })
          .catch(() => undefined);
      }),
    [api, withApiKey],
  );

  // Check each draft after a quiet moment; a newer draft aborts the older check.
  useEffect(() => {
    if (!document || checked.current === document) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      editorApi
        .check(api, document, controller.signal)
        .then((result) => {
          checked.current = document;
          setCheck(result);
        })
        .catch((error: unknown) => {
          if (isAbort(error)) return;
          failed.current = document;
          setCheck({
            valid: false,
            problems: [{ message: messageOf(error), fix: tOf('editor')('checkServer') }],
            lint: [],
            tree: null,
          });
        });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, document, moduleSaves]);

  // Is the file on disk still the one the draft started from? The server pushes the version on disk
  // at every change (`GET /api/v1/editor/events`, fs.watch on the server); while that stream is down
  // (a proxy that buffers, a restart) the page polls `GET /version` and reconnects, backing off.
  useEffect(() => {
    if (status !== 'ready') return;
    const controller = new AbortController();
    let poll: ReturnType<typeof setInterval> | undefined;
    const startPolling = () => {
      poll ??= setInterval(() => {
        editorApi
          .version(api)
          .then((result) => setDiskVersion(result.version))
          .catch(() => undefined);
      }, DISK_POLL_MS);
    };
    const follow = async () => {
      for (let delay = 1000; !controller.signal.aborted; delay = Math.min(delay * 2, 10_000)) {
        try {
          const response = await editorApi.events(api, controller.signal);
          clearInterval(poll);
          poll = undefined;
          delay = 1000;
          for await (const message of readServerSentEvents(response.body!))
            if (message.event === 'version')
              setDiskVersion((JSON.parse(message.data) as { version: string }).version);
        } catch (error) {
          if (isAbort(error) || controller.signal.aborted) return;
        }
        startPolling();
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    };
    void follow();
    return () => {
      controller.abort();
      clearInterval(poll);
    };
  }, [api, status]);

  const edit = useCallback((change: (document: TreeDocument) => TreeDocument) => {
    setHistory((current) => (current ? record(current, change(current.present)) : current));
    setSaveError(null);
  }, []);

  const save = useCallback(
    async (force = false) => {
      if (!document || !file) return;
      setSaving(true);
      setSaveError(null);
      try {
        const result = await editorApi.save(api, document, file.version, force);
        setFile({ ...file, version: result.version, document });
        setSaved(document);
        setDiskVersion(result.version);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'EDIT_CONFLICT' && error.details?.version)
          setDiskVersion(error.details.version);
        setSaveError(messageOf(error));
      } finally {
        setSaving(false);
      }
    },
    [api, document, file],
  );

  // A save asked for waits for the check of the draft as it is now: made if it is valid, dropped if
  // it is not (its problems show) or if the check failed. Checks of earlier drafts do not count.
  useEffect(() => {
    if (!saveWanted || saving || !document) return;
    if (check && checked.current === document) {
      setSaveWanted(false);
      if (check.valid && document !== saved) void save();
    } else if (failed.current === document) setSaveWanted(false);
  }, [saveWanted, saving, document, check, saved, save]);
  const requestSave = useCallback(() => setSaveWanted(true), []);

  return {
    status,
    loadError,
    loadErrorCode,
    file,
    document,
    canUndo: (history?.past.length ?? 0) > 0,
    canRedo: (history?.future.length ?? 0) > 0,
    dirty: document !== null && document !== saved,
    check,
    checking: checked.current !== document,
    // While a save is in flight, the new version may arrive before the save's answer: not a change.
    changedOnDisk: file !== null && diskVersion !== null && diskVersion !== file.version && !saving,
    saving,
    saveError,
    edit,
    undo: () => setHistory((current) => (current ? undo(current) : current)),
    redo: () => setHistory((current) => (current ? redo(current) : current)),
    save,
    requestSave,
    saveWanted,
    reload,
  };
}
