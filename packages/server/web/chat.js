/** The conversation: user and agent messages, streamed text, options, files, sources, notices. */
import { appendRichText, clear, formatBytes, formatMs, h, icon } from './dom.js';

/** `{{name.ext}}`, as the engine's `splitDynamicContent` reads it. */
const PLACEHOLDER = /\{\{\s*([^{}\n]+?\.[A-Za-z0-9]+)\s*\}\}/g;

/** Splits a text at its `{{name.ext}}` placeholders that name one of `files`. */
export function splitDynamicContent(content, files) {
  const parts = [];
  let last = 0;
  for (const match of content.matchAll(PLACEHOLDER)) {
    const file = files.find((candidate) => candidate.name === match[1].trim());
    if (!file) continue;
    if (match.index > last) parts.push({ type: 'text', text: content.slice(last, match.index) });
    parts.push({ type: 'file', file });
    last = match.index + match[0].length;
  }
  if (last < content.length) parts.push({ type: 'text', text: content.slice(last) });
  return parts;
}

const isImage = (file) => /^image\/(png|jpeg|gif|webp)$/.test(file.mimeType ?? '');

const ERROR_HINTS = {
  NETWORK: 'Check that the server is running, then retry.',
  UNAUTHORIZED: 'The server needs an API key or the session token.',
  FORBIDDEN: 'This session belongs to someone else: start a new chat.',
  NOT_FOUND: 'The session may be gone (the server restarted?): start a new chat.',
  SESSION_CONFLICT: 'The session changed while the turn ran: retry.',
  RATE_LIMITED: 'Too many messages: wait a moment, then retry.',
  SHUTTING_DOWN: 'The server is shutting down: retry once it is back.',
  SESSION_STORE: 'The session store is not reachable: retry later.',
  ABORTED: 'The turn was cancelled; nothing was saved.',
  INVALID_INPUT: 'The agent refused this input.',
  PAYLOAD_TOO_LARGE: 'The message or file is too large for this server.',
};

export class Chat {
  /**
   * @param {object} options
   * @param {HTMLElement} options.log the conversation container (role="log")
   * @param {import('./api.js').Api} options.api
   * @param {(option: string, button: HTMLButtonElement) => void} options.onOption
   * @param {(turn: TurnView) => void} options.onInspect
   * @param {(nodeId: number) => string | null} options.nodeLabel
   * @param {() => boolean} options.debug
   */
  constructor(options) {
    this.log = options.log;
    this.api = options.api;
    this.onOption = options.onOption;
    this.onInspect = options.onInspect;
    this.nodeLabel = options.nodeLabel;
    this.debug = options.debug;
    /** @type {TurnView[]} */
    this.turns = [];
  }

  reset() {
    this.turns = [];
    clear(this.log);
  }

  /** Starts a turn with the user's message. */
  startTurn({ text, selectedOption, attachments = [] }) {
    const turn = new TurnView(this, this.turns.length + 1);
    turn.addUserMessage(text, attachments, selectedOption);
    this.turns.push(turn);
    this.log.append(turn.element);
    turn.showTyping();
    turn.scrollIntoView();
    return turn;
  }

  /** Re-creates past turns from `GET /history` (no debug data is kept for them). */
  restore(history) {
    const byTurn = new Map();
    for (const entry of history) {
      if (!byTurn.has(entry.turn)) byTurn.set(entry.turn, []);
      byTurn.get(entry.turn).push(entry);
    }
    for (const [number, entries] of byTurn) {
      const turn = new TurnView(this, number);
      turn.restored = true;
      for (const entry of entries) {
        if (entry.role === 'user')
          turn.addUserMessage(entry.content ?? '', entry.attachments ?? [], entry.selectedOption);
        else {
          turn.renderMessage({
            id: `${number}-restored-${turn.messages.size + 1}`,
            nodeId: entry.nodeId ?? null,
            type: entry.content === null ? 'none' : 'static',
            content: entry.content,
            options: entry.options ?? [],
            attachments: entry.attachments ?? [],
            dynamicAttachments: [],
            sources: [],
            waitInteraction: false,
            isWarning: entry.isWarning ?? false,
          });
        }
      }
      turn.number = number;
      turn.addMeta({ restored: true });
      this.turns.push(turn);
      this.log.append(turn.element);
    }
    const last = this.turns.at(-1);
    for (const turn of this.turns) if (turn !== last) turn.disableOptions();
    last?.scrollIntoView();
  }

