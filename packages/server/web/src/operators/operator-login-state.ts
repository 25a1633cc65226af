import type { OperatorRoleName, OperatorView } from '../../../src/api-types';
import { messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { tOf } from '../i18n/use-t';

/** Where a staff page's login stands (what `OperatorGate` shows). */
export type OperatorLoginState =
  | { kind: 'checking' }
  | { kind: 'login'; error: string | null }
  | { kind: 'no-operators'; message: string }
  | { kind: 'failed'; error: string }
  | { kind: 'ready'; operator: OperatorView };

/**
 * The state after asking the server who is logged in failed: the login form when there is no
 * login (or it expired), "no operators" when this server has none (`/operator/me` answers 404),
 * and the error otherwise.
 */
export function stateAfterCheckFailed(error: unknown): OperatorLoginState {
  if (error instanceof ApiError && error.code === 'OPERATOR_LOGIN_REQUIRED')
    return { kind: 'login', error: null };
  if (error instanceof ApiError && error.status === 404)
    return { kind: 'no-operators', message: error.message };
  return { kind: 'failed', error: messageOf(error) };
}

/** What the login form says after a refused login: wrong credentials in plain words, any other error as it is. */
export function loginErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.code === 'OPERATOR_LOGIN_FAILED'
    ? tOf('common')('gate.wrongPassword')
    : messageOf(error);
}

/** Whether an operator of role `role` may open a page that `requires` a role (an admin may open operator pages). */
export function roleAllows(role: OperatorRoleName, requires: OperatorRoleName): boolean {
  return requires === 'operator' || role === 'admin';
}
