import type { KnowledgeSource } from '@treeagent/core/adapter';
import { type RefreshReport, refreshSource } from './refresh-source.js';
import type { SourcesContext } from './sources-context.js';

/** Whether a scheduled source is due: never refreshed, or its last refresh is `refreshMinutes` old. */
export function isDue(source: KnowledgeSource, now: Date): boolean {
  if (source.refreshMinutes === null) return false;
  if (!source.refreshedAt) return true;
  return now.getTime() - source.refreshedAt.getTime() >= source.refreshMinutes * 60_000;
}

/** Refreshes, one after the other, every source whose schedule says it is due. */
export async function refreshDueSources(context: SourcesContext): Promise<RefreshReport[]> {
  const now = (context.now ?? (() => new Date()))();
  const reports: RefreshReport[] = [];
  for (const source of await context.sourceStore.listSources())
    if (isDue(source, now)) reports.push(await refreshSource(source.id, context));
  return reports;
}

/**
 * Checks every `intervalMs` (default a minute) for due sources and refreshes them; a check does not
 * start while the previous one runs. `onError` hears what a check could not do (a store down).
 * Returns `stop()`, which waits for a running check.
 */
export function scheduleRefreshes(
  context: SourcesContext,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = refreshDueSources(context)
      .catch((error) => options.onError?.(error))
      .finally(() => {
        running = null;
      });
  }, options.intervalMs ?? 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
