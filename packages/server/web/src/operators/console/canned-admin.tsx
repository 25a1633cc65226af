import { useEffect, useState } from 'preact/hooks';
import type { CannedResponseView } from '../../../../src/api-types';
import { messageOf } from '../../api/api-client';
import { cannedApi } from '../../api/canned-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import './canned.css';

const EMPTY = { id: null as string | null, shortcut: '', team: '', text: '' };

/**
 * The admins' editor of canned responses, opened from the console's top bar: the list, and a form
 * to add or change one (`/shortcut`, team or every team, text with `{{name}}`, `{{state.<field>}}`).
 * Operators do not see it.
 */
export function CannedAdmin() {
  const { operator } = useOperator();
  const { api } = useApp();
  const t = useT('console');
  const [responses, setResponses] = useState<CannedResponseView[]>([]);
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);

  const load = async () => {
    try {
      setResponses((await cannedApi.list(api)).responses);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  useEffect(() => {
    if (operator.role === 'admin') void load();
  }, [operator.role]);

  if (operator.role !== 'admin') return null;

  const save = async (event: Event) => {
    event.preventDefault();
    const body = {
      shortcut: form.shortcut.replace(/^\//, ''),
      team: form.team.trim() || null,
      text: form.text,
    };
    try {
      if (form.id) await cannedApi.update(api, form.id, body);
      else await cannedApi.create(api, body);
      setForm(EMPTY);
      setError(null);
      await load();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  const remove = async (id: string) => {
    try {
      await cannedApi.remove(api, id);
      await load();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  return (
    <div id="canned-admin" class="canned-admin">
      <button
        type="button"
        class="ghost-button"
        aria-expanded={open}
        aria-controls="canned-admin-panel"
        onClick={() => setOpen(!open)}
      >
        {t('canned.manage')}
      </button>
      {/* Rendered only while open, so its fields are never under the page (or reachable) when closed. */}
      {open ? (
        <div id="canned-admin-panel" class="canned-admin-panel">
          <ul class="canned-admin-list">
            {responses.length === 0 ? <li class="muted">{t('canned.none')}</li> : null}
            {responses.map((response) => (
              <li key={response.id}>
                <strong>/{response.shortcut}</strong>{' '}
                <span class="muted">{response.team ?? t('canned.everyTeam')}</span>
                <p>{response.text}</p>
                <button
                  type="button"
                  class="ghost-button"
                  onClick={() =>
                    setForm({
                      id: response.id,
                      shortcut: response.shortcut,
                      team: response.team ?? '',
                      text: response.text,
                    })
                  }
                >
                  {t('canned.edit')}
                </button>
                <button type="button" class="ghost-button" onClick={() => void remove(response.id)}>
                  {t('canned.delete')}
                </button>
              </li>
            ))}
          </ul>
          <form id="canned-form" class="canned-form" onSubmit={save}>
            <label>
              {t('canned.shortcut')}
              <input
                id="canned-shortcut"
                required
                value={form.shortcut}
                onInput={(event) =>
                  setForm({ ...form, shortcut: (event.currentTarget as HTMLInputElement).value })
                }
              />
            </label>
            <label>
              {t('canned.team')}
              <input
                id="canned-team"
                placeholder={t('canned.everyTeam')}
                value={form.team}
                onInput={(event) =>
                  setForm({ ...form, team: (event.currentTarget as HTMLInputElement).value })
                }
              />
            </label>
            <label>
              {t('canned.text')}
              <textarea
                id="canned-text"
                rows={3}
                required
                placeholder={t('canned.textHint', { name: '{{name}}', order: '{{state.order}}' })}
                value={form.text}
                onInput={(event) =>
                  setForm({ ...form, text: (event.currentTarget as HTMLTextAreaElement).value })
                }
              />
            </label>
            {error ? (
              <p class="tone-error" role="alert">
                {error}
              </p>
            ) : null}
            <button id="canned-save" type="submit" class="primary-button">
              {form.id ? t('canned.update') : t('canned.add')}
            </button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
