import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import type { OperatorRoleName, OperatorView } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { Icon } from '../components/icon';
import { currentOperator, loginOperator, logoutOperator } from './operator-api';
import './operators.css';

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

type GateState =
  | { kind: 'checking' }
  | { kind: 'login'; error: string | null }
  | { kind: 'ready'; operator: OperatorView }
  | { kind: 'failed'; error: string };

/**
 * Shows its children only to a logged-in operator of at least the role `requires` (an admin may see operator
 * pages); anyone else gets the login form. The login lives in an HttpOnly cookie set by the server,
 * so it is never readable by the page's scripts. Pages for operators or admins (the console, the
 * audit log, analytics) render inside it and read the operator with `useOperator()`.
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
  const { api, withApiKey, setReady } = useApp();
  const [state, setState] = useState<GateState>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    withApiKey(() => currentOperator(api)).then(
      (operator) => live && setState(operator ? { kind: 'ready', operator } : { kind: 'login', error: null }),
      (error: unknown) => live && setState({ kind: 'failed', error: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [api, withApiKey]);

  useEffect(() => {
    // The page itself says when it is ready; the form is a page of its own.
    if (state.kind === 'login' || state.kind === 'failed') setReady(true);
    return () => setReady(false);
  }, [state.kind, setReady]);

  const logout = useCallback(async () => {
    try {
      await logoutOperator(api);
    } finally {
      setState({ kind: 'login', error: null });
    }
  }, [api]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    try {
      const { operator } = await withApiKey(() =>
        loginOperator(api, String(data.get('login') ?? ''), String(data.get('password') ?? '')),
      );
      setState({ kind: 'ready', operator });
    } catch (error) {
      setState({
        kind: 'login',
        error:
          error instanceof ApiError && error.code === 'OPERATOR_LOGIN_FAILED'
            ? 'The login or the password is wrong.'
            : messageOf(error),
      });
    }
  };

  if (state.kind === 'checking') {
    return (
      <>
        <TopBar />
        <p class="operator-gate-status muted">Checking your login…</p>
      </>
    );
  }
  if (state.kind === 'failed') {
    return (
      <>
        <TopBar />
        <p class="operator-gate-status tone-error" role="alert">
          {state.error}
        </p>
      </>
    );
  }
  if (state.kind === 'login') {
    return (
      <>
        <TopBar />
        <main class="operator-login-wrap">
          <form id="operator-login" class="operator-login" onSubmit={submit}>
            <h1>
              <Icon name="key" /> Operator login
            </h1>
            <p class="muted">Log in to open {title}.</p>
            {state.error ? (
              <p id="operator-login-error" class="tone-error" role="alert">
                {state.error}
              </p>
            ) : null}
            <label for="operator-login-name">Login</label>
            <input id="operator-login-name" name="login" autocomplete="username" required />
            <label for="operator-password">Password</label>
            <input
              id="operator-password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
            />
            <button type="submit" class="primary-button">
              Log in
            </button>
          </form>
        </main>
      </>
    );
  }
  if (requires === 'admin' && state.operator.role !== 'admin') {
    return (
      <>
        <TopBar />
        <p class="operator-gate-status tone-error" role="alert">
          {title} is for admins; {state.operator.name} is an operator.{' '}
          <button type="button" class="ghost-button" onClick={() => void logout()}>
            Log out
          </button>
        </p>
      </>
    );
  }
  return (
    <OperatorContext.Provider value={{ operator: state.operator, logout }}>
      {children}
    </OperatorContext.Provider>
  );
}

/** The operator's name and a log-out button, for the top bar of an operator page. */
export function OperatorBadge() {
  const { operator, logout } = useOperator();
  return (
    <span class="operator-badge">
      <span id="operator-name" title={`${operator.id} (${operator.role})`}>
        {operator.name}
      </span>
      <button id="operator-logout" type="button" class="ghost-button" onClick={() => void logout()}>
        Log out
      </button>
    </span>
  );
}
