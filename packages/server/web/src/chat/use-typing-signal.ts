import { useCallback, useEffect, useRef } from 'preact/hooks';
import { sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';

/** While the user keeps typing, the signal is renewed this often (the console fades it after 8 s). */
const RENEW_MS = 4000;

/**
 * Tells the operators that the user is typing (`POST /api/v1/sessions/:id/typing`), only while people
 * have the session (`active`): `true` on the first keystroke and again every 4 s while the box has
 * text, `false` when it empties or the message is sent. Failures are ignored (it is only a hint).
 */
export function useTypingSignal(active: boolean): (typing: boolean) => void {
  const { api } = useApp();
  const state = useRef({ typing: false, sentAt: 0 });
  const post = useCallback(
    (typing: boolean) => {
      if (!api.session) return;
      void sessionApi.typing(api, typing).catch(() => {});
    },
    [api],
  );
  useEffect(() => {
    if (!active) state.current = { typing: false, sentAt: 0 };
  }, [active]);
  return useCallback(
    (typing: boolean) => {
      const current = state.current;
      if (!active) return;
      const now = Date.now();
      if (typing && current.typing && now - current.sentAt < RENEW_MS) return;
      if (!typing && !current.typing) return;
      state.current = { typing, sentAt: now };
      post(typing);
    },
    [active, post],
  );
}
