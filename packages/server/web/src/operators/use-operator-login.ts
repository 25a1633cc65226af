import { useCallback, useEffect, useState } from 'preact/hooks';
import { currentOperator, loginOperator, logoutOperator } from '../api/operator-api';
import { useApp } from '../app/app-context';
import { loginErrorMessage, type OperatorLoginState, stateAfterCheckFailed } from './operator-login-state';

/** A staff page's login: where it stands, and how to log in and out. */
export interface OperatorLogin {
  state: OperatorLoginState;
  login(login: string, password: string): Promise<void>;
  logout(): Promise<void>;
}

/**
 * The operator login of a staff page (what `OperatorGate` runs): asks the server who is logged in
 * (`GET /api/v1/operator/me`; the login is an HttpOnly cookie the page cannot read), logs in and
 * out. While the gate shows its own form or an error, the page counts as ready (`body.is-ready`).
 */
export function useOperatorLogin(): OperatorLogin {
  const { api, withApiKey, setReady } = useApp();
  const [state, setState] = useState<OperatorLoginState>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    withApiKey(() => currentOperator(api)).then(
      (operator) => live && setState(operator ? { kind: 'ready', operator } : { kind: 'login', error: null }),
      (error: unknown) => live && setState(stateAfterCheckFailed(error)),
    );
    return () => {
      live = false;
    };
  }, [api, withApiKey]);

  useEffect(() => {
    // The page itself says when it is ready; the form (or an error) is a page of its own.
    if (state.kind !== 'checking' && state.kind !== 'ready') setReady(true);
    return () => setReady(false);
  }, [state.kind, setReady]);

  const login = useCallback(
    async (name: string, password: string) => {
      try {
        const { operator } = await withApiKey(() => loginOperator(api, name, password));
        setState({ kind: 'ready', operator });
      } catch (error) {
        setState({ kind: 'login', error: loginErrorMessage(error) });
      }
    },
    [api, withApiKey],
  );

  const logout = useCallback(async () => {
    try {
      await logoutOperator(api);
    } finally {
      setState({ kind: 'login', error: null });
    }
  }, [api]);

  return { state, login, logout };
}
