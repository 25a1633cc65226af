import type { ComponentChildren } from 'preact';
import { useT } from '../i18n/use-t';
import { Icon } from './icon';

/** An error shown in the conversation: its code, HTTP status, message, a hint and actions. */
export function ErrorNotice(props: {
  code: string;
  message: string;
  status?: number | undefined;
  hint?: string | undefined;
  retryAfter?: string | undefined;
  system?: boolean;
  /** Shown to a customer: no error code nor HTTP status (words for developers). */
  customer?: boolean;
  children?: ComponentChildren;
}) {
  const t = useT('common');
  return (
    <div class={`notice notice--error${props.system ? ' notice--system' : ''}`} role="alert">
      <Icon name="error" />
      <div class="notice-text">
        <p class="notice-title">
          {t('error.title')}
          {props.customer ? null : (
            <>
              {' '}
              <code class="error-code">{props.code}</code>
            </>
          )}
          {props.status && !props.customer ? (
            <span class="error-status"> {t('error.httpStatus', { status: props.status })}</span>
          ) : null}
        </p>
        <p class="error-message">{props.message}</p>
        {props.hint ? <p class="notice-hint">{props.hint}</p> : null}
        {props.retryAfter ? (
          <p class="notice-hint">{t('error.retryAfter', { seconds: props.retryAfter })}</p>
        ) : null}
        <div class="notice-actions">{props.children}</div>
      </div>
    </div>
  );
}

/** A button in a notice. */
export function NoticeAction({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" class="ghost-button" onClick={onClick}>
      {label}
    </button>
  );
}
