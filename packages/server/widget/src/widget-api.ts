// The widget's public types (main.ts exports them): what a site passes, what it hears, what it calls.
import type { WidgetIdentity } from './widget-client';

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
