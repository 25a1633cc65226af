import { element } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';

type Translate = WidgetTexts['t'];

/**
 * The rating asked in the widget after people had the conversation (the operator handed it back
 * or closed it): 1–5 as a group of toggle buttons, an optional comment, Send; then thanks. `send`
 * posts it (`POST /sessions/:id/satisfaction`, as the chat page does).
 */
export function satisfactionForm(
  t: Translate,
  send: (rating: number, comment: string) => Promise<void>,
): HTMLElement {
  const form = element('form', { class: 'rate' });
  const group = element('div', { role: 'group', 'aria-label': t('rateQuestion') });
  let rating = 0;
  const buttons = [1, 2, 3, 4, 5].map((value) => {
    const button = element(
      'button',
      {
        type: 'button',
        class: 'rate-value',
        'aria-pressed': 'false',
        'aria-label': `${value}: ${t(`rate${value as 1 | 2 | 3 | 4 | 5}`)}`,
      },
      String(value),
    );
    button.addEventListener('click', () => {
      rating = value;
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
    });
    return button;
  });
  group.append(...buttons);
  const comment = element('textarea', {
    rows: '2',
    maxlength: '2000',
    'aria-label': t('rateComment'),
    placeholder: t('rateComment'),
  });
  const problem = element('p', { class: 'rate-problem', role: 'alert', hidden: '' });
  const submit = element('button', { type: 'submit', class: 'rate-send' }, t('rateSend'));
  form.append(element('p', { class: 'rate-question' }, t('rateQuestion')), group, comment, problem, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fail = (message: string) => {
      problem.textContent = message;
      problem.hidden = false;
    };
    if (!rating) return fail(t('rateChoose'));
    submit.disabled = true;
    send(rating, comment.value.trim()).then(
      () => form.replaceChildren(element('p', { class: 'rate-question', role: 'status' }, t('rateThanks'))),
      (error: Error) => {
        submit.disabled = false;
        fail(error.message);
      },
    );
  });
  return form;
}
