import { useT } from '../../i18n/use-t';
import { DraftArea } from '../draft-field';
import { JsonField } from './json-field';
import { inputValue, linesOf, type Patch } from './node-form-model';

/** An emit node's `emit` as the document holds it. */
export type EmitValue = {
  message?: { type?: string; content?: string | null };
  options?: string[] | null;
} | null;

/** What an emit node says: the message (static text, generated, none), its options and attachments. */
export function MessageSection({ emit, onEmit }: { emit: EmitValue; onEmit(next: Patch): void }) {
  const setEmit = (patch: Patch) =>
    onEmit({ ...(emit ?? { message: { type: 'static', content: '' } }), ...patch });
  const kind = emit?.message?.type ?? 'static';
  const t = useT('editor');
  return (
    <section class="form-section">
      <h3>{t('message.title')}</h3>
      <label class="field">
        <span>{t('message.kind')}</span>
        <select
          id="message-type"
          value={kind}
          onChange={(event) => {
            const next = inputValue(event);
            setEmit({
              message:
                next === 'static' ? { type: next, content: emit?.message?.content ?? '' } : { type: next },
            });
          }}
        >
          <option value="static">{t('message.static')}</option>
          <option value="generated">{t('message.generated')}</option>
          <option value="none">{t('message.none')}</option>
        </select>
      </label>
      {kind === 'static' ? (
        <label class="field">
          <span>{t('message.text')}</span>
          <DraftArea
            id="message-content"
            rows={3}
            value={emit?.message?.content ?? ''}
            onCommit={(typed) => setEmit({ message: { type: 'static', content: typed } })}
          />
        </label>
      ) : null}
      <label class="field">
        <span>{t('message.options')}</span>
        <DraftArea
          id="message-options"
          rows={2}
          value={(emit?.options ?? []).join('\n')}
          onCommit={(typed) => {
            const options = linesOf(typed);
            const next: Patch = { ...(emit ?? {}) };
            if (options.length) next.options = options;
            else delete next.options;
            onEmit(next);
          }}
        />
      </label>
      <JsonField
        label={t('message.attachments')}
        value={(emit as Patch | null)?.attachments}
        onChange={(value) => {
          const next: Patch = { ...(emit ?? {}) };
          if (value === undefined) delete next.attachments;
          else next.attachments = value;
          onEmit(next);
        }}
      />
    </section>
  );
}
