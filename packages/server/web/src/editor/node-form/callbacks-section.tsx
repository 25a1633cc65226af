import { useT } from '../../i18n/use-t';
import { callbackChoices, inputValue, withEntry } from './node-form-model';

/** The callbacks a node of its type supports, each picked from the module's exports. */
export function CallbacksSection({
  supported,
  callbacks,
  exported,
  hasModule,
  onCallbacks,
}: {
  supported: readonly string[];
  callbacks: Record<string, string>;
  /** The module's exported callback names. */
  exported: string[];
  hasModule: boolean;
  onCallbacks(next: Record<string, string> | undefined): void;
}) {
  const t = useT('editor');
  return (
    <section class="form-section">
      <h3>{t('callbacks.title')}</h3>
      {!hasModule ? <p class="note">{t('callbacks.noModule')}</p> : null}
      {supported.map((key) => (
        <label key={key} class="field field-inline">
          <span>{key}</span>
          <select
            id={`callback-${key}`}
            value={callbacks[key] ?? ''}
            onChange={(event) => onCallbacks(withEntry(callbacks, key, inputValue(event)))}
          >
            <option value="">{t('none')}</option>
            {callbackChoices(exported, callbacks[key]).map((name) => (
              <option key={name} value={name}>
                {name}
                {exported.includes(name) ? '' : ` ${t('notExported')}`}
              </option>
            ))}
          </select>
        </label>
      ))}
    </section>
  );
}
