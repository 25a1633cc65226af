import { WidgetClient, WidgetError, type WidgetIdentity, type WidgetMessage } from './widget-client';
import { WIDGET_CSS } from './widget-styles';

/** How a site mounts the widget (the script tag's `data-*` attributes give the same). */
export interface WidgetOptions {
  /** The Tree Agent server, e.g. `https://agent.example.com` (default: where the script came from). */
  server: string;
  /** The assistant's name in the panel's header. Default `Assistant`. */
  name?: string;
  /** An image URL shown beside the name. */
  avatar?: string;
  /** `right` (default) or `left` bottom corner. */
  position?: 'left' | 'right';
  /** Theme: the accent colour, its text colour, the font, the panel's corner radius (CSS values). */
  theme?: { accent?: string; accentText?: string; font?: string; radius?: string };
  /** The language of the widget's texts and dates (BCP 47, e.g. `it-IT`). Default: the page's, then the browser's. */
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
  setLocale(locale: string): void;
  /** Starts a new conversation. */
  newConversation(): void;
  on(event: WidgetEventName, listener: (detail: unknown) => void): () => void;
  /** Removes the widget from the page. */
  destroy(): void;
}

const ICON_PATH = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';

/** Mounts the launcher and the chat panel in a shadow root, and returns the widget's API. */
export function mountWidget(options: WidgetOptions): WidgetApi {
  const client = new WidgetClient(options.server.replace(/\/+$/, ''));
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

  const name = options.name ?? 'Assistant';
  const root = element('div', { class: 'root', 'data-position': options.position ?? 'right' });
  const launcher = element('button', {
    type: 'button',
    class: 'launcher',
    'aria-label': `Open the chat with ${name}`,
    'aria-expanded': 'false',
    'aria-controls': 'treeagent-panel',
  });
  // Built node by node, not from HTML: a site that requires Trusted Types refuses innerHTML.
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', ICON_PATH);
  svg.append(path);
  launcher.append(svg);
  const badge = element('span', { class: 'badge', hidden: '' });
  launcher.append(badge);
  const panel = element('section', {
    id: 'treeagent-panel',
    class: 'panel',
    role: 'dialog',
    'aria-label': `Chat with ${name}`,
    hidden: '',
  });
  const header = element('header');
  if (options.avatar) header.append(element('img', { class: 'avatar', src: options.avatar, alt: '' }));
  const title = element('h2', {}, name);
  const newButton = element('button', { type: 'button', class: 'new' }, 'New conversation');
  const closeButton = element(
    'button',
    { type: 'button', class: 'close', 'aria-label': 'Close the chat' },
    '×',
  );
  header.append(title, newButton, closeButton);
  const log = element('div', {
    class: 'log',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Conversation',
  });
  const status = element('p', { class: 'handoff', role: 'status', hidden: '' });
  const typing = element('p', { class: 'typing', hidden: '' });
  const form = element('form', { class: 'composer' });
  const label = element('label', { class: 'sr-only', for: 'treeagent-input' }, 'Your message');
  const input = element('textarea', { id: 'treeagent-input', rows: '1', placeholder: 'Write a message…' });
  const send = element('button', { type: 'submit' }, 'Send');
  form.append(label, input, send);
  panel.append(header, log, typing, status, form);
  root.append(panel, launcher);
  shadow.append(root);
  (options.container ?? document.body).append(host);
  host.lang = options.locale ?? document.documentElement.lang ?? navigator.language;

  const listeners = new Map<WidgetEventName, Set<(detail: unknown) => void>>();
  const emit = (event: WidgetEventName, detail: unknown = null) => {
    for (const listener of listeners.get(event) ?? []) listener(detail);
  };
  let identity: WidgetIdentity | null = null;
  let unread = 0;
  let busy = false;
  let loaded = false;

  const showUnread = () => {
    badge.hidden = unread === 0;
    badge.textContent = String(unread);
    launcher.setAttribute(
      'aria-label',
      unread ? `Open the chat with ${name} (${unread} new)` : `Open the chat with ${name}`,
    );
  };
  const addMessage = (message: WidgetMessage, enabledOptions: boolean): HTMLElement => {
    const bubble = element('div', { class: `msg msg--${message.role}` });
    if (message.role === 'operator')
      bubble.append(element('span', { class: 'author' }, message.author ?? 'Operator'));
    const text = element('span', { class: 'text' }, message.text);
    bubble.append(text);
    log.append(bubble);
    if (message.options.length) {
      const group = element('div', { class: 'options', role: 'group', 'aria-label': 'Answer options' });
      for (const option of message.options) {
        const button = element('button', { type: 'button', class: 'option' }, option);
        button.disabled = !enabledOptions;
        button.addEventListener('click', () => void say(option, option));
        group.append(button);
      }
      log.append(group);
    }
    log.scrollTop = log.scrollHeight;
    if (message.role !== 'user' && panel.hidden) {
      unread += 1;
      showUnread();
    }
    return bubble;
  };
  const disableOptions = () => {
    for (const button of log.querySelectorAll<HTMLButtonElement>('.option')) button.disabled = true;
  };
  const showError = (error: unknown, retry: (() => void) | null) => {
    const problem =
      error instanceof WidgetError
        ? error
        : new WidgetError('NETWORK', 'The assistant cannot be reached.', 0);
    const row = element('div', { class: 'error', role: 'alert' }, problem.message);
    if (retry) {
      const again = element('button', { type: 'button' }, 'Retry');
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
          const message: WidgetMessage = {
            id: '',
            role: entry.operator ? 'operator' : 'system',
            text: entry.content,
            options: entry.options ?? [],
            ...(entry.operator ? { author: entry.operator.name } : {}),
          };
          typing.hidden = true;
          addMessage(message, true);
          emit('message', message);
        } else if (event.type === 'handoff') {
          const handoff = event.handoff;
          status.hidden = handoff === null;
          status.textContent =
            handoff === null
              ? ''
              : handoff.status === 'waiting'
                ? 'Waiting for an operator…'
                : `${handoff.operatorName ?? 'An operator'} is answering you.`;
          emit('handoff', handoff);
        } else if (event.type === 'typing') {
          typing.hidden = !event.typing;
          typing.textContent = event.typing ? `${event.operatorName} is typing…` : '';
        }
      })
      .finally(() => {
        if (following === controller) following = null;
      });
  };
  const stopFollowing = () => {
    following?.abort();
    following = null;
    status.hidden = true;
    typing.hidden = true;
  };

  const loadHistory = async () => {
    loaded = true;
    log.replaceChildren();
    try {
      const history = await client.history();
      if (history === null) return client.forget();
      history.forEach((message, index) => {
        addMessage(message, index === history.length - 1);
      });
      unread = 0;
      showUnread();
      follow();
    } catch (error) {
      showError(error, () => void loadHistory());
    }
  };

  const say = async (text: string, selectedOption?: string) => {
    if (busy || !text.trim()) return;
    busy = true;
    send.disabled = true;
    disableOptions();
    addMessage({ id: '', role: 'user', text, options: [] }, false);
    let answer: HTMLElement | null = null;
    try {
      if (!client.session) {
        await client.start(identity);
        follow();
      }
      for await (const event of client.send(text, selectedOption)) {
        if (event.type === 'text-delta') {
          answer ??= addMessage({ id: event.messageId, role: 'assistant', text: '', options: [] }, true);
          answer.querySelector('.text')!.textContent += event.delta;
        } else if (event.type === 'message' && event.message.content !== null) {
          const message: WidgetMessage = {
            id: event.message.id,
            role: 'assistant',
            text: event.message.content,
            options: event.message.options,
          };
          if (answer) answer.remove();
          answer = null;
          addMessage(message, true);
          emit('message', message);
        } else if (event.type === 'error') {
          throw new WidgetError(event.error.code, event.error.message, 500);
        }
      }
    } catch (error) {
      log.lastElementChild?.classList.contains('msg--user') && log.lastElementChild.remove();
      showError(error, () => void say(text, selectedOption));
    } finally {
      busy = false;
      send.disabled = false;
    }
  };

  const open = () => {
    if (!panel.hidden) return;
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
    stopFollowing();
    client.forget();
    log.replaceChildren();
    input.focus();
  };

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  newButton.addEventListener('click', newConversation);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
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
    const focusable = [...panel.querySelectorAll<HTMLElement>('button:not([disabled]), textarea')];
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
  // Another tab started or ended the conversation: take it up.
  const onStorage = (event: StorageEvent) => {
    if (!event.key?.startsWith('treeagent.widget:')) return;
    client.reload();
    stopFollowing();
    if (!panel.hidden) void loadHistory();
    else loaded = false;
  };
  window.addEventListener('storage', onStorage);

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
        stopFollowing();
        await client.start(next);
        follow();
      } catch (error) {
        identity = previous;
        emit('error', error instanceof WidgetError ? { code: error.code, message: error.message } : null);
        throw error;
      }
      log.replaceChildren();
      emit('identify', { userId: next.userId });
    },
    setLocale(locale) {
      host.lang = locale;
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
      window.removeEventListener('storage', onStorage);
      host.remove();
    },
  };
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}
