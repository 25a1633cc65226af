import type { WidgetFile, WidgetMessage, WidgetSource } from './widget-client';
import { appendRichText, element } from './widget-dom';
import { handoffText } from './widget-handoff-text';
import type { WidgetTexts } from './widget-i18n';

/** What a rendered message needs from the widget. */
export interface MessageActions {
  texts: WidgetTexts;
  onOption(option: string): void;
  onFile(file: WidgetFile): void;
}

/**
 * One message as the chat page shows it: the author (an operator by name), the text (rich, with the
 * files of `{{name.ext}}` in place), the attached files as download buttons, the sources under it
 * (links when they have a web address), the time; then its options as buttons.
 */
export function renderMessage(
  message: WidgetMessage,
  actions: MessageActions,
  enabledOptions: boolean,
): { bubble: HTMLElement; options: HTMLElement | null } {
  const { texts } = actions;
  const bubble = element('div', { class: `msg msg--${message.role}` });
  if (message.role === 'user')
    texts.bind(bubble.appendChild(element('span', { class: 'sr-only' })), null, () => texts.t('youSaid'));
  if (message.role === 'operator') {
    const author = element('span', { class: 'author' });
    texts.bind(author, null, () => message.author ?? texts.t('operator'));
    bubble.append(author);
  }
  const text = element('span', { class: 'text' });
  const inline = message.inlineFiles ?? [];
  const handoff = message.handoff;
  if (handoff) texts.bind(text, null, () => handoffText(texts, handoff));
  else
    appendRichText(text, message.text, (name) => {
      const file = inline.find((candidate) => candidate.name === name);
      return file ? fileButton(file, actions) : null;
    });
  bubble.append(text);
  if (message.files?.length) {
    const list = element('ul', { class: 'files' });
    for (const file of message.files) {
      const item = element('li');
      item.append(fileButton(file, actions));
      list.append(item);
    }
    bubble.append(list);
  }
  if (message.sources?.length) bubble.append(sourcesOf(message.sources, texts));
  if (message.at) {
    const time = element('time', { datetime: message.at });
    texts.bind(time, null, () => texts.time(message.at!));
    bubble.append(time);
  }
  if (!message.options.length) return { bubble, options: null };
  const group = element('div', { class: 'options', role: 'group' });
  texts.bind(group, 'aria-label', () => texts.t('answerOptions'));
  for (const option of message.options) {
    const button = element('button', { type: 'button', class: 'option' }, option);
    button.disabled = !enabledOptions;
    button.addEventListener('click', () => actions.onOption(option));
    group.append(button);
  }
  return { bubble, options: group };
}

/** A file as a button that downloads it (with the session token: a plain link could not). */
function fileButton(file: WidgetFile, actions: MessageActions): HTMLButtonElement {
  const { texts } = actions;
  const button = element('button', { type: 'button', class: 'file', 'data-file-id': file.id }, file.name);
  texts.bind(button, 'aria-label', () =>
    texts.t('downloadFile', { name: file.name, size: file.size === undefined ? '' : texts.bytes(file.size) }),
  );
  button.addEventListener('click', () => actions.onFile(file));
  return button;
}

/** The sources of an answer, collapsed under it. */
function sourcesOf(sources: WidgetSource[], texts: WidgetTexts): HTMLElement {
  const details = element('details', { class: 'sources' });
  const summary = element('summary');
  texts.bind(summary, null, () => texts.t('sources', { count: sources.length }));
  const list = element('ol');
  for (const source of sources) {
    const item = element('li');
    const title = source.title ?? source.url;
    if (source.url && /^https?:\/\//i.test(source.url))
      item.append(element('a', { href: source.url, target: '_blank', rel: 'noopener noreferrer' }, title));
    else if (title) item.append(element('strong', {}, title));
    item.append(element('span', { class: 'source-content' }, source.content));
    list.append(item);
  }
  details.append(summary, list);
  return details;
}
