import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { DraftInput } from '../draft-field';
import {
  type Chunk,
  checked,
  chunkText,
  inputValue,
  linesOf,
  parseChunkExtra,
  updateChunkAt,
} from './node-form-model';

/** A node's chunks: each one's text (and `forRag` on a query node) and extra, removal, and a paste of many. */
export function ChunksSection({
  chunks,
  isQuery,
  onChunks,
}: {
  chunks: Chunk[];
  isQuery: boolean;
  onChunks(next: Chunk[]): void;
}) {
  const [paste, setPaste] = useState('');
  const t = useT('editor');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const update = (index: number, change: Parameters<typeof updateChunkAt>[2]) =>
    onChunks(updateChunkAt(chunks, index, change));
  return (
    <section class="form-section">
      <h3>{t('chunks.title', { count: chunks.length })}</h3>
      <ol class="chunk-list">
        {chunks.map((chunk, index) => (
          <li key={index} class="chunk-row">
            <DraftInput
              class="chunk-text"
              aria-label={t('chunks.chunk', { number: index + 1 })}
              value={chunkText(chunk)}
              onCommit={(typed) => update(index, (object) => ({ ...object, text: typed }))}
            />
            {isQuery ? (
              <label class="check" title={t('chunks.forRagTitle')}>
                <input
                  type="checkbox"
                  checked={typeof chunk === 'object' && chunk.forRag === true}
                  onChange={(event) =>
                    update(index, (object) => {
                      const next = { ...object };
                      if (checked(event)) next.forRag = true;
                      else delete next.forRag;
                      return next;
                    })
                  }
                />
                {t('chunks.forRag')}
              </label>
            ) : null}
            <DraftInput
              class="chunk-extra"
              aria-label={t('chunks.extra', { number: index + 1 })}
              placeholder={t('chunks.extraPlaceholder')}
              value={typeof chunk === 'object' && chunk.extra ? JSON.stringify(chunk.extra) : ''}
              onCommit={(typed) => {
                const parsed = parseChunkExtra(typed, index);
                if ('error' in parsed) {
                  setJsonError(parsed.error);
                  return;
                }
                setJsonError(null);
                update(index, (object) => {
                  const next = { ...object };
                  if (parsed.extra) next.extra = parsed.extra;
                  else delete next.extra;
                  return next;
                });
              }}
            />
            <button
              type="button"
              class="button-icon"
              aria-label={t('chunks.remove', { number: index + 1 })}
              onClick={() => onChunks(chunks.filter((_, position) => position !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      {jsonError ? <p class="finding is-error">{jsonError}</p> : null}
      <label class="field">
        <span>{t('chunks.paste')}</span>
        <textarea id="chunk-paste" rows={3} value={paste} onInput={(event) => setPaste(inputValue(event))} />
      </label>
      <button
        type="button"
        id="add-chunks"
        class="button-small"
        disabled={!paste.trim()}
        onClick={() => {
          onChunks([...chunks, ...linesOf(paste)]);
          setPaste('');
        }}
      >
        {t('chunks.add')}
      </button>
    </section>
  );
}
