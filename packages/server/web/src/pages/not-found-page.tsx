import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useApp } from '../app/app-context';
import { NAVIGATION } from '../app/navigation';
import { TopBar } from '../app/top-bar';

/** Any path the app has no page for. */
export function NotFoundPage() {
  const { path } = useLocation();
  const { setReady } = useApp();
  useEffect(() => {
    setReady(true);
    return () => setReady(false);
  }, [setReady]);
  return (
    <>
      <TopBar />
      <main class="page page-not-found">
        <h1>No page here</h1>
        <p>
          There is no page at <code>{path}</code>. The pages are:
        </p>
        <ul class="page-list">
          {NAVIGATION.map((page) => (
            <li key={page.path}>
              <a href={page.path}>{page.label}</a>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
