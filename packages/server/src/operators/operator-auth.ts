import {
  type AuditLog,
  type AuditValue,
  InMemoryAuditLog,
  InMemoryOperatorSessions,
  type OperatorSessions,
} from '@treeagent/core/adapter';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createSecret, hashSecret } from '../auth/secrets.js';
import { ApiError } from '../errors/api-error.js';
import type { ServerLogger } from '../errors/error-response.js';
import { isHttps } from '../http/client-address.js';
import type { EventStreams } from '../http/event-streams.js';
import type { OidcOptions } from './oidc/oidc-options.js';
import {
  type OperatorDirectory,
  type OperatorDirectoryChange,
  type OperatorIdentity,
  type OperatorRole,
  roleAllows,
} from './operator-accounts.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The operator of a request that passed `OperatorAuth.require()`. */
    operator: OperatorIdentity;
  }
}

/** The cookie that carries an operator's login in the web app (HttpOnly, SameSite=Strict, Path=/api). */
export const OPERATOR_COOKIE = 'treeagent_operator';

/** The header that carries an operator's login for programs (the value of the cookie). */
export const OPERATOR_TOKEN_HEADER = 'x-operator-token';

/** Default `loginTtlMs`: 12 hours, one shift. */
export const DEFAULT_OPERATOR_LOGIN_TTL_MS = 12 * 60 * 60 * 1000;

/** Operators of a server (option `operators` of `createApp`): who they are, their logins, the audit log. */
export interface OperatorOptions {
  /**
   * Who may log in with a password: `operatorDirectory(loadOperatorsFile('operators.json'))`, or
   * your own. Optional when `oidc` is set (then only single sign-on logs in).
   */
  directory?: OperatorDirectory;
  /** Single sign-on through an OpenID Connect provider (docs/security.md). */
  oidc?: OidcOptions;
  /**
   * Where logins live. Default: in memory (one process; operators log in again after a restart).
   * With several processes use `openSqlite(...).operatorSessions` or `PostgresOperatorSessions`.
   */
  sessions?: OperatorSessions;
  /** The audit log of operator actions. Default: in memory; `openSqlite(...).auditLog` or `PostgresAuditLog` keep it. */
  auditLog?: AuditLog;
  /** How long a login lasts. Default 12 hours. */
  loginTtlMs?: number;
}

/** What an action to audit concerns: the session and ids, counts or names (never texts). */
export interface AuditDetails {
  sessionId?: string | null;
  detail?: Record<string, AuditValue>;
}

/**
 * Operator authentication, shared by every route that operators or admins call: login and logout,
 * a middleware per role (`require('operator')`, `require('admin')`), and the audit log. An operator's
 * credential is its own: a login token (256 random bits, kept hashed) in the `treeagent_operator`
 * cookie or the `X-Operator-Token` header — never a session token, never an API key. API keys (when
 * configured) are still needed under `/api` like for every other route.
 */
export class OperatorAuth {
  readonly configured: boolean;
  readonly auditLog: AuditLog;
  readonly #directory: OperatorDirectory | null;
  readonly #sessions: OperatorSessions;
  readonly #ttlMs: number;
  readonly #logger: ServerLogger;
  readonly #now: () => Date;
  readonly #streams: EventStreams | null;
  /** Logins made by single sign-on, by token hash: who they are comes from the provider, not the directory. */
  /** The single sign-on settings, or `null`. */
  readonly oidc: OidcOptions | null;

  /**
   * `streams`: the open event streams, so that a logout ends its login's streams, and a change of
   * the directory (`OperatorDirectory.onChange`: an operator removed, demoted) ends that operator's.
   */
  constructor(
    options: OperatorOptions | undefined,
    logger: ServerLogger,
    now: () => Date = () => new Date(),
    streams: EventStreams | null = null,
  ) {
    this.configured = options !== undefined;
    this.oidc = options?.oidc ?? null;
    if (options && !options.directory && !options.oidc)
      throw new TypeError('operators needs a directory (an operators file), oidc (single sign-on), or both.');
    this.#directory = options ? (options.directory ?? NO_PASSWORDS) : null;
    this.#sessions = options?.sessions ?? new InMemoryOperatorSessions();
    this.auditLog = options?.auditLog ?? new InMemoryAuditLog();
    this.#ttlMs = options?.loginTtlMs ?? DEFAULT_OPERATOR_LOGIN_TTL_MS;
    this.#logger = logger;
    this.#now = now;
    this.#streams = streams;
    this.#directory?.onChange?.((change) => this.#applyChange(change));
  }

