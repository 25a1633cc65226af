import { mountWidget, type WidgetApi, type WidgetOptions } from './widget';

export type { WidgetApi, WidgetEventName, WidgetOptions } from './widget';
export type { WidgetIdentity, WidgetMessage } from './widget-client';
export { mountWidget };

declare global {
  interface Window {
    /** The widget the `<script src=".../widget.js">` tag mounted. */
    TreeAgentWidget?: WidgetApi;
  }
}

/**
 * With a classic `<script src="https://agent.example.com/widget.js" data-name="…">` tag, the
 * widget mounts itself from the tag's `data-*` attributes (`data-server`, default the script's
 * origin; `data-name`, `data-avatar`, `data-position`, `data-locale`, `data-accent`,
 * `data-accent-text`, `data-font`, `data-radius`) and is `window.TreeAgentWidget`. As an ES module
 * (`widget.mjs`) nothing mounts until the app calls `mountWidget`.
 */
const script = document.currentScript as HTMLScriptElement | null;
if (script?.src) {
  const data = script.dataset;
  const options: WidgetOptions = {
    server: data.server ?? new URL(script.src).origin,
    theme: {
      ...(data.accent ? { accent: data.accent } : {}),
      ...(data.accentText ? { accentText: data.accentText } : {}),
      ...(data.font ? { font: data.font } : {}),
      ...(data.radius ? { radius: data.radius } : {}),
    },
    ...(data.name ? { name: data.name } : {}),
    ...(data.avatar ? { avatar: data.avatar } : {}),
    ...(data.position === 'left' ? { position: 'left' as const } : {}),
    ...(data.locale ? { locale: data.locale } : {}),
  };
  const mount = () => {
    window.TreeAgentWidget = mountWidget(options);
    window.dispatchEvent(new CustomEvent('treeagent-widget-ready'));
  };
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
}
