import type { WidgetEventName } from './widget-api';

/** The site's listeners of the widget's events (`on` in the API), and what tells them. */
export class WidgetEvents {
  #listeners = new Map<WidgetEventName, Set<(detail: unknown) => void>>();

  on(event: WidgetEventName, listener: (detail: unknown) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(listener);
    this.#listeners.set(event, set);
    return () => set.delete(listener);
  }

  emit(event: WidgetEventName, detail: unknown = null): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(detail);
  }
}