  /** Options belong to the last message only: older buttons are disabled when the user answers. */
  disableOptions() {
    for (const turn of this.turns) turn.disableOptions();
  }

  /** A file as a download link (the bytes are fetched with the session token). */
  fileLink(file, { compact = false } = {}) {
    const path = this.api.fileUrl(file);
    const size = formatBytes(file.size);
    const link = h(
      'a',
      {
        class: ['file-chip', compact && 'file-chip--inline', !path && 'is-unavailable'],
        href: path ?? '#',
        download: file.name,
        title: path ? `Download ${file.name}` : `${file.name} is not served by this server`,
        'aria-label': `${file.name}${size ? `, ${size}` : ''}${path ? ', download' : ', not downloadable'}`,
        dataset: { fileId: file.id },
        onclick: (event) => {
          event.preventDefault();
          if (path) void this.download(file, link);
        },
      },
      icon(isImage(file) ? 'image' : 'file'),
      h('span', { class: 'file-name', text: file.name }),
      size && !compact ? h('span', { class: 'file-size', text: size }) : null,
    );
    return link;
  }

  async download(file, link) {
    link.classList.add('is-loading');
    try {
      const url = await this.api.objectUrl(file);
      const anchor = h('a', { href: url, download: file.name, hidden: true });
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      link.classList.remove('is-failed');
    } catch (error) {
      link.classList.add('is-failed');
      link.title = `Download failed: ${error.message}`;
    } finally {
      link.classList.remove('is-loading');
    }
  }

  /** An image file shown in place, with its download link under it. */
  imageFigure(file) {
    const image = h('img', { alt: file.name, loading: 'lazy', decoding: 'async' });
    const figure = h(
      'figure',
      { class: 'file-figure', dataset: { fileId: file.id } },
      image,
      h('figcaption', {}, this.fileLink(file, { compact: true })),
    );
    if (this.api.fileUrl(file)) {
      this.api
        .objectUrl(file)
        .then((url) => {
          image.src = url;
        })
        .catch(() => figure.classList.add('is-failed'));
    }
    return figure;
  }
}

/** One turn: the user's message, the agent's answer as it streams, and the turn's outcome. */
export class TurnView {
  constructor(chat, number) {
    this.chat = chat;
    this.number = number;
    /** @type {Map<string, { element: HTMLElement, content: HTMLElement, text: string }>} */
    this.messages = new Map();
    /** Every event received for the turn, text deltas included. */
    this.events = [];
    this.output = null;
    this.durationMs = null;
    this.error = null;
    this.noMatch = false;
    this.startedAt = performance.now();
    this.userText = '';
    this.element = h('div', { class: 'turn', dataset: { turn: String(number) } });
    this.body = h('div', { class: 'turn-body' });
    this.element.append(this.body);
  }

  scrollIntoView() {
    const log = this.chat.log;
    log.scrollTop = log.scrollHeight;
  }

  addUserMessage(text, attachments, selectedOption) {
    this.userText = text;
    this.selectedOption = selectedOption ?? null;
    const files = attachments.length
      ? h(
          'ul',
          { class: 'files', 'aria-label': 'Attached files' },
          attachments.map((file) =>
            h('li', {}, isImage(file) ? this.chat.imageFigure(file) : this.chat.fileLink(file)),
          ),
        )
      : null;
    const bubble = h(
      'div',
      { class: 'bubble' },
      selectedOption ? h('span', { class: 'chosen-label', text: 'Option' }) : null,
      text ? h('div', { class: 'content', text }) : null,
      files,
    );
    this.body.append(
      h(
        'div',
        { class: ['msg', 'msg--user'], dataset: selectedOption ? { selectedOption } : {} },
        h('span', { class: 'sr-only', text: 'You said:' }),
        bubble,
      ),
    );
  }

  showTyping() {
    this.typing = h(
      'div',
      { class: 'typing', role: 'status' },
      h('span', { class: 'sr-only', text: 'The agent is answering…' }),
      h('span', { class: 'dot' }),
      h('span', { class: 'dot' }),
      h('span', { class: 'dot' }),
    );
    this.body.append(this.typing);
  }

  hideTyping() {
    this.typing?.remove();
    this.typing = null;
  }

