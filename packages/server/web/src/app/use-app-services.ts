import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { treeApi } from '../api/tree-api';
import { loadWebSettings, type WebSettings } from '../api/web-settings';
import { tOf } from '../i18n/use-t';
import { TreeIndex } from '../tree/tree-index';
import type { ApiKeyPrompt } from './api-key-dialog';
import type { AppServices, TreeStatus } from './app-context';

/** `body.is-ready`: one function for the app's lifetime, so that effects that use it run once. */
function setReady(ready: boolean): void {
  document.body.classList.toggle('is-ready', ready);
}

/** The state behind `AppServices`: the tree (loaded once, on start), debug mode, the API-key prompt. */
export function useAppServices(api: ApiClient): { services: AppServices; prompt: ApiKeyPrompt | null } {
  const [prompt, setPrompt] = useState<ApiKeyPrompt | null>(null);
  const [tree, setTree] = useState<TreeIndex | null>(null);
  const [treeStatus, setTreeStatus] = useState<TreeStatus>('loading');
  const [treeError, setTreeError] = useState<string | null>(null);
  const [debug, setDebug] = useState(false);
  const [view, setView] = useState<WebSettings['view'] | null>(null);
  const [assistantName, setAssistantName] = useState<string | null>(null);
  const [usesApiKey, setUsesApiKey] = useState(false);
  /** One prompt at a time: concurrent requests wait for the same answer. */
  const asking = useRef<Promise<string | null> | null>(null);

  const askApiKey = useCallback(
    (message: string | null): Promise<string | null> => {
      setUsesApiKey(true);
      asking.current ??= new Promise<string | null>((resolve) => {
        setPrompt({
          message,
          resolve: (key) => {
            asking.current = null;
            setPrompt(null);
            if (key) api.setApiKey(key);
            resolve(key);
          },
        });
      });
      return asking.current;
    },
    [api],
  );

  const withApiKey = useCallback(
    async <T>(run: () => Promise<T>): Promise<T> => {
      for (;;) {
        try {
          return await run();
        } catch (error) {
          // The API key's 401 is UNAUTHORIZED; an operator login's is OPERATOR_LOGIN_REQUIRED/FAILED.
          const needsKey =
            error instanceof ApiError &&
            error.status === 401 &&
            error.code === 'UNAUTHORIZED' &&
            !error.message.includes('X-Session-Token');
          if (!needsKey) throw error;
          const key = await askApiKey(api.apiKey ? tOf('common')('apiKey.refused') : null);
          if (!key) throw error;
        }
      }
    },
    [api, askApiKey],
  );

  const reloadTree = useCallback(async () => {
    try {
      const view = await withApiKey(() => treeApi.tree(api));
      const index = new TreeIndex(view);
      setTree(index);
      setTreeError(null);
      setTreeStatus('ready');
      if (index.debug) setDebug(true);
    } catch (error) {
      setTreeError(messageOf(error));
      setTreeStatus('failed');
    }
  }, [api, withApiKey]);

  useEffect(() => {
    void reloadTree();
  }, [reloadTree]);

  useEffect(() => {
    void loadWebSettings().then((settings) => {
      setView(settings.view);
      setAssistantName(settings.assistantName ?? null);
    });
  }, []);

  useEffect(() => {
    document.body.classList.toggle('is-debug', debug);
  }, [debug]);

  const services = useMemo<AppServices>(
    () => ({
      api,
      tree,
      treeStatus,
      treeError,
      reloadTree,
      view,
      assistantName: assistantName ?? tree?.tree.name ?? null,
      debug,
      markDebug: () => setDebug(true),
      nodeLabel: (id) => (tree ? tree.nodeLabel(id) : `#${id}`),
      withApiKey,
      askApiKey,
      usesApiKey,
      setReady,
    }),
    [
      api,
      tree,
      treeStatus,
      treeError,
      reloadTree,
      view,
      assistantName,
      debug,
      withApiKey,
      askApiKey,
      usesApiKey,
    ],
  );
  return { services, prompt };
}
