import { useT } from '../i18n/use-t';
import { useOperator } from './operator-gate';

/** The operator's name and a log-out button, for the top bar of a staff page. */
export function OperatorBadge() {
  const { operator, logout } = useOperator();
  const t = useT('common');
  return (
    <span class="operator-badge">
      <span id="operator-name" title={`${operator.id} (${operator.role})`}>
        {operator.name}
      </span>
      <button id="operator-logout" type="button" class="ghost-button" onClick={() => void logout()}>
        {t('gate.logOut')}
      </button>
    </span>
  );
}
