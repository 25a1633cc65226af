import { useEffect } from 'preact/hooks';

/**
 * While the draft has unsaved changes, leaving the editor asks first: a reload or a closed tab
 * through the browser's own question (`beforeunload`), a link to another page of the app (the top
 * bar's, which the app follows without unloading the page) through `confirm(question)`, and stays
 * when it is refused.
 */
export function useUnsavedGuard(dirty: boolean, question: string): void {
  useEffect(() => {
    if (!dirty) return;
    const unload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    // In the capture phase, before the router's listener (on the window, bubbling) follows the link.
    const follow = (event: MouseEvent) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.origin !== location.origin || link.target || link.download) return;
      if (link.pathname === location.pathname || window.confirm(question)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', unload);
    document.addEventListener('click', follow, true);
    return () => {
      window.removeEventListener('beforeunload', unload);
      document.removeEventListener('click', follow, true);
    };
  }, [dirty, question]);
}
