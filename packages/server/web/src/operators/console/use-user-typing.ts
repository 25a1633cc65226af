import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { withTyping } from './console-model';

/**
 * Which sessions' users are typing now, from the console's stream (`typing` events). An indicator
 * whose "stopped" never came fades after 8 s.
 */
export function useUserTyping(): {
  typing: ReadonlySet<string>;
  signal(sessionId: string, on: boolean): void;
} {
  const [typing, setTyping] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const signal = useCallback((sessionId: string, on: boolean) => {
    clearTimeout(timers.current.get(sessionId));
    const set = (value: boolean) => setTyping((current) => withTyping(current, sessionId, value));
    set(on);
    if (on)
      timers.current.set(
        sessionId,
        setTimeout(() => set(false), 8000),
      );
  }, []);
  useEffect(
    () => () => {
      for (const timer of timers.current.values()) clearTimeout(timer);
    },
    [],
  );
  return { typing, signal };
}
