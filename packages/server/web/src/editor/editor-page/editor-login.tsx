import { useEffect } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { OperatorGate } from '../../operators/operator-gate';

/** The load failures of the editor that a login fixes: the page shows the staff login form for them. */
export const LOGIN_ERRORS: ReadonlySet<string> = new Set([
  'OPERATOR_LOGIN_REQUIRED',
  'OPERATOR_LOGIN_FAILED',
]);

/**
 * The editor before an admin logged in: the one staff login form (`OperatorGate`, admins only),
 * then the tree loads again (`onLogin`), instead of the server's refusal shown as an error.
 */
export function EditorLogin({ onLogin }: { onLogin(): void }) {
  const t = useT('common');
  return (
    <OperatorGate requires="admin" title={t('gate.editor')}>
      <LoadOnce run={onLogin} />
    </OperatorGate>
  );
}

function LoadOnce({ run }: { run(): void }) {
  const t = useT('editor');
  useEffect(() => run(), [run]);
  return <p class="note">{t('loading')}</p>;
}