  /** Applies one streamed event to the view. */
  handle(event) {
    this.events.push(event);
    switch (event.type) {
      case 'turn-start':
        this.number = event.turn;
        this.element.dataset.turn = String(event.turn);
        break;
      case 'message-start':
        this.hideTyping();
        this.ensureMessage(event.messageId, event.nodeId, event.messageType === 'generated');
        break;
      case 'text-delta': {
        this.hideTyping();
        const message = this.ensureMessage(event.messageId, event.nodeId, true);
        message.text += event.delta;
        message.content.append(event.delta);
        this.scrollIntoView();
        break;
      }
      case 'message':
        this.hideTyping();
        this.renderMessage(event.message);
        break;
      case 'no-match':
        this.noMatch = true;
        break;
      case 'error':
        this.showError({ status: event.status, ...event.error });
        break;
      case 'turn-end':
        this.finish(event.output, event.durationMs);
        break;
      default:
        break;
    }
  }

  ensureMessage(id, nodeId, streaming) {
    let message = this.messages.get(id);
    if (message) return message;
    const content = h('div', { class: 'content' });
    const bubble = h('div', { class: 'bubble' }, content);
    const label = this.chat.nodeLabel(nodeId);
    const element = h(
      'div',
      {
        class: ['msg', 'msg--agent', streaming && 'is-streaming'],
        dataset: { messageId: id, nodeId: String(nodeId ?? '') },
        'aria-busy': streaming ? 'true' : undefined,
      },
      h('div', { class: 'avatar', 'aria-hidden': 'true' }, icon('agent')),
      h(
        'div',
        { class: 'msg-main' },
        h(
          'div',
          { class: 'msg-label' },
          h('span', { class: 'msg-author', text: 'Agent' }),
          label && this.chat.debug() ? h('span', { class: 'msg-node', text: label }) : null,
        ),
        bubble,
      ),
    );
    message = { element, bubble, content, text: '' };
    this.messages.set(id, message);
    if (this.typing) this.typing.before(element);
    else this.body.append(element);
    return message;
  }

  /** Renders a complete message (replacing its streamed text). */
  renderMessage(message) {
    const hasSomething =
      (message.content !== null && message.content !== '') ||
      message.options.length ||
      message.attachments.length ||
      message.sources.length;
    const view = this.ensureMessage(message.id, message.nodeId, false);
    view.data = message;
    const { element, bubble, content } = view;
    element.classList.remove('is-streaming');
    element.removeAttribute('aria-busy');
    if (!hasSomething) {
      element.remove();
      return;
    }
    if (message.isWarning) {
      element.classList.add('msg--warning');
      const author = element.querySelector('.msg-author');
      author.replaceChildren(icon('warning'), 'Warning');
    }
    clear(content);
    const text = message.content ?? '';
    const parts = splitDynamicContent(text, message.dynamicAttachments ?? []);
    parts.forEach((part, index) => {
      if (part.type === 'file') {
        if (isImage(part.file)) content.append(this.chat.imageFigure(part.file));
        else content.append(this.chat.fileLink(part.file, { compact: true }));
        return;
      }
      // An image is a block of its own: the line breaks around it would be blank lines.
      let value = part.text;
      if (parts[index - 1]?.type === 'file' && isImage(parts[index - 1].file))
        value = value.replace(/^\r?\n/, '');
      if (parts[index + 1]?.type === 'file' && isImage(parts[index + 1].file))
        value = value.replace(/\r?\n$/, '');
      if (value) appendRichText(content, value);
    });
    if (!text) content.remove();
    bubble.querySelector('.files')?.remove();
    if (message.attachments.length) {
      bubble.append(
        h(
          'ul',
          { class: 'files', 'aria-label': 'Files' },
          message.attachments.map((file) =>
            h('li', {}, isImage(file) ? this.chat.imageFigure(file) : this.chat.fileLink(file)),
          ),
        ),
      );
    }
    bubble.querySelector('.sources')?.remove();
    if (message.sources.length) bubble.append(sourcesList(message.sources));
    element.querySelector('.options')?.remove();
    if (message.options.length) {
      element.querySelector('.msg-main').append(
        h(
          'div',
          { class: 'options', role: 'group', 'aria-label': 'Answer options' },
          message.options.map((option) =>
            h('button', {
              type: 'button',
              class: 'option',
              text: option,
              onclick: (event) => this.chat.onOption(option, event.currentTarget),
            }),
          ),
        ),
      );
    }
    if (message.waitInteraction) element.classList.add('is-waiting');
    this.scrollIntoView();
  }

