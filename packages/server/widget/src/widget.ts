import type { WidgetApi, WidgetOptions } from './widget-api';
import { WidgetClient, WidgetError, type WidgetIdentity } from './widget-client';
import { Composer } from './widget-composer';
import { ConversationLog } from './widget-conversation-log';
import { afterPaint } from './widget-dom';
import { downloadFile } from './widget-download';
import { WidgetEvents } from './widget-events';
import { trapFocus } from './widget-focus-trap';
import { HandoffBar } from './widget-handoff-bar';
import { ConversationHistory } from './widget-history';
import { initialLocale, WidgetTexts } from './widget-i18n';
import { LiveStream } from './widget-live-stream';
import { mountShell } from './widget-shell';
import { syncTabs } from './widget-tab-sync';
import { UnreadBadge } from './widget-unread';

export type { WidgetApi, WidgetEventName, WidgetOptions } from './widget-api';

/**
 * Mounts the launcher and the chat panel in a shadow root, and returns the widget's API. The
 * composition root: each part is its own module (the frame, the log, the live stream, the message
 * box, the history, the tabs' sync); here they are wired together, with opening and closing the
 * panel, a new conversation, and the API.
 */
export function mountWidget(options: WidgetOptions): WidgetApi {
  const texts = new WidgetTexts(initialLocale(options.locale));
  const client = new WidgetClient(options.server.replace(/\/+$/, ''), () => texts.locale);
  const t = texts.t.bind(texts);
  const name = () => options.name ?? t('assistantName');
  const { host, shadow, root, launcher, badge, panel, newButton, closeButton, ...shell } = mountShell(
    options,
    texts,
    name,
  );

  const events = new WidgetEvents();
  let identity: WidgetIdentity | null = null;
  const unread = new UnreadBadge(badge, launcher, texts, name);
  const bar = new HandoffBar(shell.status, shell.typing, texts);
  const log = new ConversationLog(shell.log, panel, texts, unread, events, {
    texts,
    onOption: (option) => void composer.say(option, option),
    onFile: (file) =>
      void downloadFile(client, shadow, file, (error) =>
        log.showError(error, null, () => t('downloadFailed', { name: file.name })),
      ),
  });
  const live = new LiveStream(client, log, bar, texts, events);
  const ensureSession = async () => {
    if (client.session) return;
    await client.start(identity);
    live.follow();
  };
  const composer = new Composer(panel, {
    client,
    texts,
    shadow,
    log,
    live,
    events,
    ensureSession,
    turnEnded: (sessionId) => tabs.tell(sessionId),
  });
  const history = new ConversationHistory(client, panel, log, unread, composer, live);

  const open = () => {
    if (!panel.hidden) return;
    performance.mark('treeagent-widget-open');
    afterPaint(() => performance.measure('treeagent-widget-open-paint', 'treeagent-widget-open'));
    panel.hidden = false;
    root.classList.add('is-open');
    launcher.setAttribute('aria-expanded', 'true');
    unread.clear();
    history.show();
    composer.focus();
    events.emit('open');
  };
  const close = () => {
    if (panel.hidden) return;
    panel.hidden = true;
    root.classList.remove('is-open');
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
    events.emit('close');
  };
  const newConversation = () => {
    composer.abandonTurn();
    live.stop();
    client.forget();
    composer.clear();
    log.clear();
    composer.focus();
  };

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  newButton.addEventListener('click', newConversation);
  trapFocus(panel, shadow, close);
  const tabs = syncTabs(client, composer, history, live, panel);
  // A conversation from an earlier page: its news (an operator's reply) reaches the closed launcher's
  // badge. A visitor who never wrote has no session, and gets none here.
  live.follow();

  return {
    open,
    close,
    toggle: () => (panel.hidden ? open() : close()),
    async identify(next) {
      if (!next?.userId || !next.signature)
        throw new WidgetError(
          'INVALID_IDENTITY',
          'identify() needs { userId, signature }: sign the user id on your backend with the deployment secret (HMAC-SHA256, hex).',
          0,
        );
      const previous = identity;
      identity = next;
      if (client.session?.userId === next.userId) return;
      try {
        await client.start(next);
      } catch (error) {
        // Refused: the conversation it had goes on, its live stream (operators' replies) included.
        identity = previous;
        events.emit(
          'error',
          error instanceof WidgetError ? { code: error.code, message: error.message } : null,
        );
        throw error;
      }
      live.stop();
      live.follow();
      log.clear();
      events.emit('identify', { userId: next.userId });
    },
    setLocale(locale) {
      host.lang = locale;
      texts.setLocale(locale);
    },
    newConversation,
    on: (event, listener) => events.on(event, listener),
    destroy() {
      live.stop();
      tabs.close();
      host.remove();
    },
  };
}
