import type { HistoryEntry } from '@treeagent/core/client';
import type { SessionEventHandoff } from '../../../src/api-types';
import { FileList } from '../components/file-chip';
import { Icon } from '../components/icon';
import { richText } from '../components/rich-text';
import { handoffText } from './handoff-text';
import './handoff.css';
import { useT } from '../i18n/use-t';

/** An operator's message, or a handoff row, after a turn's answer. */
export function Followup({
  entry,
  optionsEnabled,
  onOption,
}: {
  entry: HistoryEntry;
  optionsEnabled: boolean;
  onOption(option: string): void;
}) {
  const t = useT('chat');
  if (entry.role === 'system') {
    return (
      <p class="handoff-row" role="status">
        {entry.handoff ? handoffText(t, entry.handoff) : entry.content}
      </p>
    );
  }
  return (
    <div class="msg msg--agent msg--operator">
      <div class="avatar avatar--operator" aria-hidden="true">
        {(entry.operator?.name ?? '?').slice(0, 1).toUpperCase()}
      </div>
      <div class="msg-main">
        <div class="msg-label">
          <span class="msg-author operator-author">{entry.operator?.name ?? t('handoff.operator')}</span>
        </div>
        <div class="bubble">
          {entry.content ? <div class="content">{richText(entry.content)}</div> : null}
          <FileList files={entry.attachments ?? []} label={t('handoff.filesFromOperator')} />
        </div>
        {entry.options?.length ? (
          // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form's fieldset.
          <div class="options" role="group" aria-label={t('message.answerOptions')}>
            {entry.options.map((option) => (
              <button
                key={option}
                type="button"
                class="option"
                disabled={!optionsEnabled}
                onClick={() => onOption(option)}
              >
                {option}
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The bar above the message box while people have the session: waiting, or who answers, and typing. */
export function HandoffBar({
  handoff,
  typing,
  onReturn,
}: {
  handoff: SessionEventHandoff | null;
  typing: string | null;
  onReturn(option: string): void;
}) {
  const t = useT('chat');
  if (!handoff) return null;
  return (
    <div id="handoff-bar" class={`handoff-bar handoff-bar--${handoff.status}`} role="status">
      <Icon name="chat" />
      <span id="handoff-status">
        {handoff.status === 'waiting'
          ? t('handoff.waiting')
          : handoff.operatorName
            ? t('handoff.answering', { name: handoff.operatorName })
            : t('handoff.anOperatorAnswers')}
      </span>
      {typing ? (
        <span id="operator-typing" class="operator-typing">
          {t('handoff.typing', { name: typing })}
        </span>
      ) : null}
      {handoff.returnOption ? (
        <button type="button" class="ghost-button" onClick={() => onReturn(handoff.returnOption!)}>
          {handoff.returnOption}
        </button>
      ) : null}
    </div>
  );
}
