/*
 * The forms of @treeagent/components in the debug view: each form puts a summary of itself in
 * `serverMetadata.forms[name]` after every message it reads (docs/forms.md, "Debug view"). The app
 * does not import the components package (the slot's shape, `FormSlotReport`, is in the core's client
 * types, which both import); it reads that JSON defensively.
 */

import type { FormSlotReport } from '@treeagent/core/client';
import { useT } from '../i18n/use-t';

/** What a form reports after a message. */
export interface FormView {
  name: string;
  status: string;
  awaiting: string | null;
  attempts: number;
  slots: FormSlotReport[];
  extracted: { slot: string; value: unknown; parser: string; text: string; correction: boolean }[];
  misses: { slot: string; error: string; text: string; message?: string }[];
  outcome: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The forms reported in a turn's `serverMetadata`, in order; none when there is no `forms` key. */
export function formsOf(serverMetadata: Record<string, unknown> | undefined): FormView[] {
  const forms = serverMetadata?.forms;
  if (!isRecord(forms)) return [];
  return Object.entries(forms).flatMap(([name, value]) => {
    if (!isRecord(value)) return [];
    const message = isRecord(value.message) ? value.message : {};
    return [
      {
        name,
        status: text(value.status),
        awaiting: typeof value.awaiting === 'string' ? value.awaiting : null,
        attempts: typeof value.attempts === 'number' ? value.attempts : 0,
        slots: list(value.slots).map((slot) => ({
          name: text(slot.name),
          type: text(slot.type),
          required: slot.required !== false,
          value: slot.value,
          display: typeof slot.display === 'string' ? slot.display : null,
          parser: typeof slot.parser === 'string' ? slot.parser : null,
          text: typeof slot.text === 'string' ? slot.text : null,
          skipped: slot.skipped === true,
        })),
        extracted: list(message.extracted).map((item) => ({
          slot: text(item.slot),
          value: item.value,
          parser: text(item.parser),
          text: text(item.text),
          correction: item.correction === true,
        })),
        misses: list(message.misses).map((item) => ({
          slot: text(item.slot),
          error: text(item.error),
          text: text(item.text),
          ...(typeof item.message === 'string' ? { message: item.message } : {}),
        })),
        outcome: typeof message.outcome === 'string' ? message.outcome : null,
      },
    ];
  });
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The slots of each form, what this message gave (by which parser) and what was refused. */
export function FormSection({ forms }: { forms: FormView[] }) {
  const t = useT('debug');
  return (
    <div class="form-debug">
      {forms.map((form) => (
        <div class="form-debug-form" key={form.name} data-form={form.name}>
          <p class="form-debug-head">
            <strong>{form.name}</strong>{' '}
            <span class={`status-badge form-status-${form.status}`}>{form.status}</span>
            {form.awaiting ? (
              <span class="muted">
                {' '}
                {t('form.asking')} <code>{form.awaiting}</code>
                {form.attempts ? ` ${t('form.attempt', { attempt: form.attempts + 1 })}` : ''}
              </span>
            ) : null}
            {form.outcome ? <span class="muted"> · {t('form.next', { outcome: form.outcome })}</span> : null}
          </p>
          <table class="data-table form-slots-table">
            <thead>
              <tr>
                <th>{t('form.slot')}</th>
                <th>{t('form.type')}</th>
                <th>{t('form.value')}</th>
                <th>{t('form.parser')}</th>
                <th>{t('form.from')}</th>
              </tr>
            </thead>
            <tbody>
              {form.slots.map((slot) => (
                <tr key={slot.name} class={slot.name === form.awaiting ? 'form-slot-awaited' : undefined}>
                  <td>
                    <code>{slot.name}</code>
                    {slot.required ? '' : <span class="muted"> {t('form.optional')}</span>}
                  </td>
                  <td>{slot.type}</td>
                  <td>
                    {slot.display ??
                      (slot.skipped ? (
                        <span class="muted">{t('form.skipped')}</span>
                      ) : (
                        <span class="muted">—</span>
                      ))}
                  </td>
                  <td>{slot.parser ? <code>{slot.parser}</code> : <span class="muted">—</span>}</td>
                  <td>{slot.text ? <q>{slot.text}</q> : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="form-debug-subtitle">{t('form.thisMessage')}</p>
          {form.extracted.length || form.misses.length ? (
            <ul class="form-extractions">
              {form.extracted.map((item, index) => (
                <li key={`e${index}`} class="form-extracted">
                  <code>{item.slot}</code> = <strong>{shown(item.value)}</strong> {t('form.by')}{' '}
                  <code>{item.parser}</code> {t('form.fromText')} <q>{item.text}</q>
                  {item.correction ? <span class="form-correction"> {t('form.correction')}</span> : null}
                </li>
              ))}
              {form.misses.map((item, index) => (
                <li key={`m${index}`} class="form-refused">
                  <code>{item.slot}</code> {t('form.refused')} <code>{item.error}</code>
                  {item.message ? ` — ${item.message}` : ''} (<q>{item.text}</q>)
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty-note">{t('form.noValue')}</p>
          )}
        </div>
      ))}
    </div>
  );
}
