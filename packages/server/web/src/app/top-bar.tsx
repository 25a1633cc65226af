import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { Icon } from '../components/icon';
import { useT } from '../i18n/use-t';
import { useApp } from './app-context';
import { NAVIGATION } from './navigation';

/** The bar on top of every page: the brand, the tree's name, debug mode, the pages, and the page's actions. */
export function TopBar({ children }: { children?: ComponentChildren }) {
  const { tree, debug } = useApp();
  const { path } = useLocation();
  const t = useT('common');
  return (
    <header class="topbar">
      <div class="brand">
        <a class="brand-link" href="/" aria-label={t('topBar.brand')}>
          <Icon name="agent" class="brand-logo" />
          <span class="brand-name">Tree Agent</span>
        </a>
        {tree ? (
          <span id="tree-name" class="tree-chip" title={t('topBar.tree')}>
            {tree.tree.name}
          </span>
        ) : null}
        {debug ? (
          <span id="debug-badge" class="badge-debug" title={t('topBar.debugTitle')}>
            {t('topBar.debug')}
          </span>
        ) : null}
        <nav class="page-nav" aria-label={t('topBar.pages')}>
          {NAVIGATION.map((page) => (
            <a
              key={page.path}
              href={page.path}
              class="page-link"
              aria-label={t(page.label)}
              title={t(page.label)}
              {...(page.path === path ? { 'aria-current': 'page' } : {})}
            >
              <Icon name={page.icon} />
              <span>{t(page.label)}</span>
            </a>
          ))}
        </nav>
      </div>
      <div class="topbar-actions">{children}</div>
    </header>
  );
}