  /**
   * The name colleagues see of the operator `id`, from the directory; null when it is not there (an
   * operator removed, or one who signs in by single sign-on only).
   */
  async nameOf(id: string): Promise<string | null> {
    return (await this.#directory?.find(id))?.name ?? null;
  }

  /**
   * Checks `login` and `password`; on success starts a login (cookie set on `c`) and audits
   * `operator.login`, else audits `operator.login-failed` and throws 401.
   */
  async login(
    c: Context,
    login: string,
    password: string,
  ): Promise<{ operator: OperatorIdentity; expiresAt: Date }> {
    const directory = this.#requireConfigured();
    const operator = await directory.authenticate(login, password);
    if (!operator) {
      const known = await directory.find(login);
      await this.audit(known, 'operator.login-failed', {});
      throw new ApiError(401, 'OPERATOR_LOGIN_FAILED', 'The login or the password is wrong.');
    }
    // Audited first: a login that cannot be audited does not happen.
    await this.audit(operator, 'operator.login', {});
    const { expiresAt } = await this.startLogin(c, operator);
    return { operator, expiresAt };
  }

  /**
   * Starts a login for an operator already authenticated (single sign-on): a new token in the
   * cookie. An `external` login (not in the operators file) keeps its identity — and the provider's
   * ID token, the hint of its logout — with the login in the shared store, so every process on it
   * recognises the login (no sticky sessions needed). Resolves to when it expires and the login's
   * hash. The caller audits.
   */
  async startLogin(
    c: Context,
    operator: OperatorIdentity,
    external: false | { idToken?: string } = false,
  ): Promise<{ expiresAt: Date; loginHash: string }> {
    const now = this.#now();
    const expiresAt = new Date(now.getTime() + this.#ttlMs);
    const token = createSecret();
    const identity = external
      ? {
          name: operator.name,
          role: operator.role,
          ...(operator.teams ? { teams: operator.teams } : {}),
          ...(external.idToken ? { idToken: external.idToken } : {}),
        }
      : undefined;
    await this.#sessions.save(hashSecret(token), {
      operatorId: operator.id,
      createdAt: now,
      expiresAt,
      ...(identity ? { identity } : {}),
    });
    this.#sessions
      .deleteExpired(now)
      .catch((error) => this.#logger.error('Deleting expired operator logins failed', error));
    setCookie(c, OPERATOR_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api',
      secure: isHttps(c),
      maxAge: Math.floor(this.#ttlMs / 1000),
    });
    return { expiresAt, loginHash: hashSecret(token) };
  }

  /** Ends the request's login (its token no longer opens anything, its event streams end) and clears the cookie. */
  async logout(c: Context): Promise<void> {
    const token = presentedToken(c);
    if (token) {
      await this.#sessions.delete(hashSecret(token));
      this.#streams?.endLogin(hashSecret(token), 'logged out');
    }
    deleteCookie(c, OPERATOR_COOKIE, {
      path: '/api',
      secure: isHttps(c),
      sameSite: 'Strict',
      httpOnly: true,
    });
  }

  /** The provider's ID token kept with the request's single sign-on login (its logout's hint), if any. */
  async idTokenOf(c: Context): Promise<string | undefined> {
    const token = presentedToken(c);
    return token ? (await this.#sessions.find(hashSecret(token)))?.identity?.idToken : undefined;
  }

  /** The hash of the request's login token (what a stream is owned by), or `null` without one. */
  loginOf(c: Context): string | null {
    const token = presentedToken(c);
    return token ? hashSecret(token) : null;
  }

  /**
   * A check for a long-lived stream opened by this request: whether its login still opens `role`
   * (not logged out, expired, removed or demoted — on any process sharing the login store).
   */
  stillLoggedIn(c: Context, role: OperatorRole): () => Promise<boolean> {
    return async () => {
      const operator = await this.identify(c);
      return operator !== null && roleAllows(operator.role, role);
    };
  }

  /** The operator of the request's credential, or `null` (none, unknown, expired, or the operator removed). */
  async identify(c: Context): Promise<OperatorIdentity | null> {
    const token = presentedToken(c);
    if (!token || !this.#directory) return null;
    const hash = hashSecret(token);
    const record = await this.#sessions.find(hash);
    if (!record || record.expiresAt <= this.#now()) return null;
    if (record.identity) {
      const { name, role, teams } = record.identity;
      return { id: record.operatorId, name, role, ...(teams ? { teams } : {}) };
    }
    return this.#directory.find(record.operatorId);
  }

  /**
   * A middleware that lets through operators of at least `role` (an admin may do what an operator
   * may) and makes the operator `c.get('operator')` / `operatorOf(c)`. No credential, or one that
   * is unknown or expired: 401 `OPERATOR_LOGIN_REQUIRED` (distinct from the API key's 401
   * `UNAUTHORIZED`, so a client knows which credential to ask for); too low a role: 403; a state-changing request authenticated by the
   * cookie from another origin: 403.
   */
  require(role: OperatorRole = 'operator'): MiddlewareHandler {
    return async (c, next) => {
      this.#requireConfigured();
      const operator = await this.identify(c);
      if (!operator) {
        throw new ApiError(
          401,
          'OPERATOR_LOGIN_REQUIRED',
          'This needs an operator login: POST /api/v1/operator/login with { login, password }, then send its cookie (or its value as "X-Operator-Token"). Session tokens and API keys are not operator credentials.',
        );
      }
      if (!roleAllows(operator.role, role)) {
        throw new ApiError(
          403,
          'FORBIDDEN',
          `This needs the ${role} role; the operator "${operator.id}" is ${operator.role}.`,
        );
      }
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !c.req.header(OPERATOR_TOKEN_HEADER)) {
        checkSameOrigin(c);
      }
      c.set('operator', operator);
      await next();
    };
  }

  /**
   * Appends an entry to the audit log. A failure to write it is logged and thrown (503): an action
   * that cannot be audited is not done.
   */
  async audit(operator: OperatorIdentity | null, action: string, details: AuditDetails): Promise<void> {
    try {
      await this.auditLog.append({
        at: this.#now(),
        actorId: operator?.id ?? 'unknown',
        actorRole: operator?.role ?? null,
        action,
        sessionId: details.sessionId ?? null,
        detail: details.detail ?? {},
      });
    } catch (error) {
      this.#logger.error(`Writing the audit log failed (${action})`, error);
      throw new ApiError(
        503,
        'AUDIT_LOG',
        'The audit log is not reachable, so the action was not done; retry later.',
        {
          cause: error,
        },
      );
    }
  }

  /**
   * A change of the directory, at once: the streams of operators removed or changed end (they
   * reconnect with their new role, or not at all), and the logins of those removed or whose password
   * changed are deleted, so that none of their tokens opens anything even if the operator comes back.
   */
  #applyChange(change: OperatorDirectoryChange): void {
    for (const id of [...change.removed, ...change.changed])
      this.#streams?.endOperator(id, 'operator removed or changed');
    for (const id of [...change.removed, ...change.passwordChanged]) {
      this.#sessions
        .deleteOperator?.(id)
        .catch((error) =>
          this.#logger.error(
            'Deleting the logins of a removed operator failed; they stay refused while the operator is absent',
            error,
          ),
        );
    }
  }

  #requireConfigured(): OperatorDirectory {
    if (!this.#directory) {
      throw new ApiError(
        404,
        'NOT_FOUND',
        'This server has no operators: pass `operators: { directory }` to createApp (or `--operators <file>` to treeagent dev).',
      );
    }
    return this.#directory;
  }
}

/** The operator of a request that passed `OperatorAuth.require()`. */
export function operatorOf(c: Context): OperatorIdentity {
  const operator = c.get('operator');
  if (!operator)
    throw new Error('operatorOf(c) is used on a route without OperatorAuth.require(): add the middleware.');
  return operator;
}

/** The directory of a server that logs in by single sign-on only: no password opens anything. */
const NO_PASSWORDS: OperatorDirectory = {
  authenticate: async () => null,
  find: async () => null,
};

function presentedToken(c: Context): string | null {
  const header = c.req.header(OPERATOR_TOKEN_HEADER)?.trim();
  if (header) return header;
  return getCookie(c, OPERATOR_COOKIE) ?? null;
}

/** A browser sends `Origin` on state-changing requests; another origin's is refused (CSRF, besides SameSite). */
function checkSameOrigin(c: Context): void {
  const origin = c.req.header('origin');
  if (!origin) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    host = null;
  }
  if (host !== (c.req.header('host') ?? new URL(c.req.url).host)) {
    throw new ApiError(
      403,
      'FORBIDDEN',
      "Operator actions are accepted only from the server's own pages (the Origin differs).",
    );
  }
}
