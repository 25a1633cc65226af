import {
  messageOf,
  WidgetClient,
  WidgetError,
  type WidgetFile,
  type WidgetIdentity,
  type WidgetMessage,
} from './widget-client';
import { CHAT_ICON, CLIP_ICON, element, icon } from './widget-dom';
import { initialLocale, WidgetTexts } from './widget-i18n';
import { renderMessage } from './widget-message';
import { satisfactionForm } from './widget-satisfaction';
import { WIDGET_CSS } from './widget-styles';
import { PendingUploads } from './widget-uploads';

/** How a site mounts the widget (the script tag's `data-*` attributes give the same). */
export interface WidgetOptions {
  /** The Tree Agent server, e.g. `https://agent.example.com` (default: where the script came from). */
  server: string;
  /** The assistant's name in the panel's header. Default `Assistant` (in the widget's language). */
  name?: string;
  /** An image URL shown beside the name. */
  avatar?: string;
  /** `right` (default) or `left` bottom corner. */
  position?: 'left' | 'right';
  /** Theme: the accent colour, its text colour, the font, the panel's corner radius (CSS values). */
  theme?: { accent?: string; accentText?: string; font?: string; radius?: string };
  /**
   * The language of the widget's texts, times and sizes (BCP 47, e.g. `it-IT`). Default: the
   * deployment's (`--widget-locale`), then the browser's.
   */
  locale?: string;
  /** Where to mount (default `document.body`). */
  container?: HTMLElement;
}

/** What the widget tells the site. */
export type WidgetEventName = 'open' | 'close' | 'message' | 'handoff' | 'error' | 'identify';

/** The JS API of a mounted widget (`window.TreeAgentWidget` with the script tag). */
export interface WidgetApi {
  open(): void;
  close(): void;
  toggle(): void;
  /** Who the user is, vouched for by the site's backend (HMAC signature); starts their own conversation. */
  identify(identity: WidgetIdentity): Promise<void>;
  /** The language of the widget's texts, times and sizes (BCP 47); the widget is rewritten in it at once. */
  setLocale(locale: string): void;
  /** Starts a new conversation. */
  newConversation(): void;
  on(event: WidgetEventName, listener: (detail: unknown) => void): () => void;
  /** Removes the widget from the page. */
  destroy(): void;
}

