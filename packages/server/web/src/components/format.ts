/** Milliseconds as a short human text: `0.42 ms`, `12 ms`, `1.3 s`; `—` when unknown. */
export function formatMs(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || Number.isNaN(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A byte count as a short human text; empty when unknown. */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number') return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A similarity with three decimals. */
export function formatSimilarity(value: number | null | undefined): string {
  return typeof value === 'number' ? value.toFixed(3) : '—';
}

/** A text cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The time of day of an ISO date, in the page's language (`14:05` in Italian, `2:05 PM` in US English). */
export function formatTime(
  iso: string,
  locale: string | undefined = document.documentElement.lang || undefined,
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(date);
}
