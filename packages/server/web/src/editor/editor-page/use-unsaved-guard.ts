import { useEffect, useRef } from 'preact/hooks';

/**
 * While the draft has unsaved changes (`unsaved`: changes not saved, or text typed in a field and not
 * committed yet), leaving the editor asks first: a reload or a closed tab through the browser's own
 * question (`beforeunload`), a link to another page of the app (the top bar's, which the app follows
 * without unloading the page) through `confirm(question)`, and stays when it is refused. The
 * listeners are set once and read the state of the last render when the event comes, so a click
 * right after an edit is guarded too.
 */
export function useUnsavedGuard(unsaved: boolean, question: string): void {
  const state = useRef({ unsaved, question });
  state.current = { unsaved, question };
  useEffect(() => {
    const unload = (event: BeforeUnloadEvent) => {
      if (!state.current.unsaved) return;
      event.preventDefault();
      event.returnValue = '';
    };
    // In the capture phase, before the router's listener (on the window, bubbling) follows the link.
    const follow = (event: MouseEvent) => {
      if (!state.current.unsaved) return;
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.origin !== location.origin || link.target || link.download) return;
      if (link.pathname === location.pathname || window.confirm(state.current.question)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', unload);
    document.addEventListener('click', follow, true);
    return () => {
      window.removeEventListener('beforeunload', unload);
      document.removeEventListener('click', follow, true);
    };
  }, []);
}
