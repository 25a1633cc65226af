/**
 * The open panel's keyboard: Esc closes it (the focus goes back to the launcher); Tab stays inside
 * it, from the last focusable element back to the first and the other way round.
 */
export function trapFocus(panel: HTMLElement, shadow: ShadowRoot, close: () => void): void {
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
}
