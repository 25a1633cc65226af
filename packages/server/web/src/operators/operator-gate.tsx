import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { OperatorRoleName, OperatorView } from '../../../src/api-types';
import { TopBar } from '../app/top-bar';
import { ErrorNotice } from '../components/notice';
import { OperatorLoginForm } from './operator-login-form';
import { roleAllows } from './operator-login-state';
import { SingleSignOn } from './single-sign-on';
import { useOperatorLogin } from './use-operator-login';
import './operators.css';
import { useT } from '../i18n/use-t';

/** The logged-in operator of a page behind `OperatorGate`, and how to log out. */
export interface OperatorSession {
  operator: OperatorView;
  logout(): Promise<void>;
}

const OperatorContext = createContext<OperatorSession | null>(null);

/** The operator of the page; inside `<OperatorGate>` only. */
export function useOperator(): OperatorSession {
  const session = useContext(OperatorContext);
  if (!session) throw new Error('useOperator() is used outside <OperatorGate>: wrap the page in it.');
  return session;
}

/**
 * The one gate of every staff page (console, analytics, review, sources, audit): shows its children
 * only to a logged-in operator of at least the role `requires` (an admin may open operator pages);
 * anyone else gets the login form, under the top bar. The login lives in an HttpOnly cookie set by
 * the server, so it is never readable by the page's scripts (`useOperatorLogin`). The page renders
 * its own top bar and reads the operator with `useOperator()`.
 *
 * @example <OperatorGate requires="admin" title="the audit log"><AuditLogView /></OperatorGate>
 */
export function OperatorGate({
  requires = 'operator',
  title,
  children,
}: {
  /** The role the page needs (`admin` pages refuse operators). Default `operator`. */
  requires?: OperatorRoleName;
  /** What the login form says it opens ("the operator console"). */
  title: string;
  children: ComponentChildren;
}) {
  const { state, login, logout } = useOperatorLogin();
  const t = useT('common');
  if (state.kind === 'ready' && roleAllows(state.operator.role, requires)) {
    return (
      <OperatorContext.Provider value={{ operator: state.operator, logout }}>
        {children}
      </OperatorContext.Provider>
    );
  }
  return (
    <>
      <TopBar />
      {state.kind === 'checking' ? <p class="operator-gate-status muted">{t('gate.checking')}</p> : null}
      {state.kind === 'failed' ? (
        <p class="operator-gate-status tone-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.kind === 'no-operators' ? (
        <main class="operator-login-wrap">
          <ErrorNotice code="NO_OPERATORS" message={state.message} hint={t('gate.noOperatorsHint')} />
        </main>
      ) : null}
      {state.kind === 'login' ? (
        <OperatorLoginForm
          title={title}
          error={state.error}
          onLogin={(name, password) => void login(name, password)}
        />
      ) : null}
      {state.kind === 'login' ? <SingleSignOn /> : null}
      {state.kind === 'ready' ? (
        <p class="operator-gate-status tone-error" role="alert">
          {t('gate.adminsOnly', { page: title, name: state.operator.name })}{' '}
          <button type="button" class="ghost-button" onClick={() => void logout()}>
            {t('gate.logOut')}
          </button>
        </p>
      ) : null}
    </>
  );
}
