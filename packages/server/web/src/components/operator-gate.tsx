import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { OperatorView } from '../../../src/api-types';
import { analyticsApi } from '../api/analytics-api';
import { ApiError } from '../api/api-error';
import { useApp } from '../app/app-context';
import { ErrorNotice } from './notice';

type GateState =
  | { kind: 'checking' }
  | { kind: 'login'; error: string | null }
  | { kind: 'no-operators'; message: string }
  | { kind: 'failed'; error: ApiError }
  | { kind: 'in'; operator: OperatorView };

/**
 * Shows its children to a logged-in operator (the analytics and review pages are operator
 * functions, docs/analytics.md), and a login form otherwise. The login is the server's HttpOnly
 * cookie; a session token or an API key is not enough.
 */
export function OperatorGate({ children }: { children: (operator: OperatorView) => ComponentChildren }) {
  const { api, withApiKey, setReady } = useApp();
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const classify = (error: unknown): GateState => {
    if (error instanceof ApiError && error.code === 'OPERATOR_LOGIN_REQUIRED')
      return { kind: 'login', error: null };
    if (error instanceof ApiError && error.status === 404)
      return { kind: 'no-operators', message: error.message };
    return {
      kind: 'failed',
      error: error instanceof ApiError ? error : new ApiError(0, 'ERROR', String(error)),
    };
  };
  useEffect(() => {
    withApiKey(() => analyticsApi.me(api)).then(
      (session) => setState({ kind: 'in', operator: session.operator }),
      (error: unknown) => setState(classify(error)),
    );
  }, [api, withApiKey]);
  useEffect(() => {
    if (state.kind !== 'checking' && state.kind !== 'in') setReady(true);
  }, [state, setReady]);
  if (state.kind === 'in') return <>{children(state.operator)}</>;
  if (state.kind === 'checking') return <p class="muted">Checking the operator login…</p>;
  if (state.kind === 'no-operators') {
    return (
      <ErrorNotice
        code="NO_OPERATORS"
        message={state.message}
        hint="Analytics and review are operator functions: start the server with operators (treeagent dev --operators operators.json)."
      />
    );
  }
  if (state.kind === 'failed')
    return <ErrorNotice code={state.error.code} status={state.error.status} message={state.error.message} />;
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const session = await withApiKey(() => analyticsApi.login(api, login, password));
      setPassword('');
      setState({ kind: 'in', operator: session.operator });
    } catch (error) {
      setState({ kind: 'login', error: error instanceof ApiError ? error.message : String(error) });
    }
  };
  return (
    <form id="operator-login" class="operator-login" onSubmit={submit}>
      <h2>Operator login</h2>
      <p class="muted">Analytics and conversation review are for operators and admins.</p>
      <label>
        Login
        <input
          name="login"
          autocomplete="username"
          value={login}
          onInput={(e) => setLogin(e.currentTarget.value)}
          required
        />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autocomplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          required
        />
      </label>
      {state.error ? (
        <p class="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <button type="submit" class="primary-button">
        Log in
      </button>
    </form>
  );
}
