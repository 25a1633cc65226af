import type { WidgetClient } from './widget-client';
import type { Composer } from './widget-composer';
import type { ConversationHistory } from './widget-history';
import type { LiveStream } from './widget-live-stream';

/** Keeps this widget in step with the site's other tabs and the page's other widgets. */
export interface TabSync {
  /** A turn of this widget's ended: the others show it too. */
  tell(sessionId: string | undefined): void;
  close(): void;
}

/**
 * Another tab of the site, or another widget of this page for the same server (the channel reaches
 * both), says when a turn of its own ended: this one shows it too (its live stream carries only
 * operators' messages and the handoff). A conversation it does not hold yet, another widget of the
 * page started: it takes it up (the page's widgets share the stored session, so they must share
 * the conversation, or the next message of one would start another and overwrite it). Another tab
 * that started or ended the conversation (the stored session changed) is followed too.
 */
export function syncTabs(
  client: WidgetClient,
  composer: Composer,
  history: ConversationHistory,
  live: LiveStream,
  panel: HTMLElement,
): TabSync {
  const tabs =
    'BroadcastChannel' in window ? new BroadcastChannel(`treeagent.widget:${client.server}`) : null;
  tabs?.addEventListener('message', (event: MessageEvent<{ sessionId?: string }>) => {
    const sessionId = event.data?.sessionId;
    if (composer.busy || !sessionId) return;
    if (client.session?.sessionId !== sessionId) {
      if (!client.takeUp(sessionId)) return;
      live.stop();
      live.follow();
    }
    history.refresh();
  });
  // Another tab started or ended the conversation: take it up.
  const onStorage = (event: StorageEvent) => {
    if (!event.key?.startsWith('treeagent.widget:')) return;
    client.reload();
    live.stop();
    history.refresh();
    if (panel.hidden) live.follow();
  };
  window.addEventListener('storage', onStorage);
  return {
    tell(sessionId) {
      if (sessionId) tabs?.postMessage({ sessionId });
    },
    close() {
      tabs?.close();
      window.removeEventListener('storage', onStorage);
    },
  };
}
