import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api/api-client';
import type { WebSettings } from '../api/web-settings';
import type { TreeIndex } from '../tree/tree-index';

/** How far loading the tree got. */
export type TreeStatus = 'loading' | 'ready' | 'failed';

/** What every page shares: the API client, the tree, debug mode, and the API-key prompt. */
export interface AppServices {
  api: ApiClient;
  tree: TreeIndex | null;
  treeStatus: TreeStatus;
  /** Why the tree could not be loaded. */
  treeError: string | null;
  reloadTree(): Promise<void>;
  /**
   * What the chat page at `/` is: the customer's (`treeagent serve`: no staff links, ids, timings
   * or debug) or the developer's (`treeagent dev`); `null` until the server said.
   */
  view: WebSettings['view'] | null;
  /** The assistant's name customers read: the deployment's (`assistantName`), else the tree's name; `null` while neither is known. */
  assistantName: string | null;
  /** The server runs with `debug: true` (seen from the tree's chunks or from debug events). */
  debug: boolean;
  markDebug(): void;
  /** `name #id` of a node, `#id` before the tree is loaded. */
  nodeLabel(id: number): string;
  /**
   * Runs a request; when the server asks for an API key (401 without a session-token problem),
   * asks the user for one and runs it again, until it passes or the user cancels.
   */
  withApiKey<T>(run: () => Promise<T>): Promise<T>;
  /** Asks the user for an API key; `null` when cancelled. */
  askApiKey(message: string | null): Promise<string | null>;
  /** The server asked for an API key at least once (the page then offers to change it). */
  usesApiKey: boolean;
  /** The page's own content has loaded (`body.is-ready`, what tests and screenshots wait for). */
  setReady(ready: boolean): void;
}

export const AppContext = createContext<AppServices | null>(null);

/** The services of the app; inside `<App>` only. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useApp() is used outside <App>: render the page inside <App>.');
  return services;
}
