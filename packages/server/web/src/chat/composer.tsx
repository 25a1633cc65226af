import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { SessionEventHandoff } from '../../../src/api-types';
import { formatBytes } from '../components/format';
import { Icon } from '../components/icon';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';
import type { PendingFile, Uploads } from './use-uploads';

/** The message box: text, files, send and stop, and a hint line (which says when the agent waits). */
export function Composer(props: {
  busy: boolean;
  /** The agent's last message waits for the user's answer. */
  waiting: boolean;
  /** People have the session (waiting for one, or one answers): the hint says so, not that the agent waits. */
  handoff?: SessionEventHandoff | null;
  uploads: Uploads;
  /** Files are dragged over the chat. */
  dropping: boolean;
  input: RefObject<HTMLTextAreaElement | null>;
  onSend(text: string): void;
  onStop(): void;
  /** The user is typing (text in the box) or stopped: passed on to the operators while they have the session. */
  onTyping?(typing: boolean): void;
}) {
  const { uploads, input } = props;
  const t = useT('chat');
  const [text, setText] = useState('');
  const [flash, setFlash] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`;
  }, [text, input]);

  const flashHint = (message: string) => {
    setFlash(message);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFlash(null), 3000);
  };

  const submit = (event: Event) => {
    event.preventDefault();
    if (props.busy) return;
    if (uploads.uploading) return flashHint(t('composer.waitForUploads'));
    if (!text.trim()) {
      flashHint(uploads.ready().length ? t('composer.addMessageForFiles') : t('composer.writeFirst'));
      input.current?.focus();
      return;
    }
    props.onSend(text);
    props.onTyping?.(false);
    setText('');
  };

  return (
    <form id="composer" class={composerClass(props)} noValidate onSubmit={submit}>
      <div id="drop-hint" class="drop-hint" hidden={!props.dropping}>
        {t('composer.dropFiles')}
      </div>
      <ul id="pending-files" class="pending-files" aria-label={t('composer.filesToSend')}>
        {uploads.pending.map((entry) => (
          <PendingFileItem
            key={entry.key}
            entry={entry}
            onRemove={() => {
              uploads.remove(entry.key);
              input.current?.focus();
            }}
          />
        ))}
      </ul>
      <div class="composer-box">
        <input
          id="file-input"
          class="file-input sr-only"
          type="file"
          multiple
          onChange={(event) => {
            const element = event.currentTarget;
            void uploads.add([...(element.files ?? [])]);
            element.value = '';
          }}
        />
        <label for="file-input" class="icon-button attach-button" title={t('composer.attachFiles')}>
          <Icon name="clip" />
          <span class="sr-only">{t('composer.attachFiles')}</span>
        </label>
        <label for="message-input" class="sr-only">
          {t('composer.message')}
        </label>
        <textarea
          id="message-input"
          ref={input}
          rows={1}
          placeholder={props.waiting ? t('composer.yourAnswer') : t('composer.writeMessage')}
          aria-describedby="composer-hint"
          autocomplete="off"
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            props.onTyping?.(event.currentTarget.value.trim() !== '');
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button id="send-button" type="submit" class="send-button" hidden={props.busy}>
          <Icon name="send" />
          <span>{t('composer.send')}</span>
        </button>
        <button
          id="stop-button"
          type="button"
          class="stop-button"
          hidden={!props.busy}
          onClick={props.onStop}
        >
          <Icon name="stop" />
          <span>{t('composer.stop')}</span>
        </button>
      </div>
      <p id="composer-hint" class="composer-hint" aria-live="polite">
        {flash ? (
          <span class="hint-alert">{flash}</span>
        ) : props.handoff ? (
          <span class="hint-handoff">
            {props.handoff.status === 'waiting'
              ? t('composer.operatorWillRead')
              : props.handoff.operatorName
                ? t('composer.operatorReads', { name: props.handoff.operatorName })
                : t('composer.theOperatorReads')}
          </span>
        ) : props.waiting ? (
          <>
            <span class="waiting-dot" aria-hidden="true" />
            {t('composer.agentWaits')}
          </>
        ) : (
          <span class="keys">{markup(t('composer.keys'))}</span>
        )}
      </p>
    </form>
  );
}

function composerClass(props: {
  busy: boolean;
  waiting: boolean;
  handoff?: SessionEventHandoff | null;
}): string {
  const waiting = props.waiting && !props.handoff;
  return ['composer', props.busy && 'is-busy', waiting && 'is-waiting'].filter(Boolean).join(' ');
}

function PendingFileItem({ entry, onRemove }: { entry: PendingFile; onRemove(): void }) {
  const t = useT('chat');
  const status =
    entry.status === 'uploading'
      ? t('composer.uploading')
      : entry.status === 'failed'
        ? t('composer.uploadFailed', { error: entry.error ?? '' })
        : formatBytes(entry.metadata?.size ?? entry.file.size);
  return (
    <li class={`pending-file is-${entry.status}`} data-status={entry.status}>
      <Icon name={entry.file.type.startsWith('image/') ? 'image' : 'file'} />
      <span class="file-name">{entry.file.name}</span>
      <span class="file-size">{status}</span>
      <button
        type="button"
        class="icon-button remove-file"
        title={t('composer.remove', { name: entry.file.name })}
        onClick={onRemove}
      >
        <Icon name="close" />
        <span class="sr-only">{t('composer.remove', { name: entry.file.name })}</span>
      </button>
    </li>
  );
}