  disableOptions() {
    for (const button of this.element.querySelectorAll('.options button')) button.disabled = true;
    for (const group of this.element.querySelectorAll('.options')) group.classList.add('is-used');
  }

  showError(error) {
    this.hideTyping();
    this.error = error;
    for (const message of this.messages.values()) {
      message.element.classList.remove('is-streaming');
      message.element.removeAttribute('aria-busy');
    }
    const hint = ERROR_HINTS[error.code];
    const actions = h('div', { class: 'notice-actions' });
    this.errorActions = actions;
    this.body.append(
      h(
        'div',
        { class: ['notice', 'notice--error'], role: 'alert' },
        icon('error'),
        h(
          'div',
          { class: 'notice-text' },
          h(
            'p',
            { class: 'notice-title' },
            'Error ',
            h('code', { class: 'error-code', text: error.code ?? 'ERROR' }),
            error.status ? h('span', { class: 'error-status', text: ` HTTP ${error.status}` }) : null,
          ),
          h('p', { class: 'error-message', text: error.message ?? 'Something went wrong.' }),
          hint ? h('p', { class: 'notice-hint', text: hint }) : null,
          error.retryAfter
            ? h('p', { class: 'notice-hint', text: `Retry after ${error.retryAfter} s.` })
            : null,
          actions,
        ),
      ),
    );
    this.addMeta({});
    this.scrollIntoView();
  }

  /** The turn ended: the output is final (the trace too, in debug mode). */
  finish(output, durationMs) {
    this.hideTyping();
    this.output = output;
    this.durationMs = Number.isFinite(durationMs) ? durationMs : performance.now() - this.startedAt;
    this.number = output.turn ?? this.number;
    for (const message of output.messages ?? []) {
      const view = this.messages.get(message.id);
      if (!view?.data) this.renderMessage(message);
    }
    if (output.status === 'no-match' || this.noMatch) {
      this.noMatch = true;
      this.body.append(
        h(
          'div',
          { class: ['notice', 'notice--nomatch'], role: 'status' },
          icon('nomatch'),
          h(
            'div',
            { class: 'notice-text' },
            h('p', { class: 'notice-title', text: 'No match' }),
            h('p', {
              text: 'Nothing in the agent fits this message, and the agent has no fallback. Try rephrasing it.',
            }),
          ),
        ),
      );
    }
    this.addMeta({});
    this.scrollIntoView();
  }

  /** The line under the turn: number, duration, final node, and the debug button. */
  addMeta({ restored = false }) {
    this.element.querySelector('.turn-meta')?.remove();
    const nodeId = this.output?.nodeId;
    const label = nodeId !== null && nodeId !== undefined ? this.chat.nodeLabel(nodeId) : null;
    const parts = [`Turn ${this.number}`];
    if (restored) parts.push('restored from history');
    if (this.durationMs !== null && !restored) parts.push(formatMs(this.durationMs));
    if (label && this.chat.debug()) parts.push(`ended at ${label}`);
    const meta = h('div', { class: 'turn-meta' }, h('span', { text: parts.join(' · ') }));
    if (this.chat.debug() && !restored) {
      this.inspectButton = h(
        'button',
        {
          type: 'button',
          class: 'link-button inspect',
          'aria-label': `Debug turn ${this.number}`,
          onclick: () => this.chat.onInspect(this),
        },
        icon('bug'),
        'Debug',
      );
      meta.append(this.inspectButton);
    }
    this.element.append(meta);
  }

  /** The last message asked the user to answer. */
  get waitsForUser() {
    return (this.output?.messages ?? []).some((message) => message.waitInteraction);
  }
}

function sourcesList(sources) {
  return h(
    'details',
    { class: 'sources' },
    h('summary', {}, icon('book'), `Sources (${sources.length})`),
    h(
      'ol',
      {},
      sources.map((source) =>
        h(
          'li',
          {},
          source.title ? h('span', { class: 'source-title', text: source.title }) : null,
          h('span', { class: 'source-content', text: source.content }),
          source.chunkId !== undefined
            ? h('span', { class: 'source-chunk', text: `chunk ${source.chunkId}` })
            : null,
        ),
      ),
    ),
  );
}
