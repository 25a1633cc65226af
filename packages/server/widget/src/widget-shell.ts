import type { WidgetOptions } from './widget-api';
import { afterPaint, CHAT_ICON, element, icon } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';
import { WIDGET_CSS } from './widget-styles';

/** The widget's frame on the page; the message box under the log is the composer's. */
export interface WidgetShell {
  host: HTMLElement;
  shadow: ShadowRoot;
  root: HTMLElement;
  launcher: HTMLButtonElement;
  badge: HTMLElement;
  panel: HTMLElement;
  newButton: HTMLButtonElement;
  closeButton: HTMLButtonElement;
  log: HTMLElement;
  /** The handoff's line (waiting for an operator, an operator answering). */
  status: HTMLElement;
  /** The operator's typing line. */
  typing: HTMLElement;
}

/**
 * Builds the widget's frame in a shadow root (its styles, the site's theme) and mounts it: the
 * launcher with its unread badge, the panel with its header, the conversation's log and the
 * handoff's and typing's lines. Built node by node, not from HTML: a site that requires Trusted
 * Types refuses innerHTML.
 */
export function mountShell(options: WidgetOptions, texts: WidgetTexts, name: () => string): WidgetShell {
  const t = texts.t.bind(texts);
  const host = document.createElement('treeagent-widget');
  const shadow = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(WIDGET_CSS);
  shadow.adoptedStyleSheets = [sheet];
  applyTheme(host, options.theme ?? {});

  const root = element('div', { class: 'root', 'data-position': options.position ?? 'right' });
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
  panel.append(header, log, typing, status);
  root.append(panel, launcher);
  shadow.append(root);
  (options.container ?? document.body).append(host);
  host.lang = texts.locale;
  // From the page's start to the launcher on screen (docs/widget.md, "First paint").
  afterPaint(() => performance.measure('treeagent-widget-launcher-paint'));
  return { host, shadow, root, launcher, badge, panel, newButton, closeButton, log, status, typing };
}

/** The site's theme as the custom properties the widget's styles read. */
function applyTheme(host: HTMLElement, theme: NonNullable<WidgetOptions['theme']>): void {
  for (const [name, value] of Object.entries({
    '--treeagent-accent': theme.accent,
    '--treeagent-accent-text': theme.accentText,
    '--treeagent-font': theme.font,
    '--treeagent-radius': theme.radius,
  }))
    if (value) host.style.setProperty(name, value);
}
