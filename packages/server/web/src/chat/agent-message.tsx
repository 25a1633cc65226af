import { type ContentPart, type Source, splitDynamicContent } from '@treeagent/core/client';
import type { ComponentChild } from 'preact';
import { useApp } from '../app/app-context';
import { FileChip, FileList, ImageFigure, isImage } from '../components/file-chip';
import { Icon } from '../components/icon';
import { richText } from '../components/rich-text';
import { useT } from '../i18n/use-t';
import { type AgentMessage as AgentMessageData, hasContent } from './turn-model';

/** What the user can do with a message's options. */
export interface OptionsState {
  /** Options of older messages are used up. */
  enabled: boolean;
  chosen: string | null;
  /** An option not to show here (the handoff bar's "back to the assistant" while people answer). */
  hidden?: string;
  onChoose(option: string): void;
}

/**
 * An agent message: its text as it streams, then the complete message — text with the dynamic
 * attachments in place of their `{{name.ext}}`, files, sources and options.
 */
export function AgentMessage({ data, options }: { data: AgentMessageData; options: OptionsState }) {
  const { debug, tree } = useApp();
  const t = useT('chat');
  const message = data.message;
  if (message && !hasContent(message)) return null;
  const label = data.nodeId !== null && tree ? tree.nodeLabel(data.nodeId) : null;
  const warning = message?.isWarning ?? false;
  const shownOptions = message?.options.filter((option) => option !== options.hidden) ?? [];
  const classes = ['msg', 'msg--agent'];
  if (data.streaming) classes.push('is-streaming');
  if (warning) classes.push('msg--warning');
  if (message?.waitInteraction) classes.push('is-waiting');
  const text = message ? (message.content ?? '') : data.text;
  return (
    <div
      class={classes.join(' ')}
      data-message-id={data.id}
      data-node-id={String(data.nodeId ?? '')}
      {...(data.streaming ? { 'aria-busy': 'true' } : {})}
    >
      <div class="avatar" aria-hidden="true">
        <Icon name="agent" />
      </div>
      <div class="msg-main">
        <div class="msg-label">
          <span class="msg-author">
            {warning ? (
              <>
                <Icon name="warning" />
                {t('message.warning')}
              </>
            ) : (
              t('message.agent')
            )}
          </span>
          {label && debug ? <span class="msg-node">{label}</span> : null}
        </div>
        <div class="bubble">
          {text || !message ? (
            <div class="content">
              {message ? contentWithFiles(splitDynamicContent(text, message.dynamicAttachments)) : text}
            </div>
          ) : null}
          {message ? <FileList files={message.attachments} label={t('message.files')} /> : null}
          {message?.sources.length ? <Sources sources={message.sources} /> : null}
        </div>
        {shownOptions.length ? (
          // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form's fieldset.
          <div
            class={`options${options.enabled ? '' : ' is-used'}`}
            role="group"
            aria-label={t('message.answerOptions')}
          >
            {shownOptions.map((option) => (
              <button
                key={option}
                type="button"
                class={`option${options.chosen === option ? ' is-selected' : ''}`}
                disabled={!options.enabled}
                onClick={() => options.onChoose(option)}
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

/**
 * The parts of a text: rich text, images as figures, other files as links. An image is a block
 * of its own, so the line breaks around it would be blank lines: they are dropped.
 */
function contentWithFiles(parts: readonly ContentPart[]): ComponentChild[] {
  const isImagePart = (part: ContentPart | undefined) => part?.type === 'file' && isImage(part.file);
  return parts.flatMap((part, index) => {
    if (part.type === 'file') {
      return [
        isImage(part.file) ? (
          <ImageFigure key={`f${index}`} file={part.file} />
        ) : (
          <FileChip key={`f${index}`} file={part.file} compact />
        ),
      ];
    }
    let value = part.text;
    if (isImagePart(parts[index - 1])) value = value.replace(/^\r?\n/, '');
    if (isImagePart(parts[index + 1])) value = value.replace(/\r?\n$/, '');
    return value ? richText(value) : [];
  });
}

/** The sources of a message, collapsed under it. */
function Sources({ sources }: { sources: readonly Source[] }) {
  const t = useT('chat');
  return (
    <details class="sources">
      <summary>
        <Icon name="book" />
        {t('message.sources', { count: sources.length })}
      </summary>
      <ol>
        {sources.map((source, index) => (
          <li key={index}>
            {source.url && /^https?:\/\//i.test(source.url) ? (
              <a class="source-title source-link" href={source.url} target="_blank" rel="noopener noreferrer">
                {source.title ?? source.url}
              </a>
            ) : source.title ? (
              <span class="source-title">{source.title}</span>
            ) : null}
            <span class="source-content">{source.content}</span>
            {source.chunkId !== undefined ? (
              <span class="source-chunk">{t('message.chunk', { id: source.chunkId })}</span>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
