import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ApiError } from '../../errors/api-error.js';
import { isHttps } from '../../http/client-address.js';
import type { Services } from '../../services.js';
import { OidcRefusal } from './oidc-claims.js';
import { OidcLogin } from './oidc-login.js';

/** The cookie that holds a sign-in in progress (signed; only sent back to the callback). */
const PENDING_COOKIE = 'treeagent_oidc';
const PENDING_PATH = '/api/v1/operator/oidc';
/** A staff page of this server, with a query of plain parameters (`/staff/console?session=…`). */
const STAFF_PAGE = /^\/staff\/[A-Za-z0-9/_-]*(\?[A-Za-z0-9=&%._:-]*)?$/;

/**
 * Single sign-on under `/api/v1/operator/oidc` (public: a sign-in starts without a login; each route
 * checks what it needs):
 * `GET /` → `{ enabled, label }` (the login form shows the button when enabled);
 * `GET /login?returnTo=/staff/console` → 302 to the provider (PKCE, state, nonce);
 * `GET /callback` → the provider's answer: a login started and 302 back to `returnTo`, or 302 to
 * `returnTo?sso-error=<why>` when the provider refused or the user is not an operator (audited
 * `operator.login-failed`); `POST /logout` (operators) → ends the login and its event streams, 200
 * `{ endSessionUrl }` to end the provider's session too.
 */
export function oidcRoutes(services: Services): Hono {
  const routes = new Hono();
  const auth = services.operatorAuth;
  const login = auth.oidc ? new OidcLogin(auth.oidc) : null;
  const required = () => {
    if (!login)
      throw new ApiError(
        404,
        'NOT_FOUND',
        'Single sign-on is not configured: set operators.oidc (issuer, clientId, the client secret, redirectUri, groups).',
      );
    return login;
  };

  routes.get('/', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ enabled: login !== null, label: login?.options.label ?? 'Sign in with single sign-on' });
  });

  routes.get('/login', async (c) => {
    const oidc = required();
    const asked = c.req.query('returnTo') ?? '/staff/console';
    const returnTo = STAFF_PAGE.test(asked) ? asked : '/staff/console';
    const { url, cookie } = await oidc.start(returnTo);
    setCookie(c, PENDING_COOKIE, cookie, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from its site.
      sameSite: 'Lax',
      path: PENDING_PATH,
      secure: isHttps(c),
      maxAge: 600,
    });
    c.header('Cache-Control', 'no-store');
    return c.redirect(url.toString(), 302);
  });

  routes.get('/callback', async (c) => {
    const oidc = required();
    const pending = oidc.pending(getCookie(c, PENDING_COOKIE));
    deleteCookie(c, PENDING_COOKIE, {
      path: PENDING_PATH,
      secure: isHttps(c),
      httpOnly: true,
      sameSite: 'Lax',
    });
    c.header('Cache-Control', 'no-store');
    if (!pending) {
      throw new ApiError(
        400,
        'OIDC_SIGN_IN',
        'This sign-in was not started here or took more than 10 minutes: open the console and sign in again.',
      );
    }
    const back = (error: string) =>
      c.redirect(
        `${pending.returnTo}${pending.returnTo.includes('?') ? '&' : '?'}${new URLSearchParams({ 'sso-error': error })}`,
        302,
      );
    const url = new URL(c.req.url);
    const providerError = url.searchParams.get('error');
    if (providerError) {
      // Anyone can open this URL with any text in `error`: the audit log keeps only an OAuth error
      // code (RFC 6749 §4.1.2.1: access_denied, login_required…), never text a caller wrote.
      const code = OAUTH_ERROR_CODE.test(providerError) ? providerError : 'not an OAuth error code';
      await auth.audit(null, 'operator.login-failed', { detail: { method: 'oidc', error: code } });
      const description = url.searchParams.get('error_description');
      return back(
        `The sign-in provider refused the sign-in (${code}${description ? `: ${description.slice(0, 200)}` : ''}).`,
      );
    }
    // The callback URL as the provider sent it: the configured redirect URI plus the query.
    const callbackUrl = new URL(oidc.options.redirectUri);
    callbackUrl.search = url.search;
    let result: Awaited<ReturnType<OidcLogin['finish']>>;
    try {
      result = await oidc.finish(callbackUrl, pending);
    } catch (error) {
      if (error instanceof OidcRefusal) {
        await auth.audit(null, 'operator.login-failed', {
          detail: { method: 'oidc', error: 'not-an-operator' },
        });
        return back(error.message);
      }
      services.logger.error('A single sign-on callback failed', error);
      await auth.audit(null, 'operator.login-failed', {
        detail: { method: 'oidc', error: 'invalid-response' },
      });
      return back(
        "The sign-in provider's answer could not be checked; try again, or ask an admin to look at the server log.",
      );
    }
    await auth.audit(result.operator, 'operator.login', { detail: { method: 'oidc' } });
    // The identity and the ID token are kept with the login, in the store every process shares.
    await auth.startLogin(c, result.operator, result.idToken ? { idToken: result.idToken } : {});
    return c.redirect(pending.returnTo, 302);
  });

  routes.post('/logout', auth.require('operator'), async (c) => {
    const oidc = required();
    const idToken = await auth.idTokenOf(c);
    await auth.audit(c.get('operator'), 'operator.logout', { detail: { method: 'oidc' } });
    await auth.logout(c);
    const endSessionUrl = await oidc.endSessionUrl(idToken, new URL(c.req.url).origin).catch(() => null);
    c.header('Cache-Control', 'no-store');
    return c.json({ endSessionUrl });
  });

  return routes;
}

/** The shape of an OAuth 2.0 error code (`access_denied`, `temporarily_unavailable`…). */
const OAUTH_ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;
