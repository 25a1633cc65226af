/**
 * The tab's `sessionStorage`, which may be disabled (privacy modes): then nothing is kept and the
 * page works for as long as it stays open.
 */
export const tabStorage = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      if (value === null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, value);
    } catch {
      // Storage disabled: kept in memory only.
    }
  },
};
