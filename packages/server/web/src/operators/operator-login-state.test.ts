import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { loginErrorMessage, roleAllows, stateAfterCheckFailed } from './operator-login-state';

describe('the operator login of staff pages', () => {
  it('shows the form without a login, a notice on a server without operators, and any other error as it is', () => {
    expect(stateAfterCheckFailed(new ApiError(401, 'OPERATOR_LOGIN_REQUIRED', 'Log in.'))).toEqual({
      kind: 'login',
      error: null,
    });
    expect(stateAfterCheckFailed(new ApiError(404, 'NOT_FOUND', 'This server has no operators.'))).toEqual({
      kind: 'no-operators',
      message: 'This server has no operators.',
    });
    expect(stateAfterCheckFailed(new ApiError(0, 'NETWORK', 'The server cannot be reached.'))).toEqual({
      kind: 'failed',
      error: 'The server cannot be reached.',
    });
    expect(stateAfterCheckFailed(new Error('boom'))).toEqual({ kind: 'failed', error: 'boom' });
  });

  it('says a refused login in plain words, and other failures as they are', () => {
    expect(loginErrorMessage(new ApiError(401, 'OPERATOR_LOGIN_FAILED', 'Invalid credentials'))).toBe(
      'The login or the password is wrong.',
    );
    expect(loginErrorMessage(new ApiError(429, 'RATE_LIMITED', 'Too many logins: wait a minute.'))).toBe(
      'Too many logins: wait a minute.',
    );
  });

  it('lets an admin open operator pages, and only an admin open admin pages', () => {
    expect(roleAllows('operator', 'operator')).toBe(true);
    expect(roleAllows('admin', 'operator')).toBe(true);
    expect(roleAllows('admin', 'admin')).toBe(true);
    expect(roleAllows('operator', 'admin')).toBe(false);
  });
});
