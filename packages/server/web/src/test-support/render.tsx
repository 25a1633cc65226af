import { type ComponentChildren, render } from 'preact';
import { act } from 'preact/test-utils';
import type { TreeView } from '../../../src/api-types';
import { ApiClient } from '../api/api-client';
import { AppContext, type AppServices } from '../app/app-context';
import { TreeIndex } from '../tree/tree-index';

/**
 * Renders a component of the web app into a fresh container of the test's DOM (happy-dom), inside
 * the app's context: an `ApiClient` (the one given, or a new one: no request is made unless the component makes one), the tree
 * given, debug mode on. For component tests; the pages themselves are tested in Chromium.
 */
export async function renderInApp(
  children: ComponentChildren,
  options: { tree?: TreeView; debug?: boolean; api?: ApiClient } = {},
): Promise<HTMLElement> {
  const tree = options.tree ? new TreeIndex(options.tree) : null;
  const services: AppServices = {
    api: options.api ?? new ApiClient(),
    tree,
    treeStatus: tree ? 'ready' : 'loading',
    treeError: null,
    reloadTree: async () => {},
    view: 'developer',
    assistantName: tree?.tree.name ?? null,
    debug: options.debug ?? true,
    markDebug: () => {},
    nodeLabel: (id) => (tree ? tree.nodeLabel(id) : `#${id}`),
    withApiKey: (run) => run(),
    askApiKey: async () => null,
    usesApiKey: false,
    setReady: () => {},
  };
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => {
    render(<AppContext.Provider value={services}>{children}</AppContext.Provider>, container);
  });
  return container;
}

/** The trimmed text of each element `selector` finds. */
export function texts(root: ParentNode, selector: string): string[] {
  return [...root.querySelectorAll(selector)].map((element) => element.textContent?.trim() ?? '');
}
