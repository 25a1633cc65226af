import { WidgetError } from './widget-client';
import { element } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';

/**
 * The rating asked in the widget after people had the conversation (the operator handed it back
 * or closed it): 1–5 as a group of toggle buttons, an optional comment, Send; then thanks. `send`
 * posts it (`POST /sessions/:id/satisfaction`, as the chat page does). Its texts are bound, so
 * `setLocale` rewrites an open form too.
 */
export function satisfactionForm(
  texts: WidgetTexts,
  send: (rating: number, comment: string) => Promise<void>,
): HTMLElement {
  const t = texts.t.bind(texts);
  const form = element('form', { class: 'rate' });
  const group = element('div', { role: 'group' });
  texts.bind(group, 'aria-label', () => t('rateQuestion'));
  let rating = 0;
  const buttons = [1, 2, 3, 4, 5].map((value) => {
    const button = element(
      'button',
      { type: 'button', class: 'rate-value', 'aria-pressed': 'false' },
      String(value),
    );
    texts.bind(button, 'aria-label', () => `${value}: ${t(`rate${value as 1 | 2 | 3 | 4 | 5}`)}`);
    button.addEventListener('click', () => {
      rating = value;
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
    });
    return button;
  });
  group.append(...buttons);
  const comment = element('textarea', { rows: '2', maxlength: '2000' });
  texts.bind(comment, 'aria-label', () => t('rateComment'));
  texts.bind(comment, 'placeholder', () => t('rateComment'));
  const problem = element('p', { class: 'rate-problem', role: 'alert', hidden: '' });
  const submit = element('button', { type: 'submit', class: 'rate-send' });
  texts.bind(submit, null, () => t('rateSend'));
  const question = element('p', { class: 'rate-question' });
  texts.bind(question, null, () => t('rateQuestion'));
  form.append(question, group, comment, problem, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fail = (text: () => string) => {
      texts.bind(problem, null, text);
      problem.hidden = false;
    };
    if (!rating) return fail(() => t('rateChoose'));
    submit.disabled = true;
    send(rating, comment.value.trim()).then(
      () => {
        const thanks = element('p', { class: 'rate-question', role: 'status' });
        texts.bind(thanks, null, () => t('rateThanks'));
        form.replaceChildren(thanks);
      },
      (error: unknown) => {
        // Rated already (another tab, an earlier handoff): nothing to ask, nothing to report.
        if (error instanceof WidgetError && error.code === 'ALREADY_RATED') return form.remove();
        submit.disabled = false;
        // The server's words for the customer when it has some; never its words for developers.
        const shown = error instanceof WidgetError ? error.userMessage : undefined;
        fail(() => shown ?? t('rateFailed'));
      },
    );
  });
  return form;
}
