import type { AuditLogResponse, OperatorSessionView, OperatorView } from '../../../src/api-types';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';

/** The audit log's filters (`GET /api/v1/operator/audit`); empty fields are not sent. */
export interface AuditFilters {
  sessionId: string;
  actorId: string;
  action: string;
}

/**
 * The operator's login, as the server sees it (`GET /api/v1/operator/me`): `null` when this browser
 * has no valid login (the cookie is HttpOnly: the page cannot read it, only ask the server).
 */
export async function currentOperator(api: ApiClient): Promise<OperatorView | null> {
  try {
    return (await api.json<OperatorSessionView>('/api/v1/operator/me')).operator;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'OPERATOR_LOGIN_REQUIRED') return null;
    throw error;
  }
}

/** `POST /api/v1/operator/login`: the server sets the login cookie. */
export function loginOperator(api: ApiClient, login: string, password: string): Promise<OperatorSessionView> {
  return api.json<OperatorSessionView>('/api/v1/operator/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
}

/** `POST /api/v1/operator/logout`: the login ends on the server and the cookie is cleared. */
export async function logoutOperator(api: ApiClient): Promise<void> {
  await api.request('/api/v1/operator/logout', { method: 'POST' });
}

/** The query of one page of the audit log: 100 entries, newest first, before `beforeId` when given. */
export function auditQuery(filters: AuditFilters, beforeId: number | null): string {
  const params = new URLSearchParams({ limit: '100' });
  for (const [key, value] of Object.entries(filters)) if (value.trim()) params.set(key, value.trim());
  if (beforeId !== null) params.set('beforeId', String(beforeId));
  return `/api/v1/operator/audit?${params}`;
}

/** `GET /api/v1/operator/audit` (admins): one page of the audit log. */
export function auditLog(
  api: ApiClient,
  filters: AuditFilters,
  beforeId: number | null,
): Promise<AuditLogResponse> {
  return api.json<AuditLogResponse>(auditQuery(filters, beforeId));
}
