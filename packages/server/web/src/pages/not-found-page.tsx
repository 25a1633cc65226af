import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useApp } from '../app/app-context';
import { NAVIGATION } from '../app/navigation';
import { TopBar } from '../app/top-bar';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';

/** Any path the app has no page for. */
export function NotFoundPage() {
  const { path } = useLocation();
  const { setReady } = useApp();
  const t = useT('common');
  useEffect(() => {
    setReady(true);
    return () => setReady(false);
  }, [setReady]);
  return (
    <>
      <TopBar />
      <main class="page page-not-found">
        <h1>{t('notFound.title')}</h1>
        <p>{markup(t('notFound.text', { path }))}</p>
        <ul class="page-list">
          {NAVIGATION.map((page) => (
            <li key={page.path}>
              <a href={page.path}>{t(page.label)}</a>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
