import type { IconName } from '../components/icon';

/**
 * The pages of the app, in the order of the top bar's navigation. The chat is `/`, what a
 * deployment's users see; the staff's pages live under `/staff/`, each behind the operator login. A new page (an operator
 * console, analytics, the tree editor) is one entry here, its component in `src/pages/` and one
 * line in `pages.ts`; the server answers `index.html` for any path that is not a file or an API,
 * so every path here loads directly too.
 */
export const NAVIGATION = [
  { path: '/', label: 'nav.chat', icon: 'chat' },
  { path: '/staff/tree', label: 'nav.tree', icon: 'route' },
  { path: '/staff/editor', label: 'nav.editor', icon: 'plus' },
  { path: '/staff/console', label: 'nav.console', icon: 'chat' },
  { path: '/staff/analytics', label: 'nav.analytics', icon: 'chart' },
  { path: '/staff/review', label: 'nav.review', icon: 'book' },
  { path: '/staff/sources', label: 'nav.sources', icon: 'file' },
  { path: '/staff/audit', label: 'nav.audit', icon: 'key' },
  // `label` is a key of the `common` catalogs (`nav.*`).
] as const satisfies readonly { path: string; label: string; icon: IconName }[];

/** The path of a page of the app. */
export type PagePath = (typeof NAVIGATION)[number]['path'];