/** Mounts the launcher and the chat panel in a shadow root, and returns the widget's API. */
export function mountWidget(options: WidgetOptions): WidgetApi {
  const texts = new WidgetTexts(initialLocale(options.locale));
  const client = new WidgetClient(options.server.replace(/\/+$/, ''), () => texts.locale);
  const t = texts.t.bind(texts);
  const host = document.createElement('treeagent-widget');
  const shadow = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(WIDGET_CSS);
  shadow.adoptedStyleSheets = [sheet];
  const theme = options.theme ?? {};
  for (const [name, value] of Object.entries({
    '--treeagent-accent': theme.accent,
    '--treeagent-accent-text': theme.accentText,
    '--treeagent-font': theme.font,
    '--treeagent-radius': theme.radius,
  }))
    if (value) host.style.setProperty(name, value);

  const name = () => options.name ?? t('assistantName');
  const root = element('div', { class: 'root', 'data-position': options.position ?? 'right' });
  // Built node by node, not from HTML: a site that requires Trusted Types refuses innerHTML.
  const launcher = element('button', {
    type: 'button',
    class: 'launcher',
    'aria-expanded': 'false',
    'aria-controls': 'treeagent-panel',
  });
  const badge = element('span', { class: 'badge', hidden: '' });
  launcher.append(icon(CHAT_ICON), badge);
  const panel = element('section', { id: 'treeagent-panel', class: 'panel', role: 'dialog', hidden: '' });
  texts.bind(panel, 'aria-label', () => t('chatWith', { name: name() }));
  const header = element('header');
  if (options.avatar) header.append(element('img', { class: 'avatar', src: options.avatar, alt: '' }));
  const title = element('h2');
  texts.bind(title, null, name);
  const newButton = element('button', { type: 'button', class: 'new' });
  texts.bind(newButton, null, () => t('newConversation'));
  const closeButton = element('button', { type: 'button', class: 'close' }, '×');
  texts.bind(closeButton, 'aria-label', () => t('closeChat'));
  header.append(title, newButton, closeButton);
  // Focusable, so keyboard users can scroll the conversation.
  const log = element('div', { class: 'log', role: 'log', 'aria-live': 'polite', tabindex: '0' });
  texts.bind(log, 'aria-label', () => t('conversation'));
  const status = element('p', { class: 'handoff', role: 'status', hidden: '' });
  const typing = element('p', { class: 'typing', hidden: '' });
  const form = element('form', { class: 'composer' });
  const label = element('label', { class: 'sr-only', for: 'treeagent-input' });
  texts.bind(label, null, () => t('messageLabel'));
  const input = element('textarea', { id: 'treeagent-input', rows: '1' });
  const fileInput = element('input', { type: 'file', multiple: '', hidden: '', tabindex: '-1' });
  const attach = element('button', { type: 'button', class: 'attach' });
  attach.append(icon(CLIP_ICON));
  texts.bind(attach, 'aria-label', () => t('attachFiles'));
  const send = element('button', { type: 'submit', class: 'send' });
  texts.bind(send, null, () => t('send'));
  const hint = element('p', { class: 'hint', role: 'status' });
  form.append(label, fileInput, attach, input, send);
  panel.append(header, log, typing, status);
  root.append(panel, launcher);
  shadow.append(root);
  (options.container ?? document.body).append(host);
  host.lang = texts.locale;
  // From the page's start to the launcher on screen (docs/widget.md, "First paint").
  afterPaint(() => performance.measure('treeagent-widget-launcher-paint'));

  const listeners = new Map<WidgetEventName, Set<(detail: unknown) => void>>();
  const emit = (event: WidgetEventName, detail: unknown = null) => {
    for (const listener of listeners.get(event) ?? []) listener(detail);
  };
  let identity: WidgetIdentity | null = null;
  let unread = 0;
  let busy = false;
  let loaded = false;
  let waiting = false;
  let handoff: { status: 'waiting' | 'claimed'; operatorName: string | null } | null = null;
  let typist: string | null = null;

  const ensureSession = async () => {
    if (client.session) return;
    await client.start(identity);
    follow();
  };
  const uploads = new PendingUploads(texts, async (file) => {
    await ensureSession();
    return client.upload(file);
  });
  panel.append(uploads.list, form, hint);

  const showPlaceholder = texts.bind(input, 'placeholder', () =>
    t(waiting ? 'answerPlaceholder' : 'messagePlaceholder'),
  );
  const showLauncherLabel = texts.bind(launcher, 'aria-label', () =>
    unread ? t('openChatUnread', { name: name(), count: unread }) : t('openChat', { name: name() }),
  );
  const showHandoff = texts.bind(status, null, () =>
    handoff === null
      ? ''
      : handoff.status === 'waiting'
        ? t('waitingForOperator')
        : t('operatorAnswering', { name: handoff.operatorName ?? t('anOperator') }),
  );
  const showTyping = texts.bind(typing, null, () => (typist ? t('operatorTyping', { name: typist }) : ''));
  let hintTimer: ReturnType<typeof setTimeout> | undefined;
  const flash = (key: 'waitForUploads' | 'addTextToFiles') => {
    texts.bind(hint, null, () => t(key));
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => texts.bind(hint, null, () => ''), 4000);
  };

  const showUnread = () => {
    badge.hidden = unread === 0;
    badge.textContent = String(unread);
    showLauncherLabel();
  };
  const download = async (file: WidgetFile) => {
    try {
      const url = URL.createObjectURL(await client.download(file));
      const anchor = element('a', { href: url, download: file.name, hidden: '' });
      shadow.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      // The site's `error` event gets the reason; the customer the server's words for customers,
      // or the widget's (never "Failed to fetch").
      const reason = error instanceof Error ? error.message : String(error);
      const userMessage = error instanceof WidgetError ? error.userMessage : undefined;
      showError(new WidgetError('DOWNLOAD_FAILED', `${file.name}: ${reason}`, 0, userMessage), null, () =>
        t('downloadFailed', { name: file.name }),
      );
    }
  };
  const actions = {
    texts,
    onOption: (option: string) => void say(option, option),
    onFile: (file: WidgetFile) => void download(file),
  };
  const addMessage = (message: WidgetMessage, enabledOptions: boolean): HTMLElement => {
    const { bubble, options: group } = renderMessage(message, actions, enabledOptions);
    log.append(bubble);
    if (group) log.append(group);
    log.scrollTop = log.scrollHeight;
    if (message.role !== 'user' && panel.hidden) {
      unread += 1;
      showUnread();
    }
    return bubble;
  };
  const setWaiting = (value: boolean) => {
    waiting = value;
    showPlaceholder();
  };
  const disableOptions = () => {
    for (const button of log.querySelectorAll<HTMLButtonElement>('.option')) button.disabled = true;
  };
  /** `fallback`: the widget's own words for the failure, when the server has none for customers. */
  const showError = (
    error: unknown,
    retry: (() => void) | null,
    fallback = () => t(error instanceof WidgetError && error.status > 0 ? 'notSent' : 'unreachable'),
  ) => {
    const problem = error instanceof WidgetError ? error : new WidgetError('NETWORK', t('unreachable'), 0);
    const row = element('div', { class: 'error', role: 'alert' });
    // The server's words for the customer when it has some; never its words for developers. Bound,
    // so `setLocale` rewrites the widget's own words (the server's stay as it wrote them).
    texts.bind(row.appendChild(element('span')), null, () => problem.userMessage ?? fallback());
    if (retry) {
      const again = element('button', { type: 'button' });
      texts.bind(again, null, () => t('retry'));
      again.addEventListener('click', () => {
        row.remove();
        retry();
      });
      row.append(again);
    }
    log.append(row);
    log.scrollTop = log.scrollHeight;
    emit('error', { code: problem.code, message: problem.message });
  };

  // The session's news while the page is open: operators' messages, the handoff, their typing.
  let following: AbortController | null = null;
  const follow = () => {
    if (following || !client.session) return;
    const controller = new AbortController();
    following = controller;
    void client
      .follow(controller.signal, (event) => {
        if (event.type === 'entry') {
          const entry = event.entry;
          if (entry.content === null || (!entry.operator && entry.role !== 'system')) return;
          disableOptions();
          const message = messageOf(entry, '');
          typist = null;
          typing.hidden = true;
          showTyping();
          addMessage(message, true);
          emit('message', message);
        } else if (event.type === 'handoff') {
          // People had it and no longer: ask for a rating, as the chat page does.
          // Once a conversation: the server takes one rating each (a second is refused).
          if (handoff && !event.handoff && !client.session?.rated) {
            for (const asked of log.querySelectorAll('form.rate'))
              if (asked.querySelector('.rate-send')) asked.remove();
            log.append(satisfactionForm(texts, (rating, comment) => client.rate(rating, comment)));
            log.scrollTop = log.scrollHeight;
          }
          handoff = event.handoff;
          status.hidden = handoff === null;
          showHandoff();
          emit('handoff', event.handoff);
        } else if (event.type === 'typing') {
          typist = event.typing ? event.operatorName : null;
          typing.hidden = typist === null;
          showTyping();
        }
      })
      .finally(() => {
        if (following === controller) following = null;
      });
  };
  const stopFollowing = () => {
    following?.abort();
    following = null;
    handoff = null;
    typist = null;
    status.hidden = true;
    typing.hidden = true;
  };

  const loadHistory = async () => {
    loaded = true;
    try {
      const history = await client.history();
      // Cleared once the history is here, not before: what the live stream brings meanwhile (it
      // follows from the page's load) is in this history, and would show twice.
      // A rating asked while the panel was closed (its history not loaded yet) stays, after the history.
      const rating = [...log.querySelectorAll('form.rate')];
      log.replaceChildren();
      if (history === null) return client.forget();
      history.forEach((message, index) => {
        addMessage(message, index === history.length - 1);
      });
      log.append(...rating);
      // The last answer waits for the user's (a form's question): the box says so, as before the reload.
      setWaiting(Boolean([...history].reverse().find((message) => message.role !== 'system')?.waiting));
      unread = 0;
      showUnread();
      follow();
    } catch (error) {
      showError(error, () => void loadHistory());
    }
  };

  /** Bumped by a new conversation: what an older turn still brings is dropped. */
  let generation = 0;
  let inFlight: AbortController | null = null;
  /** Errors a second try can fix: the server not reached, its own failures, a rate limit. */
  const retryable = (error: unknown) =>
    !(error instanceof WidgetError) || error.status === 0 || error.status === 429 || error.status >= 500;
  /** The server no longer has the session (expired, deleted): the message starts a new one. */
  const sessionGone = (error: unknown) =>
    error instanceof WidgetError && (error.status === 404 || error.status === 401);

  const say = async (text: string, selectedOption?: string, files?: WidgetFile[]) => {
    if (busy) return;
    if (files === undefined && !selectedOption) {
      if (uploads.uploading) return flash('waitForUploads');
      if (!text.trim()) return uploads.ready().length ? flash('addTextToFiles') : undefined;
    }
    const attached = files ?? (selectedOption ? [] : uploads.ready());
    if (files === undefined && !selectedOption) uploads.clear();
    clearTimeout(hintTimer);
    texts.bind(hint, null, () => '');
    busy = true;
    send.disabled = true;
    const mine = generation;
    const current = () => generation === mine;
    const controller = new AbortController();
    inFlight = controller;
    // A chosen option's button is disabled with the others: the focus goes on to the message box.
    if (selectedOption && shadow.activeElement?.classList.contains('option')) input.focus();
    disableOptions();
    setWaiting(false);
    const bubble = addMessage(
      { id: '', role: 'user', text, options: [], files: attached, at: new Date().toISOString() },
      false,
    );
    let answer: HTMLElement | null = null;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await ensureSession();
          const ids = attached.map((file) => file.id);
          for await (const event of client.send(text, selectedOption, ids, controller.signal)) {
            if (!current()) return;
            if (event.type === 'text-delta') {
              answer ??= addMessage({ id: event.messageId, role: 'assistant', text: '', options: [] }, true);
              answer.querySelector('.text')!.textContent += event.delta;
            } else if (event.type === 'message' && event.message.content !== null) {
              const sent = event.message;
              const message: WidgetMessage = {
                id: sent.id,
                role: 'assistant',
                text: sent.content ?? '',
                options: sent.options,
                files: sent.attachments ?? [],
                inlineFiles: sent.dynamicAttachments ?? [],
                sources: sent.sources ?? [],
                at: new Date().toISOString(),
                waiting: sent.waitInteraction,
              };
              if (answer) answer.remove();
              answer = null;
              addMessage(message, true);
              setWaiting(Boolean(sent.waitInteraction));
              emit('message', message);
            } else if (event.type === 'error') {
              const { code, message, userMessage } = event.error;
              throw new WidgetError(code, message, event.status ?? 500, userMessage);
            }
          }
          return;
        } catch (error) {
          // The session expired or was deleted: as docs/widget.md says, the message starts a new one
          // (its files belonged to the old session: they are not sent again).
          if (attempt === 0 && sessionGone(error) && attached.length === 0 && current()) {
            stopFollowing();
            client.forget();
            continue;
          }
          throw error;
        }
      }
    } catch (error) {
      if (!current()) return;
      answer?.remove();
      if (retryable(error)) {
        // What the customer wrote stays, greyed, with the reason and Retry under it.
        bubble.classList.add('msg--failed');
        showError(error, () => {
          bubble.remove();
          void say(text, selectedOption, attached);
        });
      } else {
        // Nothing a retry could change (too long, refused): the text goes back to the box, to edit.
        bubble.remove();
        if (!selectedOption && input.value === '') input.value = text;
        // The files it had go back above the box too (uploaded: they go with the edited text).
        // (Not those of a session the server lost: they went with it.)
        if (files === undefined && !selectedOption && !sessionGone(error)) uploads.restore(attached);
        showError(error, null);
      }
    } finally {
      if (current()) {
        busy = false;
        send.disabled = false;
        inFlight = null;
      }
      told(client.session?.sessionId);
    }
  };

  const open = () => {
    if (!panel.hidden) return;
    performance.mark('treeagent-widget-open');
    afterPaint(() => performance.measure('treeagent-widget-open-paint', 'treeagent-widget-open'));
    panel.hidden = false;
    root.classList.add('is-open');
    launcher.setAttribute('aria-expanded', 'true');
    unread = 0;
    showUnread();
    if (!loaded) void loadHistory();
    input.focus();
    emit('open');
  };
  const close = () => {
    if (panel.hidden) return;
    panel.hidden = true;
    root.classList.remove('is-open');
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
    emit('close');
  };
  const newConversation = () => {
    // A turn still on its way belongs to the old conversation: stop it, and show nothing of it.
    generation += 1;
    inFlight?.abort();
    inFlight = null;
    busy = false;
    send.disabled = false;
    stopFollowing();
    client.forget();
    uploads.clear();
    setWaiting(false);
    log.replaceChildren();
    input.focus();
  };

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  newButton.addEventListener('click', newConversation);
  attach.addEventListener('click', () => fileInput.click());
  fileInput.addEventListener('change', () => {
    uploads.add([...(fileInput.files ?? [])]);
    fileInput.value = '';
    input.focus();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
    if (busy || uploads.uploading || !text.trim()) return void say(text);
    input.value = '';
    void say(text);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  // Esc closes; Tab stays inside the open panel (back to the launcher when it closes).
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [
      ...panel.querySelectorAll<HTMLElement>('button:not([disabled]), textarea, a[href], summary'),
    ].filter((candidate) => candidate.getClientRects().length > 0);
    const first = focusable[0];
    const last = focusable.at(-1);
    const active = shadow.activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first?.focus();
    }
  });
  // Another tab of the site, or another widget of this page for the same server (the channel reaches
  // both), says when a turn of its own ended: this one shows it too (its live stream carries only
  // operators' messages and the handoff). A conversation it does not hold yet, another widget of the
  // page started: it takes it up (the page's widgets share the stored session, so they must share
  // the conversation, or the next message of one would start another and overwrite it).
  const tabs =
    'BroadcastChannel' in window ? new BroadcastChannel(`treeagent.widget:${client.server}`) : null;
  tabs?.addEventListener('message', (event: MessageEvent<{ sessionId?: string }>) => {
    const sessionId = event.data?.sessionId;
    if (busy || !sessionId) return;
    if (client.session?.sessionId !== sessionId) {
      if (!client.takeUp(sessionId)) return;
      stopFollowing();
      follow();
    }
    if (!panel.hidden) void loadHistory();
    else loaded = false;
  });
  const told = (sessionId: string | undefined) => {
    if (sessionId) tabs?.postMessage({ sessionId });
  };
  // Another tab started or ended the conversation: take it up.
  const onStorage = (event: StorageEvent) => {
    if (!event.key?.startsWith('treeagent.widget:')) return;
    client.reload();
    stopFollowing();
    if (!panel.hidden) void loadHistory();
    else {
      loaded = false;
      follow();
    }
  };
  window.addEventListener('storage', onStorage);
  // A conversation from an earlier page: its news (an operator's reply) reaches the closed launcher's
  // badge. A visitor who never wrote has no session, and gets none here.
  follow();

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
        emit('error', error instanceof WidgetError ? { code: error.code, message: error.message } : null);
        throw error;
      }
      stopFollowing();
      follow();
      log.replaceChildren();
      emit('identify', { userId: next.userId });
    },
    setLocale(locale) {
      host.lang = locale;
      texts.setLocale(locale);
    },
    newConversation,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    destroy() {
      stopFollowing();
      tabs?.close();
      window.removeEventListener('storage', onStorage);
      host.remove();
    },
  };
}

/** Runs `then` once the next frame has been painted (the second animation frame after now). */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(then));
}
