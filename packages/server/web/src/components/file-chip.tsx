import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api/api-client';
import { type LinkedFile, sessionApi } from '../api/session-api';
import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';
import { formatBytes } from './format';
import { Icon } from './icon';

/** Images the page shows in place (the browser renders them safely). */
export function isImage(file: LinkedFile): boolean {
  return /^image\/(png|jpeg|gif|webp)$/.test(file.mimeType ?? '');
}

/**
 * A file as a download link. The bytes are fetched with the session token, then saved under the
 * file's name; a file this server does not serve is shown, not linked.
 */
export function FileChip({ file, compact = false }: { file: LinkedFile; compact?: boolean }) {
  const { api } = useApp();
  const t = useT('common');
  const [state, setState] = useState<{ loading: boolean; failed: string | null }>({
    loading: false,
    failed: null,
  });
  const path = sessionApi.fileUrl(api, file);
  const size = formatBytes(file.size);
  const download = async (event: MouseEvent) => {
    event.preventDefault();
    if (!path) return;
    setState({ loading: true, failed: null });
    try {
      const url = await sessionApi.objectUrl(api, file);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = file.name;
      anchor.hidden = true;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setState({ loading: false, failed: null });
    } catch (error) {
      setState({ loading: false, failed: messageOf(error) });
    }
  };
  const classes = ['file-chip', compact && 'file-chip--inline', !path && 'is-unavailable'];
  if (state.loading) classes.push('is-loading');
  if (state.failed) classes.push('is-failed');
  return (
    <a
      class={classes.filter(Boolean).join(' ')}
      href={path ?? '#'}
      download={file.name}
      title={
        state.failed
          ? t('file.downloadFailed', { error: state.failed })
          : path
            ? t('file.download', { name: file.name })
            : t('file.notServed', { name: file.name })
      }
      aria-label={t(path ? 'file.labelDownload' : 'file.labelNotDownloadable', {
        name: size ? `${file.name}, ${size}` : file.name,
      })}
      data-file-id={file.id}
      onClick={download}
    >
      <Icon name={isImage(file) ? 'image' : 'file'} />
      <span class="file-name">{file.name}</span>
      {size && !compact ? <span class="file-size">{size}</span> : null}
    </a>
  );
}

/** An image file shown in place, with its download link under it. */
export function ImageFigure({ file }: { file: LinkedFile }) {
  const { api } = useApp();
  const [source, setSource] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!sessionApi.fileUrl(api, file)) return;
    let live = true;
    sessionApi.objectUrl(api, file).then(
      (url) => live && setSource(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [api, file]);
  return (
    <figure class={`file-figure${failed ? ' is-failed' : ''}`} data-file-id={file.id}>
      <img alt={file.name} loading="lazy" decoding="async" {...(source ? { src: source } : {})} />
      <figcaption>
        <FileChip file={file} compact />
      </figcaption>
    </figure>
  );
}

/** A file as the conversation shows it: an image in place, anything else as a link. */
export function FileView({ file }: { file: LinkedFile }) {
  return isImage(file) ? <ImageFigure file={file} /> : <FileChip file={file} />;
}

/** A list of files (attachments of a message). */
export function FileList({ files, label }: { files: readonly LinkedFile[]; label: string }) {
  if (!files.length) return null;
  return (
    <ul class="files" aria-label={label}>
      {files.map((file) => (
        <li key={file.id}>
          <FileView file={file} />
        </li>
      ))}
    </ul>
  );
}
